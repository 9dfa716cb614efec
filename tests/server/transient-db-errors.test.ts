import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { discountedCents } from '../../server/kernel/money.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { openDatabase, type Db, type OpenedDatabase } from '../../server/db/database.ts';
import { runTransaction, TRANSACTION_TRIES } from '../../server/kernel/transactions.ts';
import { createCoupon, lisbonSlot } from './bookings-fixtures.ts';
import {
  accountTestConfig,
  newClient,
  registration,
  verifiedAccount,
  type Client,
  type ErrorBody,
  type Schemas,
} from './support/accounts.ts';
import { DATABASE_TARGETS, freshDatabaseConfig, type FreshDatabase } from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';
import { ledgerInvariantViolations, NO_VIOLATIONS } from './support/ledger.ts';

// A deadlock or a serialization failure is the database undoing one transaction so others can go on: the server
// runs that transaction again, and a member never hears of it. PGlite is one connection, where nothing deadlocks;
// there the failures are raised by the database on purpose, and the real deadlocks are PostgreSQL's.

/** Raises a database error with this SQLSTATE, from the database itself. */
function raise(trx: Db, sqlState: string) {
  return sql
    .raw(`do $$ begin raise exception 'raised by the test' using errcode = '${sqlState}'; end $$`)
    .execute(trx);
}

function recordingLog() {
  const warnings: Record<string, unknown>[] = [];
  return { warnings, warn: (details: object) => void warnings.push(details as Record<string, unknown>) };
}

describe.each(DATABASE_TARGETS)('runTransaction (%s)', (target) => {
  let fresh: FreshDatabase;
  let opened: OpenedDatabase;
  const db = () => opened.db;
  const rows = async () =>
    (await sql<{ label: string }>`select label from notes order by id`.execute(db())).rows.map(
      (row) => row.label,
    );

  beforeAll(async () => {
    fresh = await freshDatabaseConfig(target);
    opened = await openDatabase(fresh.config);
    await sql`create table notes (id serial primary key, label text not null unique)`.execute(db());
  });
  afterAll(async () => {
    await opened?.close();
    await fresh?.cleanup();
  });
  beforeEach(async () => {
    await sql`truncate notes`.execute(db());
  });

  it('runs a transaction ended by a serialization failure again, keeping only the try that committed', async () => {
    const log = recordingLog();
    let tries = 0;
    const answer = await runTransaction(db(), { name: 'note', log }, async (trx) => {
      tries += 1;
      await sql`insert into notes (label) values (${`try ${tries}`})`.execute(trx);
      if (tries === 1) await raise(trx, '40001');
      return 'done';
    });
    expect(answer).toBe('done');
    expect(tries).toBe(2);
    expect(await rows()).toEqual(['try 2']);
    expect(log.warnings).toEqual([
      expect.objectContaining({ transaction: 'note', sqlState: '40001', attempt: 1 }),
    ]);
  });

  it(`gives up after ${TRANSACTION_TRIES} tries of a transaction that deadlocks every time, with the database's error`, async () => {
    const log = recordingLog();
    let tries = 0;
    const outcome = runTransaction(db(), { name: 'note', log }, async (trx) => {
      tries += 1;
      await sql`insert into notes (label) values ('never kept')`.execute(trx);
      await raise(trx, '40P01');
    });
    await expect(outcome).rejects.toMatchObject({ code: '40P01' });
    expect(tries).toBe(TRANSACTION_TRIES);
    expect(log.warnings.map((warning) => warning.attempt)).toEqual([1, 2, 3]);
    expect(await rows()).toEqual([]);
  });

  it('does not run again a transaction that failed for any other reason', async () => {
    await sql`insert into notes (label) values ('taken')`.execute(db());
    let tries = 0;
    const outcome = runTransaction(db(), {}, async (trx) => {
      tries += 1;
      await sql`insert into notes (label) values ('taken')`.execute(trx);
    });
    await expect(outcome).rejects.toMatchObject({ code: '23505' });
    expect(tries).toBe(1);
  });

  it('does not run again a transaction whose work handled the failure in a savepoint of its own', async () => {
    let tries = 0;
    await runTransaction(db(), {}, async (trx) => {
      tries += 1;
      await sql`savepoint attempt`.execute(trx);
      await raise(trx, '40001').catch(() => sql`rollback to savepoint attempt`.execute(trx));
      await sql`insert into notes (label) values ('after the savepoint')`.execute(trx);
    });
    expect(tries).toBe(1);
    expect(await rows()).toEqual(['after the savepoint']);
  });

  it("runs inside the caller's transaction, which is the one run again", async () => {
    let outerTries = 0;
    let innerTries = 0;
    await runTransaction(db(), {}, async (outer) => {
      outerTries += 1;
      await sql`insert into notes (label) values (${`outer ${outerTries}`})`.execute(outer);
      await runTransaction(outer, {}, async (inner) => {
        innerTries += 1;
        if (innerTries === 1) await raise(inner, '40P01');
      });
    });
    expect([outerTries, innerTries]).toEqual([2, 2]);
    expect(await rows()).toEqual(['outer 2']);
  });
});

