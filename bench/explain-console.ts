// The query plans of the console's heaviest calls on the large database (bench/seed-large.ts), for issue 33:
//
//   node bench/explain-console.ts before     # writes bench/plans/<call>-before.txt
//   node bench/explain-console.ts after      # writes bench/plans/<call>-after.txt
//   EXPLAIN_ROOT=/path/to/other/checkout node bench/explain-console.ts before   # that checkout's queries
//
// Each call runs the console's own repository functions (server/console/repository.ts, the money of bookings
// from server/booking/ledger.ts) against BENCH_LARGE_URL (default postgres://postgres@127.0.0.1:5432/
// gym_bench_large); PostgreSQL's auto_explain (ANALYZE, BUFFERS) sends the plan of every statement they run back
// to this client, so the plans are those of the real SQL with its real parameters. Each call runs once to warm the
// cache, then once measured. Prints each call's statements with their time. Not part of `npm test`.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type * as ledger from '../server/booking/ledger.ts';
import type * as consoleRepository from '../server/console/repository.ts';
import { openDatabase } from '../server/db/database.ts';

// EXPLAIN_ROOT: the checkout whose repository code runs (the plans "before" were taken with main's, unchanged).
const root = process.env.EXPLAIN_ROOT ?? path.resolve(import.meta.dirname, '..');
const repository = (await import(
  path.join(root, 'server/console/repository.ts')
)) as typeof consoleRepository;
const { moneyOfBookings } = (await import(path.join(root, 'server/booking/ledger.ts'))) as typeof ledger;

const DATABASE_URL = process.env.BENCH_LARGE_URL ?? 'postgres://postgres@127.0.0.1:5432/gym_bench_large';
const label = process.argv[2];
if (label !== 'before' && label !== 'after')
  throw new Error('usage: node bench/explain-console.ts before|after');
const plansDir = path.resolve(import.meta.dirname, 'plans');

const opened = await openDatabase(
  { kind: 'postgres', url: DATABASE_URL },
  { timeouts: { connectMs: 10_000, statementMs: 600_000, idleInTransactionMs: 600_000 } },
);
if (opened.kind !== 'postgres') throw new Error('PostgreSQL only');
const db = opened.db;
let notices: string[] = [];
opened.pool.on('connect', (client) => {
  client.on('notice', (notice) => notices.push(notice.message ?? ''));
  void client.query(`load 'auto_explain'; set auto_explain.log_min_duration = 0;
    set auto_explain.log_analyze = on; set auto_explain.log_buffers = on; set auto_explain.log_timing = on;
    set client_min_messages = log`);
});

// The calls' arguments, read from the data: branch 1's local today, a booking with a payment and a refund.
const { rows: facts } = await sql<{ today: string; booking: number; member: string }>`
  select to_char((now() at time zone branch.time_zone)::date, 'YYYY-MM-DD') as today,
    (select booking_id from refunds order by id desc limit 1) as booking,
    (select user_id::text from bookings where user_id is not null order by id limit 1) as member
  from branches as branch order by branch.id limit 1`.execute(db);
const { today, booking } = facts[0]!;
const { rows: firstBranch } = await sql<{ id: number }>`select min(id) as id from branches`.execute(db);
const branchId = firstBranch[0]!.id;
const yearAgo = new Date(Date.parse(`${today}T00:00:00Z`) - 364 * 86_400_000).toISOString().slice(0, 10);
const monthStart = `${today.slice(0, 7)}-01`;
const now = new Date();

// The place the 500th page of the bookings list starts after (read once, not measured).
const { rows: deepRows } = await sql<{ start_time: string; id: number }>`
  select to_char(start_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as start_time, id
  from bookings order by start_time desc, id desc offset 24949 limit 1`.execute(db);
const deepPlace = { startTime: deepRows[0]!.start_time, id: deepRows[0]!.id };

