// `npm run bench`, second part (issue 33, "Speed at scale"): the operator console on a real business's data.
//   1. seeds two PostgreSQL databases with bench/seed-large.ts: the large one (3 branches, 50,000 members,
//      1,000,000 bookings over two years, the ledger, tax documents, the outbox, 20,000 audit rows; about four
//      minutes) and its reference, the same business with 100 bookings. BENCH_LARGE_REUSE=1 keeps a large
//      database already seeded (migrated to the latest schema), to measure again without seeding;
//   2. starts the product's server on each (production mode, one process each) and the bench-only reference server
//      (bench/bench-server.ts: `SELECT 1` through the same pool) on the large one;
//   3. measures each console call at 10 connections on the large database and on the small one, one after the
//      other in one run (requests per second, p99), and their ratio: target >= 0.5 for calls whose answer does not
//      grow with history, >= 0.1 for searches by a fragment; the members' slot listing at 1M bookings beside
//      `SELECT 1` through the same server (its health check, GET /api/health: the same hooks, headers and pool;
//      target >= 0.5), and beside the bench-only server's `SELECT 1` (reported);
//   4. the event loop: the slot listing's p99 alone, then while two money reports of a year and a ledger export
//      of a year run without pause on the same server process, three rounds of each in turn; members at a steady
//      pace (target: within 1.5 x; bench/support.ts `paced`, timed to the microsecond) and as fast as answered
//      (reported: on two cores shared by the bench, the server and PostgreSQL, that p99 is mostly the reports'
//      share of the CPU); the bench asks for the reports from a process of its own at the lowest priority
//      (bench/console-busy.ts), standing for browsers elsewhere;
//   5. writes the "## Large database" section of bench/results.md (the rest of the file is bench/run.ts's).
// Each load phase runs BENCH_CONSOLE_SECONDS (5 by default). BENCH_CONSOLE_ONLY=single times each call alone
// (one request at a time), =eventloop measures only the slot listing and the event loop; BENCH_SERVER_PROF=<dir>
// writes the large database's server's CPU profile there (node --cpu-prof). Not part of `npm test`.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fork } from 'node:child_process';
import { sql } from 'kysely';
import pg from 'pg';
import * as prettier from 'prettier';
import { loadAuthKeys } from '../server/accounts/secrets.ts';
import { REST_PER_STEP } from '../server/kernel/background-lane.ts';
import type { Config } from '../server/config.ts';
import { openDatabase, type Db } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { bookingCursor } from '../server/console/booking-cursor.ts';
import { systemClock } from '../server/kernel/clock.ts';
import { createOperatorTokens } from '../server/operators/index.ts';
import { insertSession } from '../server/operators/repository.ts';
import { LARGE, SMALL, seedBenchDatabase } from './seed-large.ts';
import {
  download,
  json,
  load,
  paced,
  root,
  start,
  stop,
  type Child,
  type Load,
  type PacedLoad,
} from './support.ts';
import type { BusyInput, Tally } from './console-busy.ts';

const LARGE_URL = process.env.BENCH_LARGE_URL ?? 'postgres://postgres@127.0.0.1:5432/gym_bench_large';
const SMALL_URL = process.env.BENCH_SMALL_URL ?? 'postgres://postgres@127.0.0.1:5432/gym_bench_small';
const SECONDS = Number(process.env.BENCH_CONSOLE_SECONDS ?? 5);
const CONNECTIONS = 10;
const LONG_TIMEOUTS = { connectMs: 10_000, statementMs: 3_600_000, idleInTransactionMs: 3_600_000 };

const seedLog: string[] = [];
const log = (line: string) => {
  console.log(line);
  seedLog.push(line);
};