describe('runTransaction on a real deadlock (PostgreSQL)', () => {
  let fresh: FreshDatabase;
  let opened: OpenedDatabase;

  beforeAll(async () => {
    fresh = await freshDatabaseConfig('postgres');
    opened = await openDatabase(fresh.config);
    await sql`create table counters (id integer primary key, n integer not null)`.execute(opened.db);
    await sql`insert into counters values (1, 0), (2, 0)`.execute(opened.db);
  });
  afterAll(async () => {
    await opened?.close();
    await fresh?.cleanup();
  });

  it('commits both of two transactions that lock two rows in opposite order: the one PostgreSQL fails is run again', async () => {
    const log = recordingLog();
    // Both first take their first row; only then does either reach for the other's.
    let holding = 0;
    let bothHold!: () => void;
    const bothHolding = new Promise<void>((resolve) => (bothHold = resolve));
    const tries = { forward: 0, backward: 0 };

    const bump = (name: keyof typeof tries, first: number, second: number) =>
      runTransaction(opened.db, { name, log }, async (trx) => {
        tries[name] += 1;
        await sql`update counters set n = n + 1 where id = ${first}`.execute(trx);
        if (tries[name] === 1) {
          holding += 1;
          if (holding === 2) bothHold();
          await bothHolding;
        }
        await sql`update counters set n = n + 1 where id = ${second}`.execute(trx);
      });

    await Promise.all([bump('forward', 1, 2), bump('backward', 2, 1)]);
    const counters = await sql<{ id: number; n: number }>`select id, n from counters order by id`.execute(
      opened.db,
    );
    expect(counters.rows).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
    // PostgreSQL fails one of the two; on a loaded machine both can run their deadlock check at once and both be
    // failed (seen once: four tries). Either way every failure was the deadlock, each failed try ran again once,
    // and both committed.
    const failed = tries.forward + tries.backward - 2;
    expect([1, 2]).toContain(failed);
    expect(log.warnings).toEqual(
      Array.from({ length: failed }, (): unknown =>
        expect.objectContaining({ sqlState: '40P01', attempt: 1 }),
      ),
    );
  });
});

