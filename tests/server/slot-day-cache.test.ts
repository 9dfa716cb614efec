import type { Schemas } from './support/accounts.ts';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { createSlotDayCache } from '../../server/catalog/slot-day-cache.ts';
import type { DaySlots } from '../../server/catalog/repository.ts';
import type { ChangeFeed } from '../../server/db/change-feed.ts';
import { openDatabase, type OpenedDatabase } from '../../server/db/database.ts';
import { fixedClock, type TestClock } from '../../server/kernel/clock.ts';
import { lisbonSlot } from './bookings-fixtures.ts';
import { accountTestConfig, newClient, verifiedAccount } from './support/accounts.ts';
import { freshDatabaseConfig, TEST_POSTGRES_URL, type FreshDatabase } from './support/databases.ts';
import { createBranch, insertBooking } from './support/fixtures.ts';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts';
import { callJson, useServerProcesses } from './support/server-process.ts';

// The slot listing's rows kept by each process until they change (server/catalog/slot-day-cache.ts): a listing
// never shows what a change made before it by this process undid, shows another process's change as soon as the
// database's notice arrives (well within a second, against a keep of a minute here), frees a slot when its hold
// expires with nothing written, and forgets everything when the connections that would have heard a notice go.

type Listed = Map<number, { bookable: boolean; price: number }>;

function byId(slots: Schemas['TimeSlot'][]): Listed {
  return new Map(
    slots.map((slot) => [slot.id, { bookable: slot.is_bookeable, price: slot.basic_price_eur }]),
  );
}

