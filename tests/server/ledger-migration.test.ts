import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db/database.ts';
import { migrateToLatest, migrationsFor } from '../../server/db/migrate.ts';
import { DATABASE_TARGETS, freshDatabaseConfig, type FreshDatabase } from './support/databases.ts';
import { createBranch, createUser, insertSlot } from './support/fixtures.ts';

// Issue 27, item 1: the money paid and refunded before the ledger existed is copied into it by its migration,
// each row with its kind, its bookings' shares and the payment a refund pays back; and the database keeps the
// ledger as it was written (no UPDATE, no DELETE, no entry whose shares do not add up, no refund beyond its
// payment).

type Entry = {
  kind: string;
  purpose: string;
  amount_cents: number;
  vat_cents: number;
  vat_rate: number;
  checkout_session_id: string;
  refunded_session: string | null;
  actor_type: string;
  actor_id: string | null;
  actor_name: string | null;
  reason: string | null;
  shares: string;
};

describe.each(DATABASE_TARGETS)('the ledger migration on %s', (target) => {
  let fresh: FreshDatabase;
  let opened: { db: Db; close: () => Promise<void> };
  const db = () => opened.db;

  beforeAll(async () => {
    fresh = await freshDatabaseConfig(target, { fromScratch: true });
    opened = await openDatabase(fresh.config);
    const migrator = new Migrator({
      db: db(),
      provider: { getMigrations: async () => migrationsFor({ vatRate: 0.06 }) },
    });
    const { error } = await migrator.migrateTo('0007_moves');
    if (error) throw new Error('could not migrate to 0007_moves', { cause: error });
  });
  afterAll(async () => {
    await opened?.close();
    await fresh?.cleanup();
  });

  let booked = 0;
  async function legacyBooking(
    branchId: number,
    userId: string,
    booking: {
      priceCents: number;
      status: 'pending' | 'confirmed' | 'canceled' | 'expired';
      sessionId: string | null;
      paid: boolean;
      canceledAt?: Date;
      canceledBy?: string;
    },
  ): Promise<number> {
    booked += 1;
    const start = new Date(Date.UTC(2026, 3, 1, booked));
    const slotId = await insertSlot(db(), {
      branchId,
      start: start.toISOString(),
      end: new Date(start.getTime() + 3_600_000).toISOString(),
      localDate: '2026-04-01',
      priceCents: booking.priceCents,
    });
    const { rows } = await sql<{ id: number }>`
      insert into bookings (user_id, slot_id, branch_id, start_time, end_time, status, hold_expires_at,
        base_price_cents, final_price_cents, checkout_session_id, refund_ratios, paid_at, canceled_at, canceled_by)
      select ${userId}::uuid, slot.id, slot.branch_id, slot.start_time, slot.end_time, ${booking.status},
        ${booking.status === 'pending' ? new Date('2100-01-01T00:00:00Z') : null}::timestamptz,
        slot.price_cents, slot.price_cents, ${booking.sessionId}, '{"48": 1}'::jsonb,
        ${booking.paid ? new Date('2026-03-20T10:00:00Z') : null}::timestamptz,
        ${booking.canceledAt ?? null}::timestamptz, ${booking.canceledBy ?? null}
      from slots as slot where slot.id = ${slotId}
      returning id`.execute(db());
    return rows[0]!.id;
  }

  async function session(id: string, userId: string, amountCents: number, paid: boolean, at: string) {
    await sql`insert into checkout_sessions (id, provider, user_id, status, payment_status, amount_cents,
        expires_at, payment_intent_id, created_at, completed_at)
      values (${id}, 'local', ${userId}::uuid, ${paid ? 'complete' : 'open'}, ${paid ? 'paid' : 'unpaid'},
        ${amountCents}, '2100-01-01T00:00:00Z', ${paid ? `pi_${id}` : null}, ${at}::timestamptz,
        ${paid ? at : null}::timestamptz)`.execute(db());
  }

  async function refund(
    bookingId: number,
    cents: number,
    key: string,
    options: { sessionId?: string; status?: string; reason?: string } = {},
  ) {
    await sql`insert into refunds (booking_id, amount_cents, provider, provider_refund_id, idempotency_key, status,
        checkout_session_id, reason)
      values (${bookingId}, ${cents}, 'local', ${`re_${key}`}, ${key}, ${options.status ?? 'succeeded'},
        ${options.sessionId ?? null}, ${options.reason ?? null})`.execute(db());
  }

  async function move(
    bookingId: number,
    seq: number,
    fromCents: number,
    toCents: number,
    sessionId: string | null,
  ) {
    const { rows } = await sql<{ slot_id: number; branch_id: number }>`
      select slot_id, branch_id from bookings where id = ${bookingId}`.execute(db());
    const from = rows[0]!;
    booked += 1;
    const start = new Date(Date.UTC(2026, 3, 2, booked));
    const to = await insertSlot(db(), {
      branchId: from.branch_id,
      start: start.toISOString(),
      end: new Date(start.getTime() + 3_600_000).toISOString(),
      localDate: '2026-04-02',
      priceCents: toCents,
    });
    await sql`insert into booking_moves (booking_id, seq, from_slot_id, to_slot_id, from_price_cents,
        to_base_price_cents, to_price_cents, difference_cents, state, checkout_session_id, settled_at)
      values (${bookingId}, ${seq}, ${from.slot_id}, ${to}, ${fromCents}, ${toCents}, ${toCents},
        ${toCents - fromCents}, 'completed', ${sessionId}, now())`.execute(db());
    await sql`update bookings set final_price_cents = ${toCents}, base_price_cents = ${toCents}, slot_id = slot.id,
        start_time = slot.start_time, end_time = slot.end_time
      from slots as slot where slot.id = ${to} and bookings.id = ${bookingId}`.execute(db());
  }

  it('copies every payment and refund that moved money, with its shares and the payment a refund pays back', async () => {
    // Not bookable: a bookable branch records its bookable period, a table of a later migration than this schema's.
    const branchId = await createBranch(db(), { activeWithSmartLock: false });
    const member = await createUser(db());
    const gone = await createUser(db());
    const deletedAt = new Date('2026-03-22T09:00:00Z');
    await sql`update users set deleted_at = ${deletedAt} where id = ${gone}::uuid`.execute(db());
    await sql`insert into operators (email, role, totp_secret) values ('owner@gym.example', 'owner', 'x')`.execute(
      db(),
    );
    const [{ id: operatorId }] = (
      await sql<{ id: number }>`select id from operators where email = 'owner@gym.example'`.execute(db())
    ).rows as [{ id: number }];

    // Two slots in one checkout; one moves to a dearer slot (6.30 paid), the other to a cheaper (7.00 back).
    await session('cs_pair', member, 3550, true, '2026-03-20T10:00:00Z');
    const dearer = await legacyBooking(branchId, member, {
      priceCents: 1350,
      status: 'canceled',
      sessionId: 'cs_pair',
      paid: true,
      canceledAt: new Date('2026-03-21T10:00:00Z'),
    });
    const cheaper = await legacyBooking(branchId, member, {
      priceCents: 2200,
      status: 'canceled',
      sessionId: 'cs_pair',
      paid: true,
      canceledAt: new Date('2026-03-21T10:00:00Z'),
    });
    await session('cs_move', member, 630, true, '2026-03-20T11:00:00Z');
    await move(dearer, 1, 1350, 1980, 'cs_move');
    await move(cheaper, 1, 2200, 1500, null);
    await refund(cheaper, 700, `move-refund-${cheaper}-1`);
    await refund(dearer, 630, `cancel-refund-${dearer}-m1`, { sessionId: 'cs_move' });
    await refund(dearer, 1350, `cancel-refund-${dearer}`);
    await refund(cheaper, 1500, `cancel-refund-${cheaper}`);
    // A closure, an operator's partial refund, an account's deletion, a late payment, a refused refund.
    await session('cs_closed', member, 1600, true, '2026-03-20T12:00:00Z');
    await sql`insert into branch_closures (branch_id, starts_at, ends_at, reason, created_by, created_by_email)
      values (${branchId}, '2026-04-01T00:00:00Z', '2026-04-01T01:00:00Z', 'leak', ${operatorId},
        'owner@gym.example')`.execute(db());
    const closed = await legacyBooking(branchId, member, {
      priceCents: 1600,
      status: 'canceled',
      sessionId: 'cs_closed',
      paid: true,
      canceledAt: new Date('2026-03-21T12:00:00Z'),
      canceledBy: 'closure:1',
    });
    await refund(closed, 1600, `cancel-refund-${closed}`, { reason: 'leak' });
    await session('cs_operator', member, 1500, true, '2026-03-20T13:00:00Z');
    const overridden = await legacyBooking(branchId, member, {
      priceCents: 1500,
      status: 'canceled',
      sessionId: 'cs_operator',
      paid: true,
      canceledAt: new Date('2026-03-21T13:00:00Z'),
      canceledBy: 'owner@gym.example',
    });
    await refund(overridden, 500, `cancel-refund-${overridden}`, { reason: 'broken shower' });
    await session('cs_gone', gone, 1800, true, '2026-03-20T14:00:00Z');
    const deleted = await legacyBooking(branchId, gone, {
      priceCents: 1800,
      status: 'canceled',
      sessionId: 'cs_gone',
      paid: true,
      canceledAt: new Date(deletedAt.getTime() + 15),
    });
    await refund(deleted, 900, `cancel-refund-${deleted}`);
    await session('cs_late', member, 1500, true, '2026-03-20T15:00:00Z');
    const late = await legacyBooking(branchId, member, {
      priceCents: 1500,
      status: 'expired',
      sessionId: 'cs_late',
      paid: true,
    });
    await refund(late, 1500, `late-payment-refund-${late}`);
    await refund(closed, 100, 'refused-by-the-provider', { status: 'failed' });
    // An unpaid checkout moved no money.
    await session('cs_open', member, 1500, false, '2026-03-20T16:00:00Z');
    await legacyBooking(branchId, member, {
      priceCents: 1500,
      status: 'pending',
      sessionId: 'cs_open',
      paid: false,
    });

    await migrateToLatest(db(), { vatRate: 0.06 });

    const { rows } = await sql<Entry>`
      select entry.kind, entry.purpose, entry.amount_cents, entry.vat_cents, entry.vat_rate,
        entry.checkout_session_id, paid.checkout_session_id as refunded_session, entry.actor_type, entry.actor_id,
        entry.actor_name, entry.reason,
        (select string_agg(share.booking_id || ':' || share.amount_cents, ' ' order by share.booking_id)
          from ledger_entry_bookings as share where share.entry_id = entry.id) as shares
      from ledger_entries as entry left join ledger_entries as paid on paid.id = entry.refunded_entry_id
      order by entry.id`.execute(db());
    const summary = rows.map(
      (row) =>
        `${row.kind} ${row.purpose} ${row.amount_cents} [${row.shares}] ${row.refunded_session ?? '-'}`,
    );
    expect(summary).toEqual([
      `payment booking 3550 [${dearer}:1350 ${cheaper}:2200] -`,
      `payment booking 1600 [${closed}:1600] -`,
      `payment booking 1500 [${overridden}:1500] -`,
      `payment booking 1800 [${deleted}:1800] -`,
      `payment booking 1500 [${late}:1500] -`,
      `payment move_difference 630 [${dearer}:630] -`,
      `refund move_to_cheaper_slot 700 [${cheaper}:700] cs_pair`,
      `refund cancellation 630 [${dearer}:630] cs_move`,
      `refund cancellation 1350 [${dearer}:1350] cs_pair`,
      `refund cancellation 1500 [${cheaper}:1500] cs_pair`,
      `refund closure 1600 [${closed}:1600] cs_closed`,
      `refund operator 500 [${overridden}:500] cs_operator`,
      `refund account_deletion 900 [${deleted}:900] cs_gone`,
      `refund late_payment 1500 [${late}:1500] cs_late`,
    ]);
    // Who caused each refund, and what the operator said.
    const actors = rows
      .filter((row) => row.kind === 'refund')
      .map((row) => [row.purpose, row.actor_type, row.actor_id, row.actor_name, row.reason]);
    expect(actors).toEqual([
      ['move_to_cheaper_slot', 'member', member, null, null],
      ['cancellation', 'member', member, null, null],
      ['cancellation', 'member', member, null, null],
      ['cancellation', 'member', member, null, null],
      ['closure', 'system', 'closure:1', 'owner@gym.example', 'leak'],
      ['operator', 'operator', String(operatorId), 'owner@gym.example', 'broken shower'],
      ['account_deletion', 'member', gone, null, null],
      ['late_payment', 'system', null, null, null],
    ]);
    // VAT at the rate the migration was given: 3550 includes 3550 - round(3550 / 1.06) = 201.
    expect(rows[0]).toMatchObject({ vat_rate: 0.06, vat_cents: 201 });
  });

  it('refuses to change or remove a row, and any entry whose shares do not add up or that refunds too much', async () => {
    await expect(sql`update ledger_entries set reason = 'x'`.execute(db())).rejects.toThrow(/immutable/);
    await expect(sql`delete from ledger_entries`.execute(db())).rejects.toThrow(/immutable/);
    await expect(sql`update ledger_entry_bookings set amount_cents = 1`.execute(db())).rejects.toThrow(
      /immutable/,
    );
    const { rows } = await sql<{ id: number; booking_id: number; branch_id: number }>`
      select entry.id, share.booking_id, entry.branch_id from ledger_entries as entry
      join ledger_entry_bookings as share on share.entry_id = entry.id
      where entry.checkout_session_id = 'cs_operator' and entry.kind = 'payment'`.execute(db());
    const payment = rows[0]!;
    const claim = async (key: string) =>
      (
        await sql<{ id: number }>`insert into refunds (booking_id, amount_cents, provider, idempotency_key)
          values (${payment.booking_id}, 1, 'local', ${key}) returning id`.execute(db())
      ).rows[0]!.id;
    const entry = (refundId: number, amount: number, share: number) =>
      db()
        .transaction()
        .execute(async (trx) => {
          const { rows: inserted } = await sql<{ id: number }>`
            insert into ledger_entries (kind, purpose, amount_cents, currency, vat_rate, vat_cents, provider,
              checkout_session_id, refund_id, refunded_entry_id, branch_id, actor_type, occurred_at)
            values ('refund', 'operator', ${amount}, 'eur', 0.23, 0, 'local', 'cs_operator', ${refundId},
              ${payment.id}, ${payment.branch_id}, 'cli', now())
            returning id`.execute(trx);
          await sql`insert into ledger_entry_bookings (entry_id, booking_id, amount_cents)
            values (${inserted[0]!.id}, ${payment.booking_id}, ${share})`.execute(trx);
        });
    // 500 of the 1500 were refunded: 1000 more is all that is left.
    await expect(entry(await claim('unbalanced'), 300, 200)).rejects.toThrow(/shares/);
    await expect(entry(await claim('too-much'), 1001, 1001)).rejects.toThrow(/more than/);
    await expect(entry(await claim('the-rest'), 1000, 1000)).resolves.toBeUndefined();
  });
});
