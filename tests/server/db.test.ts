import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db/database.ts';
import { migrateToLatest, migrations } from '../../server/db/migrate.ts';
import {
  describeEachDatabase,
  emptyAllTables,
  freshDatabaseConfig,
  type FreshDatabase,
} from './support/databases.ts';
import { createBranch, insertBooking, insertSlot } from './support/fixtures.ts';

/** The constraint a refused statement broke, whichever target refused it. */
async function violatedConstraint(statement: Promise<unknown>): Promise<string | undefined> {
  try {
    await statement;
  } catch (error) {
    return (error as { constraint?: string }).constraint;
  }
  throw new Error('the database accepted the statement');
}

// On an empty database: every other suite starts from the run's template, migrated by the same code.
describeEachDatabase(
  'migrations',
  (getDb) => {
    it('apply every migration once and do nothing when run again', async () => {
      expect(await migrateToLatest(getDb())).toEqual([]);
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
        getDb(),
      );
      expect(applied.rows.map((row) => row.name)).toEqual(Object.keys(migrations));
    });

    it('create the tables the product is built on', async () => {
      const { rows } = await sql<{ tablename: string }>`
      select tablename from pg_tables where schemaname = 'public' and tablename not like 'kysely_%'
      order by tablename`.execute(getDb());
      expect(rows.map((row) => row.tablename)).toEqual([
        'audit_log',
        'blocked_contacts',
        'booking_guests',
        'booking_moves',
        'booking_series',
        'bookings',
        'branch_bookable_periods',
        'branch_closures',
        'branch_images',
        'branches',
        'broadcasts',
        'checkout_sessions',
        'coupon_redemptions',
        'coupons',
        'credit_lots',
        'credit_movements',
        'credit_packs',
        'dated_price_grids',
        'door_unlocks',
        'gift_vouchers',
        'ledger_day_totals',
        'ledger_entries',
        'ledger_entry_bookings',
        'lock_code_doors',
        'lock_codes',
        'lock_devices',
        'lock_events',
        'member_notes',
        'operator_branches',
        'operator_sessions',
        'operator_setup_tokens',
        'operator_totp_steps',
        'operators',
        'outbox',
        'password_reset_tokens',
        'payment_events',
        'price_overrides',
        'price_rules',
        'rate_limit_counters',
        'refund_approvals',
        'refunds',
        'settings',
        'slots',
        'tax_document_counters',
        'tax_documents',
        'users',
        'verification_codes',
        'virtual_door_codes',
      ]);
    });
  },
  { fromScratch: true },
);