/** A page of the bookings search as the console's service reads it: the window, the count, the other side. */
async function bookingsPage(
  search: consoleRepository.BookingSearch,
  after?: consoleRepository.BookingPosition,
) {
  const [window] = await Promise.all([
    repository.searchBookings(db, search, { limit: 50, ...(after ? { after } : {}) }),
    repository.countBookings(db, search, 1000),
  ]);
  const first = window.rows[0];
  if (after && first) {
    await repository.hasBookingsBeyond(db, search, { startTime: first.position, id: first.id }, '>');
  }
}

const calls: Record<string, () => Promise<unknown>> = {
  // The today view of one branch: its live bookings of the day, then their money (as the console's views read
  // it), and the count of its cancelled ones.
  today: async () => {
    const [rows] = await Promise.all([
      repository.bookingsOfLocalDay(db, branchId, today, now),
      repository.canceledOnLocalDay(db, branchId, today),
    ]);
    await moneyOfBookings(db, rows);
  },
  // Bookings search, first page, every branch: the page and its count (up to 1000), as the service asks them.
  'bookings-search': () => bookingsPage({ now }),
  // Page 500 of the same list: the page after the 24,950th booking's place, and whether any are newer.
  'bookings-search-page-500': () => bookingsPage({ now }, deepPlace),
  // One branch's bookings from the same place (the index on (branch_id, start_time)).
  'bookings-search-branch-deep': () => bookingsPage({ now, branchIds: [branchId] }, deepPlace),
  // A fragment of a member's e-mail.
  'bookings-search-fragment': () => bookingsPage({ now, q: 'member4242' }),
  // A booking's page: the booking, its money movements and its messages.
  'booking-page': async () => {
    const row = await repository.findAdminBooking(db, booking);
    await moneyOfBookings(db, [row!]);
    await repository.moneyMovements(db, { bookingIds: [booking] });
    await repository.messagesOfBooking(db, booking);
  },
  // The money report of a year by day (every branch): the ledger's day sums of the period (before migration 0024,
  // every movement of the year, aggregated in JavaScript).
  'money-report-year': () => repository.moneyPerPeriod(db, { from: yearAgo, to: today, granularity: 'day' }),
  // The payments list of this month (every branch), first page: its 50 movements and their count.
  'payments-month': () =>
    Promise.all([
      repository.moneyMovements(db, { from: monthStart, to: today }, { offset: 0, limit: 50 }),
      repository.movementsCount(db, { from: monthStart, to: today }),
    ]),
  // The ledger export of a year: one batch of 2,000 rows from the middle of the year.
  'ledger-csv-batch': () =>
    repository.ledgerCsvBatch(
      db,
      { from: yearAgo, to: today },
      {
        after: {
          occurred_at: new Date(Date.parse(`${yearAgo}T00:00:00Z`) + 182 * 86_400_000).toISOString(),
          id: 0,
        },
        limit: 2000,
      },
    ),
};

mkdirSync(plansDir, { recursive: true });
const only = process.argv[3];
for (const [name, call] of Object.entries(calls)) {
  if (only !== undefined && name !== only) continue;
  await call();
  notices = [];
  const started = performance.now();
  await call();
  const elapsed = performance.now() - started;
  const statements = notices.filter((notice) => notice.startsWith('duration:'));
  const durations = statements.map((notice) => Number(/^duration: ([0-9.]+) ms/.exec(notice)?.[1] ?? 0));
  const sqlMs = durations.reduce((sum, ms) => sum + ms, 0);
  const header =
    `-- ${name} (${label}), ${new Date().toISOString()}: ${elapsed.toFixed(1)} ms for the call, ` +
    `${sqlMs.toFixed(1)} ms in ${statements.length} statement(s) (${durations.map((ms) => ms.toFixed(1)).join(' + ')})\n` +
    `-- arguments: branch ${branchId}, today ${today}, booking ${booking}, year from ${yearAgo}, month from ${monthStart}\n\n`;
  writeFileSync(path.join(plansDir, `${name}-${label}.txt`), header + statements.join('\n\n') + '\n');
  console.log(`${name.padEnd(26)} ${elapsed.toFixed(1).padStart(9)} ms  (SQL ${sqlMs.toFixed(1)} ms)`);
}
await opened.close();