async function isSeeded(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<{ n: string }>('select count(*) as n from bookings');
    return Number(rows[0]?.n ?? 0) >= LARGE.bookings;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** What the calls are made of on one database: an owner's token, a booking, a member, a fragment, dates. */
type Target = {
  db: Db;
  close: () => Promise<void>;
  token: string;
  bookingId: number;
  memberId: string;
  fragment: string;
  branchId: number;
  /** The cursor of the bookings list's 500th page (`after`), or of its last full page on a smaller database. */
  deepCursor: string;
};

async function prepare(url: string, secret: string): Promise<Target> {
  const opened = await openDatabase({ kind: 'postgres', url }, { timeouts: LONG_TIMEOUTS });
  const db = opened.db;
  const keys = await loadAuthKeys(db, { auth: { jwtSecret: secret } } as Config);
  const { id: operatorId } = await db
    .selectFrom('operators')
    .select('id')
    .where('role', '=', 'owner')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const sessionId = randomUUID();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + 6 * 3_600_000);
  await insertSession(db, {
    id: sessionId,
    operator_id: operatorId,
    created_at: now,
    expires_at: expiresAt,
    ip: '127.0.0.1',
    user_agent: 'bench',
  });
  const token = await createOperatorTokens(keys.operatorSessionToken, systemClock).issue(
    { operatorId, sessionId },
    expiresAt,
  );
  // A booking paid and refunded (its page has money, movements and messages), and the member who made it.
  const { rows } = await sql<{ id: number; user_id: string; email: string; branch_id: number }>`
    select booking.id, booking.user_id, member.email, booking.branch_id
    from bookings as booking join users as member on member.id = booking.user_id
    where booking.status = 'canceled' and booking.paid_at is not null
    order by booking.id desc limit 1`.execute(db);
  const booking = rows[0]!;
  // The place the 500th page of 50 starts after (24,950 bookings in); a database with fewer, its last full page.
  const { rows: deep } = await sql<{ start_time: string; id: number }>`
    select to_char(start_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as start_time, id
    from bookings order by start_time desc, id desc
    offset least(24949, greatest((select count(*) from bookings) - 51, 0)) limit 1`.execute(db);
  return {
    db,
    close: () => opened.close(),
    token,
    bookingId: booking.id,
    memberId: booking.user_id,
    fragment: booking.email.split('@')[0]!,
    branchId: booking.branch_id,
    deepCursor: bookingCursor({ startTime: deep[0]!.start_time, id: deep[0]!.id }),
  };
}

const isoDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** The console's calls, with the ratio each must reach (large over small). */
function consoleCalls(target: Target) {
  const today = isoDay(0);
  const yearAgo = isoDay(-364);
  const lastMonth = new Date();
  lastMonth.setUTCDate(1);
  lastMonth.setUTCMonth(lastMonth.getUTCMonth() - 1);
  const monthFrom = lastMonth.toISOString().slice(0, 10);
  const monthEnd = new Date(Date.UTC(lastMonth.getUTCFullYear(), lastMonth.getUTCMonth() + 1, 0));
  const monthTo = monthEnd.toISOString().slice(0, 10);
  return [
    { name: 'today view (every branch)', path: '/api/admin/today', target: 0.5 },
    { name: "a booking's page", path: `/api/admin/bookings/${target.bookingId}`, target: 0.5 },
    { name: "a member's page", path: `/api/admin/members/${target.memberId}`, target: 0.5 },
    { name: 'bookings, first page', path: '/api/admin/bookings', target: 0.5 },
    {
      name: 'bookings, page 500 by cursor',
      path: `/api/admin/bookings?after=${target.deepCursor}`,
      target: 0.5,
    },
    {
      name: 'money report of a year by day',
      path: `/api/admin/reports/money?from=${yearAgo}&to=${today}`,
      target: 0.5,
    },
    {
      name: 'money report CSV of a year by day',
      path: `/api/admin/reports/money/csv?from=${yearAgo}&to=${today}`,
      target: 0.5,
    },
    {
      name: 'payments of a month, first page',
      path: `/api/admin/payments?from=${monthFrom}&to=${monthTo}`,
      target: 0.5,
    },
    {
      name: 'bookings by a fragment of the member',
      path: `/api/admin/bookings?q=${encodeURIComponent(target.fragment)}`,
      target: 0.1,
    },
    {
      name: 'members by a fragment',
      path: `/api/admin/members?q=${encodeURIComponent(target.fragment)}`,
      target: 0.1,
    },
  ];
}