/** Lists until `expected` holds of the listing, for up to `ms`; how long that took, or a failure naming it. */
async function until(list: () => Promise<Listed>, expected: (listed: Listed) => boolean, ms: number) {
  const started = performance.now();
  let last: Listed = new Map();
  while (performance.now() - started < ms) {
    last = await list();
    if (expected(last)) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the listing did not change within ${ms} ms: ${JSON.stringify([...last])}`);
}

/** Reprices a slot with the database's triggers off (a replica's session): a change no process hears of. */
async function repriceUnheard(db: OpenedDatabase['db'], slotId: number, priceCents: number) {
  await db.connection().execute(async (connection) => {
    await sql`set session_replication_role = replica`.execute(connection);
    await connection.updateTable('slots').set({ price_cents: priceCents }).where('id', '=', slotId).execute();
    await sql`set session_replication_role = origin`.execute(connection);
  });
}

/**
 * Lists until the server answers from rows it keeps (a first read may be overtaken by a notice still on its way,
 * and then not kept): proven by a change it is not told of that its listing does not show. The price listed.
 */
async function untilKept(list: () => Promise<Listed>, db: OpenedDatabase['db'], slotId: number) {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const price = (await list()).get(slotId)!.price;
    await repriceUnheard(db, slotId, Math.round(price * 100) + 100);
    if ((await list()).get(slotId)!.price === price) return price;
  }
  throw new Error('the server never answered from rows it keeps');
}

// Far below the keep the servers below are given (a minute): only the database's notice explains a change seen
// this soon.
const NOTICE_WITHIN_MS = 5000;
const KEEP = { SLOT_LISTING_KEEP_MS: '60000' };

describe('the slot listing kept until it changes, one process (postgres)', () => {
  let fresh: FreshDatabase;
  let app: FastifyInstance;
  let clock: TestClock;
  let other: OpenedDatabase;
  let branchId: number;
  let slotId: number;
  let laterSlotId: number;
  const day = '2026-03-25';

  const list = async () => {
    const answer = await newClient(app).get(`/api/bookings/slots/${branchId}/${day}`);
    expect(answer.statusCode).toBe(200);
    return byId(answer.json<Schemas['TimeSlot'][]>());
  };

  beforeAll(async () => {
    fresh = await freshDatabaseConfig('postgres');
    clock = fixedClock('2026-03-20T10:30:00Z');
    app = await buildApp(accountTestConfig(fresh.config, KEEP), { clock });
    // Another pool on the same database: its changes reach the server as another process's would.
    other = await openDatabase(fresh.config);
    branchId = await createBranch(app.db);
    slotId = await lisbonSlot(app.db, branchId, `${day}T10:00`);
    laterSlotId = await lisbonSlot(app.db, branchId, `${day}T11:00`);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await other?.close();
    await fresh?.cleanup();
  });

  it('answers many listings of a day from one read: a change made behind the notices is not seen', async () => {
    expect((await list()).get(slotId)).toEqual({ bookable: true, price: 15 });
    // With its triggers off (a replica's session), the change sends no notice: the kept rows stand.
    await repriceUnheard(other.db, slotId, 1700);
    expect((await list()).get(slotId)).toEqual({ bookable: true, price: 15 });
    // The same change with its notice is seen.
    await other.db.updateTable('slots').set({ price_cents: 1800 }).where('id', '=', slotId).execute();
    await until(list, (listed) => listed.get(slotId)?.price === 18, NOTICE_WITHIN_MS);
  });

  it("shows this process's own booking taken in its very next listing, and frees the slot when the hold expires", async () => {
    const client = newClient(app);
    const { token } = await verifiedAccount(client, app);
    const before = await list();
    expect(before.get(laterSlotId)?.bookable).toBe(true);
    const placed = await client.json(
      'POST',
      '/api/bookings/',
      {
        time_slot_id: [laterSlotId],
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: before.get(laterSlotId)!.price,
      },
      token,
    );
    expect(placed.statusCode).toBe(201);
    // No wait: the notice of this process's own transaction arrived before its COMMIT answered.
    expect((await list()).get(laterSlotId)?.bookable).toBe(false);
    expect((await list()).get(laterSlotId)?.bookable).toBe(false);
    const { hold_expires_at: expiry } = await other.db
      .selectFrom('bookings')
      .select('hold_expires_at')
      .where('slot_id', '=', laterSlotId)
      .executeTakeFirstOrThrow();
    // A moment before the hold expires it still counts; at its expiry, with nothing written, it no longer does.
    clock.set(new Date(expiry!.getTime() - 1000).toISOString());
    expect((await list()).get(laterSlotId)?.bookable).toBe(false);
    clock.set(expiry!.toISOString());
    expect((await list()).get(laterSlotId)?.bookable).toBe(true);
  });

  it("sees another process's bookings, closures, prices and branch changes as soon as they commit", async () => {
    expect((await list()).get(slotId)?.bookable).toBe(true);

    const booking = await insertBooking(other.db, { slotId, status: 'confirmed' });
    await until(list, (listed) => listed.get(slotId)?.bookable === false, NOTICE_WITHIN_MS);
    await other.db
      .updateTable('bookings')
      .set({ status: 'canceled', canceled_at: new Date() })
      .where('id', '=', booking)
      .execute();
    await until(list, (listed) => listed.get(slotId)?.bookable === true, NOTICE_WITHIN_MS);

    await other.db.updateTable('slots').set({ price_cents: 2100 }).where('id', '=', slotId).execute();
    await until(list, (listed) => listed.get(slotId)?.price === 21, NOTICE_WITHIN_MS);

    const { id: closure } = await other.db
      .insertInto('branch_closures')
      .values({
        branch_id: branchId,
        starts_at: new Date('2026-03-25T09:30:00Z'),
        ends_at: new Date('2026-03-25T10:30:00Z'),
        reason: 'maintenance',
        created_by_email: 'ops@gym.example',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await until(list, (listed) => listed.get(slotId)?.bookable === false, NOTICE_WITHIN_MS);
    await other.db
      .updateTable('branch_closures')
      .set({ reopened_at: new Date() })
      .where('id', '=', closure)
      .execute();
    await until(list, (listed) => listed.get(slotId)?.bookable === true, NOTICE_WITHIN_MS);

    await other.db
      .updateTable('branches')
      .set({ active_with_smart_lock: false })
      .where('id', '=', branchId)
      .execute();
    await until(list, (listed) => [...listed.values()].every((slot) => !slot.bookable), NOTICE_WITHIN_MS);
    await other.db
      .updateTable('branches')
      .set({ active_with_smart_lock: true })
      .where('id', '=', branchId)
      .execute();
    await until(list, (listed) => listed.get(slotId)?.bookable === true, NOTICE_WITHIN_MS);

    // A table emptied at once (a clean slate) forgets every branch.
    await insertBooking(other.db, { slotId, status: 'confirmed' });
    await until(list, (listed) => listed.get(slotId)?.bookable === false, NOTICE_WITHIN_MS);
    await sql`truncate bookings cascade`.execute(other.db);
    await until(list, (listed) => listed.get(slotId)?.bookable === true, NOTICE_WITHIN_MS);
  });
});

describe('the slot listing kept until it changes, its connections cut (postgres)', () => {
  let fresh: FreshDatabase;
  let proxy: TcpProxy;
  let app: FastifyInstance;
  let other: OpenedDatabase;
  let branchId: number;
  let slotId: number;
  const day = '2026-03-25';

  beforeAll(async () => {
    fresh = await freshDatabaseConfig('postgres');
    if (fresh.config.kind !== 'postgres') throw new Error('needs PostgreSQL');
    const target = new URL(TEST_POSTGRES_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    app = await buildApp(accountTestConfig({ kind: 'postgres', url: proxy.urlFor(fresh.config.url) }, KEEP), {
      clock: fixedClock('2026-03-20T10:30:00Z'),
    });
    other = await openDatabase(fresh.config);
    branchId = await createBranch(other.db);
    slotId = await lisbonSlot(other.db, branchId, `${day}T10:00`);
  }, 60_000);
  afterAll(async () => {
    proxy?.restore();
    await app?.close();
    await other?.close();
    await proxy?.close();
    await fresh?.cleanup();
  });

  it('forgets what it kept when the connections that would hear a notice are lost, and reads the day again', async () => {
    const client = newClient(app);
    const listed = async () => {
      const answer = await client.get(`/api/bookings/slots/${branchId}/${day}`);
      return { status: answer.statusCode, slots: answer.statusCode === 200 ? byId(answer.json()) : null };
    };
    expect((await listed()).slots?.get(slotId)?.bookable).toBe(true);
    const keptPrice = await untilKept(async () => (await listed()).slots!, other.db, slotId);

    // The database goes away for this server: every connection reset. Its notices of what happens meanwhile
    // reach nobody here.
    proxy.cut();
    const cutAt = performance.now();
    while ((await client.get('/api/health')).statusCode === 200) {
      if (performance.now() - cutAt > 20_000) throw new Error('the server never noticed the cut');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await insertBooking(other.db, { slotId, status: 'confirmed' });
    proxy.restore();

    // Its first answer after the outage is read from the database, not from the rows it kept: the slot is taken,
    // at the price it was not told of.
    const restoredAt = performance.now();
    for (;;) {
      const answer = await listed();
      if (answer.status === 200) {
        expect(answer.slots?.get(slotId)?.bookable).toBe(false);
        expect(answer.slots?.get(slotId)?.price).not.toBe(keptPrice);
        break;
      }
      expect(answer.status).toBe(503);
      if (performance.now() - restoredAt > 20_000) throw new Error('the server did not recover');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 60_000);
});

describe('the slot listing kept until it changes, two server processes (postgres)', () => {
  const { servers } = useServerProcesses({ fromScratch: true, env: KEEP });

  it('each process shows the slots the other books taken as soon as they are booked', async () => {
    const login = await fetch(`${servers[0]!.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'demo@example.com', password: 'Demo-gym-2026!' }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const branches = (await callJson(servers[0]!, '/api/bookings/branches')).body as unknown as {
      id: number;
      active_with_smart_lock: boolean;
    }[];
    const branch = branches.find((candidate) => candidate.active_with_smart_lock)!;
    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const listOn = (index: number) => async () =>
      byId(
        (await callJson(servers[index]!, `/api/bookings/slots/${branch.id}/${day}`))
          .body as unknown as Schemas['TimeSlot'][],
      );
    const first = await listOn(0)();
    await listOn(1)();
    const free = [...first].filter(([, slot]) => slot.bookable).slice(0, 6);
    expect(free).toHaveLength(6);

    for (const [round, [slotId, slot]] of free.entries()) {
      const booker = round % 2;
      const watcher = 1 - booker;
      const placed = await callJson(
        servers[booker]!,
        '/api/bookings/',
        {
          time_slot_id: [slotId],
          max_bookings_per_slot: 1,
          coupon_code: null,
          expected_total_final_price_eur: slot.price,
        },
        token,
      );
      expect(placed.status).toBe(201);
      expect((await listOn(booker)()).get(slotId)?.bookable).toBe(false);
      await until(listOn(watcher), (listed) => listed.get(slotId)?.bookable === false, NOTICE_WITHIN_MS);
    }
  }, 120_000);
});