describe.each(DATABASE_TARGETS)('a deadlock that outlasts the tries, over HTTP (%s)', (target) => {
  let fresh: FreshDatabase;
  let app: FastifyInstance;
  const logLines: { component?: string; transaction?: string; msg: string }[] = [];

  beforeAll(async () => {
    fresh = await freshDatabaseConfig(target);
    app = await buildApp(accountTestConfig(fresh.config, { LOG_LEVEL: 'warn' }), {
      clock: fixedClock('2026-03-20T10:30:00Z'),
      logStream: { write: (line) => void logLines.push(JSON.parse(line) as (typeof logLines)[number]) },
    });
    // Every new account deadlocks, however often it is tried.
    await sql
      .raw(
        `create function always_deadlock() returns trigger language plpgsql as $$
         begin raise exception 'deadlock detected (raised by the test)' using errcode = '40P01'; end $$;
         create trigger always_deadlock before insert on users for each row execute function always_deadlock()`,
      )
      .execute(app.db);
  });
  afterAll(async () => {
    await app?.close();
    await fresh?.cleanup();
  });

  it('is answered 503 service_unavailable with Retry-After, after the server tried it again itself', async () => {
    const answer = await newClient(app).json('POST', '/api/auth/register', registration());
    expect(answer.statusCode).toBe(503);
    expect(answer.json<ErrorBody>().code).toBe('service_unavailable');
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    const retries = logLines.filter((line) => line.component === 'transactions');
    expect(retries.map((line) => line.transaction)).toEqual(
      Array<string>(TRANSACTION_TRIES - 1).fill('register'),
    );
  });
});