describe('migrations started by two processes at once on one PostgreSQL database', () => {
  let fresh: FreshDatabase;
  beforeAll(async () => {
    fresh = await freshDatabaseConfig('postgres', { fromScratch: true });
  });
  afterAll(async () => {
    await fresh?.cleanup();
  });

  it('both succeed and the schema is migrated once', async () => {
    const [first, second] = await Promise.all([openDatabase(fresh.config), openDatabase(fresh.config)]);
    try {
      const results = await Promise.all([migrateToLatest(first.db), migrateToLatest(second.db)]);
      expect(results.flat().map((result) => result.migrationName)).toEqual(Object.keys(migrations));
      const { rows } = await sql<{ count: number }>`select count(*) as count from kysely_migration`.execute(
        first.db,
      );
      expect(rows[0]?.count).toBe(Object.keys(migrations).length);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});

describeEachDatabase('a database emptied between tests', (getDb) => {
  it('keeps its schema and migrations but loses every row, ids starting over', async () => {
    await createBranch(getDb());
    await emptyAllTables(getDb());
    expect(await getDb().selectFrom('branches').selectAll().execute()).toEqual([]);
    expect(await migrateToLatest(getDb())).toEqual([]);
    const branchId = await createBranch(getDb());
    expect(branchId).toBe(1);
  });
});

describeEachDatabase('rows read back', (getDb) => {
  it('come back with the same JavaScript types on both targets', async () => {
    const { rows } = await sql<Record<string, unknown>>`
      select 9007199254740991::bigint as big, 0.1000::numeric(5, 4) as fraction, 42::integer as int,
        '2026-03-29T01:30:00+01:00'::timestamptz as instant, '2026-03-29'::date as day,
        '{"48": 1}'::jsonb as document`.execute(getDb());
    expect(rows[0]).toEqual({
      big: 9007199254740991,
      fraction: 0.1,
      int: 42,
      instant: new Date('2026-03-29T00:30:00Z'),
      day: '2026-03-29',
      document: { '48': 1 },
    });
  });
});

describeEachDatabase('the database against double booking', (getDb) => {
  let slotIds: number[];
  beforeAll(async () => {
    const branchId = await createBranch(getDb());
    slotIds = [];
    for (const hour of [10, 11, 12]) {
      slotIds.push(
        await insertSlot(getDb(), {
          branchId,
          start: `2026-06-01T${hour}:00:00+01:00`,
          end: `2026-06-01T${hour + 1}:00:00+01:00`,
          localDate: '2026-06-01',
        }),
      );
    }
  });

  it('refuses a second live booking of a slot, pending or confirmed', async () => {
    const [slotId] = slotIds as [number];
    await insertBooking(getDb(), { slotId, status: 'confirmed' });
    expect(await violatedConstraint(insertBooking(getDb(), { slotId, status: 'pending' }))).toMatch(
      /^bookings_(one_live_per_slot|no_overlap)$/,
    );
    expect(await violatedConstraint(insertBooking(getDb(), { slotId, status: 'confirmed' }))).toMatch(
      /^bookings_(one_live_per_slot|no_overlap)$/,
    );
  });

  it('frees the slot when its booking is canceled or its hold expires', async () => {
    const [, slotId] = slotIds as [number, number];
    const held = await insertBooking(getDb(), { slotId, status: 'pending' });
    await getDb().updateTable('bookings').set({ status: 'expired' }).where('id', '=', held).execute();
    const confirmed = await insertBooking(getDb(), { slotId, status: 'confirmed' });
    await getDb()
      .updateTable('bookings')
      .set({ status: 'canceled', canceled_at: new Date() })
      .where('id', '=', confirmed)
      .execute();
    await expect(insertBooking(getDb(), { slotId, status: 'pending' })).resolves.toBeTypeOf('number');
    await expect(insertBooking(getDb(), { slotId, status: 'canceled' })).resolves.toBeTypeOf('number');
  });

  it("refuses a booking whose times differ from its slot's", async () => {
    const [, , slotId] = slotIds as [number, number, number];
    const slot = await getDb()
      .selectFrom('slots')
      .selectAll()
      .where('id', '=', slotId)
      .executeTakeFirstOrThrow();
    const shifted = insertBooking(getDb(), { slotId, status: 'confirmed' }).then(() =>
      getDb()
        .updateTable('bookings')
        .set({ end_time: new Date(slot.end_time.getTime() + 30 * 60_000) })
        .where('slot_id', '=', slotId)
        .execute(),
    );
    expect(await violatedConstraint(shifted)).toBe('bookings_slot_fk');
  });

  it('never lets two slots of a branch overlap', async () => {
    const slot = await getDb()
      .selectFrom('slots')
      .selectAll()
      .where('id', '=', slotIds[0]!)
      .executeTakeFirstOrThrow();
    const overlapping = insertSlot(getDb(), {
      branchId: slot.branch_id,
      start: '2026-06-01T10:30:00+01:00',
      end: '2026-06-01T11:30:00+01:00',
      localDate: '2026-06-01',
    });
    expect(await violatedConstraint(overlapping)).toBe('slots_no_overlap');
  });
});

describeEachDatabase('live bookings of overlapping slot rows', (getDb) => {
  // Slots of a branch cannot overlap either, so to show that the bookings' own constraint holds on its
  // own (say, after a schedule change went wrong), this suite's database goes without the slot one.
  let db: Db;
  beforeAll(async () => {
    db = getDb();
    await sql`alter table slots drop constraint slots_no_overlap`.execute(db);
  });

  it('are refused at one branch, but allowed at two different branches', async () => {
    const branchId = await createBranch(db);
    const otherBranchId = await createBranch(db);
    const hourSlot = await insertSlot(db, {
      branchId,
      start: '2026-06-02T10:00:00Z',
      end: '2026-06-02T11:00:00Z',
      localDate: '2026-06-02',
    });
    const halfHourLater = await insertSlot(db, {
      branchId,
      start: '2026-06-02T10:30:00Z',
      end: '2026-06-02T11:30:00Z',
      localDate: '2026-06-02',
    });
    const sameTimeElsewhere = await insertSlot(db, {
      branchId: otherBranchId,
      start: '2026-06-02T10:00:00Z',
      end: '2026-06-02T11:00:00Z',
      localDate: '2026-06-02',
    });
    await insertBooking(db, { slotId: hourSlot, status: 'confirmed' });
    expect(await violatedConstraint(insertBooking(db, { slotId: halfHourLater, status: 'pending' }))).toBe(
      'bookings_no_overlap',
    );
    await expect(insertBooking(db, { slotId: sameTimeElsewhere, status: 'confirmed' })).resolves.toBeTypeOf(
      'number',
    );
  });
});

describeEachDatabase('check constraints', (getDb) => {
  it('refuse rows no business rule allows', async () => {
    const db = getDb();
    const branchId = await createBranch(db);
    expect(
      await violatedConstraint(
        db.insertInto('coupons').values({ code: 'TOO-MUCH', discount: 1.5 }).execute(),
      ),
    ).toBe('coupons_discount_check');
    expect(
      await violatedConstraint(db.insertInto('coupons').values({ code: 'lower', discount: 0.1 }).execute()),
    ).toBe('coupons_code_check');
    expect(
      await violatedConstraint(
        insertSlot(db, {
          branchId,
          start: '2026-06-03T11:00:00Z',
          end: '2026-06-03T10:00:00Z',
          localDate: '2026-06-03',
        }),
      ),
    ).toBe('slots_time_order');
    expect(
      await violatedConstraint(
        db
          .insertInto('price_rules')
          .values([
            {
              branch_id: branchId,
              iso_weekday: 1,
              starts_at_minute: 0,
              ends_at_minute: 600,
              price_cents: 100,
            },
            {
              branch_id: branchId,
              iso_weekday: 1,
              starts_at_minute: 540,
              ends_at_minute: 900,
              price_cents: 200,
            },
          ])
          .execute(),
      ),
    ).toBe('price_rules_no_overlap');
    expect(
      await violatedConstraint(
        db
          .insertInto('users')
          .values({ email: 'Mixed@Example.com', phone_number: '+351910000000', password_hash: 'x' })
          .execute(),
      ),
    ).toBe('users_email_lower_case');
  });
});