describe('the slot listing cache', () => {
  // A feed driven by the test: the cache's contract with the database's notices, without a database.
  function testFeed() {
    const subscribers: { onNotice(payload: string): void; onLoss(): void }[] = [];
    let listening = true;
    const feed: ChangeFeed = {
      listening: () => listening,
      subscribe: (subscriber) => subscribers.push(subscriber),
    };
    return {
      feed,
      notice: (payload: string) => subscribers.forEach((subscriber) => subscriber.onNotice(payload)),
      lose: () => subscribers.forEach((subscriber) => subscriber.onLoss()),
      setListening: (value: boolean) => {
        listening = value;
      },
    };
  }
  const rows = (price: number, nextHoldExpiryMs: number | null = null): DaySlots => ({
    time_zone: 'Europe/Lisbon',
    active_with_smart_lock: true,
    slots: [[1, 1000, 2000, price, false]],
    next_hold_expiry_ms: nextHoldExpiryMs,
  });
  /** A reader counting its reads, answering `rows(price)` with the current price. */
  function reader() {
    let reads = 0;
    let price = 1500;
    return {
      read:
        (nextHoldExpiryMs: number | null = null) =>
        async () => {
          reads += 1;
          return rows(price, nextHoldExpiryMs);
        },
      reprice: (value: number) => {
        price = value;
      },
      reads: () => reads,
    };
  }
  const priceOf = (day: DaySlots | null) => day?.slots?.[0]?.[3];

  it('keeps a day until a notice names its branch; other branches’ notices leave it', async () => {
    const { feed, notice } = testFeed();
    const cache = createSlotDayCache({ changes: feed, maxAgeMs: 60_000 });
    const source = reader();
    expect(priceOf(await cache.read(1, 'd', 0, source.read()))).toBe(1500);
    source.reprice(1600);
    expect(priceOf(await cache.read(1, 'd', 0, source.read()))).toBe(1500);
    notice('2');
    expect(priceOf(await cache.read(1, 'd', 0, source.read()))).toBe(1500);
    notice('1');
    expect(priceOf(await cache.read(1, 'd', 0, source.read()))).toBe(1600);
    expect(source.reads()).toBe(2);
    source.reprice(1700);
    notice('');
    expect(priceOf(await cache.read(1, 'd', 0, source.read()))).toBe(1700);
  });

  it('does not keep a read a notice for its branch or a loss overtook, nor one made while nobody listens', async () => {
    const { feed, notice, lose, setListening } = testFeed();
    const cache = createSlotDayCache({ changes: feed, maxAgeMs: 60_000 });
    const source = reader();
    const overtaken = (event: () => void) => async () => {
      const day = await source.read()();
      event();
      return day;
    };
    await cache.read(
      1,
      'd',
      0,
      overtaken(() => notice('1')),
    );
    await cache.read(1, 'd', 0, source.read());
    expect(source.reads()).toBe(2);
    await cache.read(2, 'd', 0, overtaken(lose));
    await cache.read(2, 'd', 0, source.read());
    expect(source.reads()).toBe(4);
    // A notice for another branch does not spoil the read.
    await cache.read(
      3,
      'd',
      0,
      overtaken(() => notice('1')),
    );
    await cache.read(3, 'd', 0, source.read());
    expect(source.reads()).toBe(5);

    setListening(false);
    await cache.read(4, 'd', 0, source.read());
    await cache.read(4, 'd', 0, source.read());
    expect(source.reads()).toBe(7);
    // Listening again, yet a read that ends after the last connection left is not kept either.
    setListening(true);
    await cache.read(
      5,
      'd',
      0,
      overtaken(() => setListening(false)),
    );
    setListening(true);
    await cache.read(5, 'd', 0, source.read());
    expect(source.reads()).toBe(9);
    await cache.read(5, 'd', 0, source.read());
    expect(source.reads()).toBe(9);
  });

  it('forgets everything on a loss', async () => {
    const { feed, lose } = testFeed();
    const cache = createSlotDayCache({ changes: feed, maxAgeMs: 60_000 });
    const source = reader();
    await cache.read(1, 'd', 0, source.read());
    await cache.read(2, 'd', 0, source.read());
    lose();
    await cache.read(1, 'd', 0, source.read());
    await cache.read(2, 'd', 0, source.read());
    expect(source.reads()).toBe(4);
  });

  it('reads again when the first hold expires, when the clock stands before the read, and past the longest keep', async () => {
    const { feed } = testFeed();
    let monotonic = 0;
    const cache = createSlotDayCache({ changes: feed, maxAgeMs: 5000, monotonicNow: () => monotonic });
    const source = reader();
    await cache.read(1, 'd', 1000, source.read(3000));
    await cache.read(1, 'd', 2999, source.read(3000));
    expect(source.reads()).toBe(1);
    await cache.read(1, 'd', 3000, source.read(null));
    expect(source.reads()).toBe(2);
    // Kept as of 3000: a clock set back before that reads again.
    await cache.read(1, 'd', 2500, source.read(null));
    expect(source.reads()).toBe(3);
    monotonic += 4999;
    await cache.read(1, 'd', 2500, source.read(null));
    expect(source.reads()).toBe(3);
    monotonic += 1;
    await cache.read(1, 'd', 2500, source.read(null));
    expect(source.reads()).toBe(4);
  });

  it('keeps nothing with a keep of 0, and at most maxEntries days', async () => {
    const { feed } = testFeed();
    const off = createSlotDayCache({ changes: feed, maxAgeMs: 0 });
    const source = reader();
    await off.read(1, 'd', 0, source.read());
    await off.read(1, 'd', 0, source.read());
    expect(source.reads()).toBe(2);

    const small = createSlotDayCache({ changes: feed, maxAgeMs: 60_000, maxEntries: 2 });
    await small.read(1, 'a', 0, source.read());
    await small.read(1, 'b', 0, source.read());
    await small.read(1, 'a', 0, source.read());
    expect(source.reads()).toBe(4);
    await small.read(1, 'c', 0, source.read());
    await small.read(1, 'c', 0, source.read());
    expect(source.reads()).toBe(5);
    await small.read(1, 'a', 0, source.read());
    expect(source.reads()).toBe(6);
  });
});