function slotUrls(base: string, branchId: number): string[] {
  return Array.from(
    { length: 14 },
    (_, index) => `${base}/api/bookings/slots/${branchId}/${isoDay(index + 1)}`,
  );
}

const fmt = (value: number, digits = 0) => value.toFixed(digits);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main() {
  const started = new Date();
  if (process.env.BENCH_LARGE_REUSE === '1' && (await isSeeded(LARGE_URL))) {
    const opened = await openDatabase({ kind: 'postgres', url: LARGE_URL }, { timeouts: LONG_TIMEOUTS });
    await migrateToLatest(opened.db);
    await opened.close();
    log(`large database kept (BENCH_LARGE_REUSE=1), migrated to the latest schema: ${LARGE_URL}`);
  } else {
    log(`seeding the large database ${LARGE_URL}`);
    await seedBenchDatabase(LARGE_URL, LARGE, log);
  }
  log(`seeding the small database ${SMALL_URL}`);
  await seedBenchDatabase(SMALL_URL, SMALL, () => {});

  const secret = randomBytes(48).toString('base64url');
  const large = await prepare(LARGE_URL, secret);
  const small = await prepare(SMALL_URL, secret);
  const { rows: counts } = await sql<{ bookings: number; members: number; ledger: number; outbox: number }>`
    select (select count(*)::int from bookings) as bookings, (select count(*)::int from users) as members,
      (select count(*)::int from ledger_entries) as ledger, (select count(*)::int from outbox) as outbox`.execute(
    large.db,
  );
  const env = (url: string) => ({
    NODE_ENV: 'production',
    DATABASE_URL: url,
    JWT_SECRET: secret,
    LOG_LEVEL: 'warn',
    CLIENT_DIST_DIR: '/nonexistent-client-dist',
    // The seed's slots reach 30 days ahead; the server's horizon matches so it generates none at start.
    SLOT_HORIZON_DAYS: '30',
  });
  const children: Child[] = [];
  try {
    const largeServer = await start(
      'server/main.ts',
      3411,
      {
        ...env(LARGE_URL),
        ...(process.env.BENCH_SERVER_PROF
          ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_SERVER_PROF}` }
          : {}),
      },
      '/api/health',
    );
    children.push(largeServer);
    const smallServer = await start('server/main.ts', 3412, env(SMALL_URL), '/api/health');
    children.push(smallServer);
    const reference = await start('bench/bench-server.ts', 3413, { DATABASE_URL: LARGE_URL }, '/bare');
    children.push(reference);

    const auth = (target: Target) => ({ authorization: `Bearer ${target.token}` });
    type Row = {
      name: string;
      target: number;
      small: Load;
      large: Load;
      status: string;
      single: { small: number; large: number };
    };
    const rows: Row[] = [];
    const smallCalls = consoleCalls(small);
    const largeCalls = consoleCalls(large);
    const callsToRun = process.env.BENCH_CONSOLE_ONLY === 'eventloop' ? [] : largeCalls;
    for (const [index, call] of callsToRun.entries()) {
      const smallCall = smallCalls[index]!;
      const probes = await Promise.all([
        json(`${smallServer.url}${smallCall.path}`, { token: small.token }),
        json(`${largeServer.url}${call.path}`, { token: large.token }),
      ]);
      const status = probes.map((probe) => probe.status).join('/');
      // One request at a time: the call's own time, five times on each, the median kept.
      const alone = async (url: string, token: string) => {
        const times: number[] = [];
        for (let round = 0; round < 5; round += 1) {
          const begun = performance.now();
          await download(url, token);
          times.push(performance.now() - begun);
        }
        return median(times);
      };
      const singleSmall = await alone(`${smallServer.url}${smallCall.path}`, small.token);
      const singleLarge = await alone(`${largeServer.url}${call.path}`, large.token);
      if (process.env.BENCH_CONSOLE_ONLY === 'single') {
        console.log(
          `${call.name}: one at a time ${fmt(singleSmall, 1)} ms small, ${fmt(singleLarge, 1)} ms large`,
        );
        continue;
      }
      // Warm both, then measure the small one and the large one, one after the other.
      await load([`${largeServer.url}${call.path}`], CONNECTIONS, auth(large), 1);
      await load([`${smallServer.url}${smallCall.path}`], CONNECTIONS, auth(small), 1);
      const smallLoad = await load(
        [`${smallServer.url}${smallCall.path}`],
        CONNECTIONS,
        auth(small),
        SECONDS,
      );
      const largeLoad = await load([`${largeServer.url}${call.path}`], CONNECTIONS, auth(large), SECONDS);
      rows.push({
        name: call.name,
        target: call.target,
        small: smallLoad,
        large: largeLoad,
        status,
        single: { small: singleSmall, large: singleLarge },
      });
      console.log(
        `${call.name}: small ${fmt(smallLoad.rps)} req/s, large ${fmt(largeLoad.rps)} req/s, ` +
          `ratio ${fmt(largeLoad.rps / smallLoad.rps, 3)} (${status})`,
      );
    }

    // The members' slot listing at 1M bookings, beside SELECT 1 through the same server (its health check) and
    // through a bare Fastify server on the same database.
    const slots = slotUrls(largeServer.url, large.branchId);
    await load(slots, CONNECTIONS, {}, 1);
    // Three rounds, each route in turn, so a slower moment of the machine falls on all three alike; the rounds'
    // requests per second averaged, their worst p99 kept.
    const rounds: Record<'slots' | 'health' | 'select1', Load[]> = { slots: [], health: [], select1: [] };
    for (let round = 0; round < 3; round += 1) {
      rounds.slots.push(await load(slots, CONNECTIONS, {}, SECONDS));
      rounds.health.push(await load([`${largeServer.url}/api/health`], CONNECTIONS, {}, SECONDS));
      rounds.select1.push(await load([`${reference.url}/select1`], CONNECTIONS, {}, SECONDS));
    }
    const overRounds = (loads: { rps: number; p50: number; p99: number }[]) => ({
      rps: loads.reduce((sum, one) => sum + one.rps, 0) / loads.length,
      p50: median(loads.map((one) => one.p50)),
      p99: Math.max(...loads.map((one) => one.p99)),
    });
    const [slotLoad, health, select1] = [
      overRounds(rounds.slots),
      overRounds(rounds.health),
      overRounds(rounds.select1),
    ];

    // The event loop: the slot listing alone, then beside two money reports of a year and a ledger export of a
    // year running without pause on the same process; three rounds of each, in turn, so a slower moment of the
    // machine falls on both alike (the rounds' requests per second averaged, their worst p99 kept).
    const yearAgo = isoDay(-364);
    const today = isoDay(0);
    const reportUrl = `${largeServer.url}/api/admin/reports/money?from=${yearAgo}&to=${today}`;
    const exportUrl = `${largeServer.url}/api/admin/reports/ledger/csv?from=${yearAgo}&to=${today}`;
    const busyInput: BusyInput = { reportUrl, exportUrl, token: large.token };
    type Tallies = { reportA: Tally; reportB: Tally; exports: Tally };
    /** The slot listing measured while the busy client asks for the reports and the export (then stopped). */
    const besideReports = async <T>(measure: () => Promise<T>): Promise<{ load: T; tallies: Tallies }> => {
      const client = fork(path.join(root, 'bench', 'console-busy.ts'), {
        env: { ...process.env, BENCH_BUSY: JSON.stringify(busyInput) },
      });
      os.setPriority(client.pid!, 19);
      const tallies = new Promise<Tallies>((resolve, reject) => {
        client.once('message', (message) => resolve(message as Tallies));
        client.once('error', reject);
      });
      // The reports and the export under way before the measure starts.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const measured = await measure();
      // The client stops once what it asked has been answered, so the next round alone is alone.
      client.send('stop');
      return { load: measured, tallies: await tallies };
    };
    // Two loads: members at a steady pace (10 of them, each pausing 2 ms between an answer and the next
    // question: the process has room to spare, so what the reports add to the p99 is a request held up behind
    // their work, the target's question), and as fast as the listing is answered (the machine's two cores then run
    // flat out for the bench's client, the server and PostgreSQL, so what the reports add is mostly their share of
    // the CPU: reported).
    const steadily = () => paced(slots, CONNECTIONS, 2, SECONDS);
    const flatOut = () => load(slots, CONNECTIONS, {}, SECONDS);
    const eventLoopRounds = {
      alone: [] as Load[],
      busy: [] as Load[],
      steadyAlone: [] as PacedLoad[],
      steadyBusy: [] as PacedLoad[],
    };
    const during: Tallies[] = [];
    for (let round = 0; round < 3; round += 1) {
      eventLoopRounds.steadyAlone.push(await steadily());
      const steadyBeside = await besideReports(steadily);
      eventLoopRounds.steadyBusy.push(steadyBeside.load);
      during.push(steadyBeside.tallies);
      eventLoopRounds.alone.push(await flatOut());
      const beside = await besideReports(flatOut);
      eventLoopRounds.busy.push(beside.load);
      during.push(beside.tallies);
    }
    const [alone, busy, steadyAlone, steadyBusy] = [
      overRounds(eventLoopRounds.alone),
      overRounds(eventLoopRounds.busy),
      overRounds(eventLoopRounds.steadyAlone),
      overRounds(eventLoopRounds.steadyBusy),
    ];
    const reportTallies = during.flatMap((one) => [one.reportA, one.reportB]);
    const exportTallies = during.map((one) => one.exports);
    const sum = (tallies: Tally[], key: 'completed' | 'failed') =>
      tallies.reduce((total, one) => total + one[key], 0);

    const ok = (pass: boolean) => (pass ? 'met' : '**not met**');
    const lines: string[] = [];
    const say = (line = '') => lines.push(line);
    say('## Large database');
    say();
    say(
      `Written by \`node bench/console-scale.ts\` (part of \`npm run bench\`), run ${started.toISOString()} on ` +
        `${os.cpus().length} CPU cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, PostgreSQL ` +
        `at ${new URL(LARGE_URL).host}. The large database: ${counts[0]!.bookings.toLocaleString('en')} bookings, ` +
        `${counts[0]!.members.toLocaleString('en')} members, ${counts[0]!.ledger.toLocaleString('en')} ledger rows, ` +
        `${counts[0]!.outbox.toLocaleString('en')} outbox rows (bench/seed-large.ts describes them); the small one ` +
        `the same business with ${SMALL.bookings} bookings. One server process on each, production mode; each ` +
        `call at ${CONNECTIONS} connections for ${SECONDS} s on the small database, then on the large one, after a ` +
        `1 s warm-up of each; autocannon runs on the same machine. Query plans before and after: bench/plans.`,
    );
    say();
    say('**Seeding**');
    say();
    say('```');
    for (const line of seedLog) say(line);
    say('```');
    say();
    say('**Console calls, large over small (requests per second at 10 connections)**');
    say();
    say(
      '| call | status (small/large) | one at a time ms (small/large) | small req/s | small p99 ms | large req/s | large p99 ms | ratio | target |',
    );
    say('| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |');
    for (const row of rows) {
      const ratio = row.large.rps / row.small.rps;
      const failed = row.large.non2xx + row.large.errors + row.small.non2xx + row.small.errors;
      say(
        `| ${row.name} | ${row.status}${failed ? ` (${failed} failed)` : ''} | ` +
          `${fmt(row.single.small, 1)} / ${fmt(row.single.large, 1)} | ${fmt(row.small.rps)} | ${row.small.p99} | ` +
          `${fmt(row.large.rps)} | ${row.large.p99} | ${fmt(ratio, 3)} | ≥ ${row.target} ${ok(ratio >= row.target && failed === 0)} |`,
      );
    }
    say();
    say(
      `**Members’ slot listing at 1M bookings, beside \`SELECT 1\` (10 connections; three rounds of ${SECONDS} s ` +
        'each, in turn: mean req/s, worst p99)**',
    );
    say();
    say('| route | req/s | p99 ms | slot listing ÷ this | target |');
    say('| --- | ---: | ---: | ---: | --- |');
    say(`| GET /api/bookings/slots/{branch}/{date} | ${fmt(slotLoad.rps)} | ${slotLoad.p99} | | |`);
    say(
      `| SELECT 1 through the same server (GET /api/health) | ${fmt(health.rps)} | ${health.p99} | ` +
        `${fmt(slotLoad.rps / health.rps, 3)} | ≥ 0.5 ${ok(slotLoad.rps / health.rps >= 0.5)} |`,
    );
    say(
      `| SELECT 1 of a bare Fastify server (bench/bench-server.ts) | ${fmt(select1.rps)} | ${select1.p99} | ` +
        `${fmt(slotLoad.rps / select1.rps, 3)} | reported |`,
    );
    say();
    say(
      '**The event loop: the slot listing while two money reports of a year and a ledger export of a year run ' +
        `(10 connections; three rounds of ${SECONDS} s each, alone and beside them in turn: mean req/s, median ` +
        'p50, worst p99)**',
    );
    say();
    say('| slot listing | members’ load | req/s | p50 ms | p99 ms | p99 ratio | target |');
    say('| --- | --- | ---: | ---: | ---: | ---: | --- |');
    const paceName = '10 members, 2 ms between answer and question';
    const flatName = '10 connections, as fast as answered';
    say(
      `| alone | ${paceName} | ${fmt(steadyAlone.rps)} | ${fmt(steadyAlone.p50, 2)} | ${fmt(steadyAlone.p99, 2)} | ` +
        '1 | reference |',
    );
    say(
      `| beside the reports and the export | ${paceName} | ${fmt(steadyBusy.rps)} | ${fmt(steadyBusy.p50, 2)} | ` +
        `${fmt(steadyBusy.p99, 2)} | ${fmt(steadyBusy.p99 / steadyAlone.p99, 2)} | ≤ 1.5 ` +
        `${ok(steadyBusy.p99 / steadyAlone.p99 <= 1.5)} |`,
    );
    say(`| alone | ${flatName} | ${fmt(alone.rps)} | ${alone.p50} | ${alone.p99} | 1 | reference |`);
    say(
      `| beside the reports and the export | ${flatName} | ${fmt(busy.rps)} | ${busy.p50} | ${busy.p99} | ` +
        `${fmt(busy.p99 / alone.p99, 2)} | reported |`,
    );
    say();
    say(
      `Meanwhile: ${sum(reportTallies, 'completed')} money reports of a year (median ` +
        `${fmt(median(reportTallies.flatMap((one) => one.ms)))} ms, ${sum(reportTallies, 'failed')} failed) and ` +
        `${sum(exportTallies, 'completed')} ledger exports of a year (median ` +
        `${fmt(median(exportTallies.flatMap((one) => one.ms)))} ms, ${sum(exportTallies, 'failed')} failed). ` +
        'The reports and the export take their turns in the background lane (server/kernel/background-lane.ts): ' +
        `while members come, each step rests ${REST_PER_STEP} times as long as the step before it took (up to a second).`,
    );
    say();

    const file = path.join(root, 'bench', 'results.md');
    let previous = '';
    try {
      previous = readFileSync(file, 'utf8');
    } catch {
      // first run
    }
    const kept = previous.replace(/^## Large database\n[\s\S]*?(?=^## |(?![\s\S]))/m, '').trimEnd();
    const section = await prettier.format(lines.join('\n'), { parser: 'markdown', proseWrap: 'preserve' });
    writeFileSync(file, `${kept ? `${kept}\n\n` : ''}${section}`);
    console.log(section);
  } finally {
    if (process.env.BENCH_SHOW_SERVER === '1')
      for (const child of children) console.log(child.output.join(''));
    for (const child of children.reverse()) await stop(child);
    await large.close();
    await small.close();
  }
}

await main();