describe('members booking, paying, moving, cancelling and leaving at once on two processes (PostgreSQL)', () => {
  const clock = fixedClock('2026-03-20T10:30:00Z');
  let fresh: FreshDatabase;
  const apps: FastifyInstance[] = [];
  const slots: { id: number; priceCents: number }[] = [];
  const COUPON_DISCOUNT = 0.1;
  const CARD = { card_number: '4242 4242 4242 4242' };
  let couponId: number;

  beforeAll(async () => {
    fresh = await freshDatabaseConfig('postgres');
    // Two apps on one database, each with its own pool, as two server processes would have.
    for (let index = 0; index < 2; index += 1) {
      apps.push(await buildApp(accountTestConfig(fresh.config), { clock }));
    }
    const db = apps[0]!.db;
    const branchId = await createBranch(db);
    for (const day of ['2026-03-25', '2026-03-26', '2026-03-27', '2026-03-28']) {
      for (let hour = 8; hour < 20; hour += 1) {
        // Two prices, so a move may be cheaper (a refund), dearer (a checkout of the difference) or even.
        const priceCents = hour % 3 === 0 ? 2000 : 1500;
        const localStart = `${day}T${String(hour).padStart(2, '0')}:00`;
        slots.push({ id: await lisbonSlot(db, branchId, localStart, { priceCents }), priceCents });
      }
    }
    couponId = await createCoupon(db, { code: 'WORKLOAD10', discount: COUPON_DISCOUNT, maxPerUser: 100 });
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await fresh?.cleanup();
  });

  const anyOf = <T>(values: readonly T[]): T | undefined => values[Math.floor(Math.random() * values.length)];
  const anySlot = () => anyOf(slots)!;
  const discounted = (priceCents: number) => discountedCents(priceCents, COUPON_DISCOUNT);

  it('never answers 5xx, does each kind of change, and leaves no deleted account a live booking', async () => {
    type Kind = 'book' | 'pay' | 'move' | 'cancel' | 'delete';
    const answers: { kind: Kind; answer: LightMyRequestResponse }[] = [];
    const record = async (kind: Kind, pending: Promise<LightMyRequestResponse>) => {
      const answer = await pending;
      answers.push({ kind, answer });
      return answer;
    };
    const sessionOf = (clientSecret: string) => clientSecret.split('_secret_')[0]!;

    async function bookAndPay(client: Client, payer: Client, token: string) {
      const chosen = [...new Set([anySlot(), anySlot()])];
      const created = await record(
        'book',
        client.json(
          'POST',
          '/api/bookings/',
          {
            time_slot_id: chosen.map((slot) => slot.id),
            max_bookings_per_slot: 1,
            coupon_code: couponId,
            expected_total_final_price_eur:
              chosen.reduce((sum, slot) => sum + discounted(slot.priceCents), 0) / 100,
          },
          token,
        ),
      );
      const secret =
        created.statusCode === 201 &&
        created.json<Schemas['CreateBookingResponse']>().checkout_session.clientSecret;
      if (!secret) return;
      await record('pay', payer.json('POST', `/api/checkout/local/${sessionOf(secret)}/complete`, CARD));
    }

    async function moveOrCancel(client: Client, token: string, mayMove = true) {
      const mine = await client.get('/api/bookings/my-bookings', token);
      if (mine.statusCode !== 200) return;
      const booking = anyOf(mine.json<Schemas['Booking'][]>().filter((candidate) => candidate.is_cancelable));
      if (!booking) return;
      if (!mayMove || Math.random() < 0.5) {
        await record(
          'cancel',
          client.json(
            'POST',
            '/api/bookings/cancel-bookings',
            { booking: [{ booking_id: booking.id, expected_refund_eur: booking.refundable_eur }] },
            token,
          ),
        );
        return;
      }
      const to = anySlot();
      const moved = await record(
        'move',
        client.json(
          'POST',
          `/api/bookings/${booking.id}/move`,
          {
            time_slot_id: to.id,
            expected_price_difference_eur:
              (discounted(to.priceCents) - Math.round(booking.final_price_eur * 100)) / 100,
          },
          token,
        ),
      );
      const difference =
        moved.statusCode === 200 && moved.json<Schemas['MoveBookingResponse']>().checkout_session;
      if (!difference) return;
      await record(
        'pay',
        client.json('POST', `/api/checkout/local/${sessionOf(difference.clientSecret)}/complete`, CARD),
      );
    }

    /** A member's life: an account, rounds of booking, paying, moving and cancelling, then the account goes. */
    async function life(worker: number) {
      const app = apps[worker % 2]!;
      const client = newClient(app);
      const onTheOtherProcess = newClient(apps[(worker + 1) % 2]!);
      const { token } = await verifiedAccount(client, app);
      for (let round = 0; round < 3; round += 1) {
        await Promise.all([
          bookAndPay(client, onTheOtherProcess, token),
          moveOrCancel(onTheOtherProcess, token),
        ]);
      }
      // The account goes while a booking of it is being made and paid, and another cancelled. Not moved: a dearer
      // move whose booking the deletion cancels while the provider opens its checkout is answered 503
      // payment_provider_unavailable (nothing charged, try again), which is not about the database.
      await Promise.all([
        bookAndPay(client, onTheOtherProcess, token),
        moveOrCancel(client, token, false),
        record('delete', onTheOtherProcess.json('DELETE', '/api/auth/delete-account', undefined, token)),
      ]);
    }

    await Promise.all(
      Array.from({ length: 10 }, async (_, worker) => {
        for (let lives = 0; lives < 3; lives += 1) await life(worker);
      }),
    );

    const failures = answers
      .filter(({ answer }) => answer.statusCode >= 500)
      .map(({ kind, answer }) => `${kind}: ${answer.statusCode} ${answer.body}`);
    expect(failures, `${failures.length} of ${answers.length} answers were 5xx`).toEqual([]);
    // Every account went: none keeps a live booking (one made while its account went was ended or refused).
    const { rows: liveOfDeleted } = await sql<{ id: number }>`
      select booking.id from bookings booking join users on users.id = booking.user_id
      where users.deleted_at is not null
        and (booking.status = 'confirmed' or (booking.status = 'pending' and booking.hold_expires_at > ${clock.now().toString()}))`.execute(
      apps[0]!.db,
    );
    expect(liveOfDeleted).toEqual([]);
    const succeeded = new Set(
      answers.filter(({ answer }) => answer.statusCode < 300).map(({ kind }) => kind),
    );
    expect([...succeeded].sort()).toEqual(['book', 'cancel', 'delete', 'move', 'pay']);
    // The money ledger stayed whole through it all (issue 27).
    expect(await ledgerInvariantViolations(apps[0]!.db)).toEqual(NO_VIOLATIONS);
  });
});
