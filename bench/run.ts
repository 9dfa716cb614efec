// `npm run bench`: the server under load on a real PostgreSQL (BENCH_POSTGRES_URL, default
// postgres://postgres@127.0.0.1:5432/postgres; a database of its own is created and dropped).
//   1. slot listing throughput and p99 at 50 and 200 connections (autocannon), beside `SELECT 1` through the same
//      server (its health check, GET /api/health: the same hooks, headers and pool), and a bare Fastify route and a
//      `SELECT 1` route of a bench-only server (bench/bench-server.ts) measured in the same run;
//   2. booking contention over two server processes: 50 racing creates per slot x 40 rounds, then overlapping and
//      adjacent multi-slot requests, checked by an invariant query;
//   3. a storm of duplicate, out-of-order and failing-then-retried payment events (local checkout);
//   4. a cancel storm: 10 concurrent cancellations of one booking.
//   0. costs as the data grows, each beside its reference in the same run: the branch listing with 3 and with 200
//      branches (compressed, and revalidated with If-None-Match), the slot listing with no bookings and with 1M,
//      my bookings for a member with 10 and with 1,000 (data sizes seeded by the bench itself);
// BENCH_ONLY=slots runs the throughput parts only (and writes nothing); BENCH_SECONDS sets each load phase's length.
// Prints a table and writes bench/results.md. Not part of `npm test`.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import * as prettier from 'prettier';
import { createPasswordHasher } from '../server/accounts/passwords.ts';
import { createBranchService, insertBranchDefinition } from '../server/catalog/service.ts';
import { systemClock } from '../server/kernel/clock.ts';
import { openDatabase, type Db } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { DURATION_SECONDS, json, load, root, start, stop, type Child, type Load } from './support.ts';

const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BRANCHES = 20;
/** Branches at the start (the branch listing's small reference), and at its large measurement. */
const FIRST_BRANCHES = 3;
const MANY_BRANCHES = 200;
const BOOKINGS_AT_SCALE = 1_000_000;
/** Rounds of the at-scale phases, each beside its reference measured in turn. */
const SCALE_ROUNDS = 5;
const HORIZON_DAYS = 120;
const PASSWORD = 'bench password, long enough';

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A description of the length the demo branches have, in one language. */
function description(language: string, index: number): string {
  return `<p>${language}: ${'Um ginásio privado inteiro, só para si, com pesos livres, máquinas e balneário. '.repeat(5)}${index}</p>`;
}

function benchBranch(index: number, active: boolean) {
  return {
    slug: `bench-${index}`,
    name: `Bench ${index}`,
    order: index,
    location: `Rua do Banco ${index}, Lisboa`,
    latitude: 38.7,
    longitude: -9.1,
    mapUrl: null,
    timeZone: index % 2 ? 'Europe/Lisbon' : 'Europe/Berlin',
    slotMinutes: 60,
    openingHours: null,
    activeWithSmartLock: active,
    images: ['/images/branches/bench-1.svg', '/images/branches/bench-2.svg', '/images/branches/bench-3.svg'],
    descriptions: {
      pt: description('pt', index),
      en: description('en', index),
      fr: description('fr', index),
      de: description('de', index),
      sk: description('sk', index),
    },
    defaultPriceCents: 2000,
    priceRules: [],
  };
}

/** Generates every active branch's slots over the horizon, as a server does at start. */
const generateSlots = (db: Db) =>
  createBranchService({ db, clock: systemClock, horizonDays: HORIZON_DAYS }).ensureSlotHorizon();

/** The address of a database of the bench's PostgreSQL. */
function databaseAddress(database: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Bytes of a GET, uncompressed and as sent to a browser accepting Brotli. */
async function answerBytes(url: string, headers: Record<string, string> = {}) {
  const plain = await fetch(url, { headers: { ...headers, 'accept-encoding': 'identity' } });
  const raw = await plain.arrayBuffer();
  const compressed = await new Promise<number>((resolve, reject) => {
    // fetch() decodes what it receives, so the bytes on the wire are read with node:http.
    const request = http.get(url, { headers: { ...headers, 'accept-encoding': 'br, gzip' } }, (response) => {
      let size = 0;
      response.on('data', (chunk: Buffer) => (size += chunk.length));
      response.on('end', () => resolve(size));
    });
    request.on('error', reject);
  });
  return {
    raw: raw.byteLength,
    compressed,
    etag: plain.headers.get('etag'),
    cacheControl: plain.headers.get('cache-control'),
  };
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

async function main(): Promise<void> {
  const name = `gym_bench_${randomBytes(5).toString('hex')}`;
  await admin((client) => client.query(`create database ${name}`));
  const databaseUrl = databaseAddress(name);
  const children: Child[] = [];
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    console.log(line);
  };
  try {
    // Data set: 20 branches, each with slots for 120 days (generated by the first server process at start).
    const opened = await openDatabase({ kind: 'postgres', url: databaseUrl });
    await migrateToLatest(opened.db);
    const branchIds: number[] = [];
    const addBranches = async (from: number, to: number, active: boolean) => {
      for (let index = from; index <= to; index += 1) {
        branchIds.push(await insertBranchDefinition(opened.db, benchBranch(index, active)));
      }
    };
    // The branch listing's small reference is measured first, with 3 branches; the rest come after.
    await addBranches(1, FIRST_BRANCHES, true);
    const hasher = await createPasswordHasher({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    await opened.db
      .insertInto('users')
      .values({
        email: 'bench@example.com',
        phone_number: '+351910000000',
        first_name: 'Bench',
        last_name: 'User',
        password_hash: await hasher.hash(PASSWORD),
        email_verified_at: new Date(),
        phone_verified_at: new Date(),
      })
      .execute();

    const productEnv = {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      JWT_SECRET: randomBytes(48).toString('base64url'),
      LOG_LEVEL: 'warn',
      SLOT_HORIZON_DAYS: String(HORIZON_DAYS),
      CLIENT_DIST_DIR: '/nonexistent-client-dist',
      RATE_LIMITS: 'login.ip=10000/1h,login.account=10000/1h',
    };
    const first = await start('server/main.ts', 3401, productEnv, '/api/health');
    children.push(first);
    const second = await start('server/main.ts', 3402, productEnv, '/api/health');
    children.push(second);
    const reference = await start('bench/bench-server.ts', 3403, { DATABASE_URL: databaseUrl }, '/bare');
    children.push(reference);
    // 0a. The branch listing with 3 branches (the request the client makes: its language, Brotli accepted).
    const branchesUrl = `${first.url}/api/bookings/branches?lang=pt`;
    const brotli = { 'accept-encoding': 'br, gzip' };
    const fewBranches = await load([branchesUrl], 50, brotli);
    const fewBytes = await answerBytes(branchesUrl);
    const allLanguagesFew = await answerBytes(`${first.url}/api/bookings/branches`);

    // The rest of the slot listing's data set: 20 branches with 120 days of slots (a service in this process
    // generates them, as a server does at start).
    await addBranches(FIRST_BRANCHES + 1, BRANCHES, true);
    await generateSlots(opened.db);
    await sql`analyze`.execute(opened.db);
    const { rows: sizes } = await sql<{ slots: number; days: number }>`
      select count(*)::int as slots, count(distinct local_date)::int as days from slots`.execute(opened.db);
    say(`# Benchmarks\n`);
    say(
      `Run ${new Date().toISOString()} on ${os.cpus().length} CPU cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ` +
        `PostgreSQL at ${new URL(ADMIN_URL).host}. Data set: ${BRANCHES} branches, ${sizes[0]!.slots} slots over ${sizes[0]!.days} local days. ` +
        `Each load phase runs ${DURATION_SECONDS} s; autocannon runs in the same machine as the servers.\n`,
    );

    // 1. Throughput.
    const days = Array.from({ length: 30 }, (_, index) =>
      new Date(Date.now() + (index + 1) * 86_400_000).toISOString().slice(0, 10),
    );
    const slotUrls = days.flatMap((day, index) => [
      `${first.url}/api/bookings/slots/${branchIds[index % BRANCHES]}/${day}`,
    ]);
    const probe = await json(slotUrls[0]!);
    if (probe.status !== 200 || (probe.body as unknown[]).length < 20) {
      throw new Error(`slot listing does not answer as expected: ${probe.status}`);
    }
    await load(slotUrls, 10); // warm-up
    say('## Slot listing\n');
    say('| connections | route | req/s | p50 ms | p99 ms | errors | non-2xx |');
    say('| ---: | --- | ---: | ---: | ---: | ---: | ---: |');
    const ratios: string[] = [];
    let emptySlots50: Load | null = null;
    let emptySelect50: Load | null = null;
    let emptyHealth50: Load | null = null;
    for (const connections of [50, 200]) {
      const slots = await load(slotUrls, connections);
      const health = await load([`${first.url}/api/health`], connections);
      const bare = await load([`${reference.url}/bare`], connections);
      const select1 = await load([`${reference.url}/select1`], connections);
      if (connections === 50) [emptySlots50, emptySelect50, emptyHealth50] = [slots, select1, health];
      for (const [route, result] of [
        ['GET /api/bookings/slots/{branch}/{date}', slots],
        ['GET /api/health (SELECT 1 through the same server)', health],
        ['bare Fastify JSON (bench-server.ts)', bare],
        ['SELECT 1 (bench-server.ts)', select1],
      ] as const) {
        say(
          `| ${connections} | ${route} | ${result.rps.toFixed(0)} | ${result.p50} | ${result.p99} | ${result.errors} | ${result.non2xx} |`,
        );
      }
      ratios.push(
        `| ${connections} | ${(slots.rps / bare.rps).toFixed(3)} | ${(slots.rps / select1.rps).toFixed(3)} | ${slots.p99} |`,
      );
    }
    say(
      '\n| connections | slots/bare | slots/select1 (target >= 0.25) | slots p99 ms (target <= 20 at 50) |',
    );
    say('| ---: | ---: | ---: | ---: |');
    for (const line of ratios) say(line);

    // 0b. The slot listing at 1M bookings: cancelled and expired ones on every slot, a live one on every other slot
    // of half the branches (not those the storms below book). Its reference is the same branches and slots in a
    // database of their own with no bookings, served by a third process of the product and measured in turn with
    // the seeded one (rounds below): measured before the seeding instead, the reference also differed by whatever
    // the machine did meanwhile (the bare server's SELECT 1, which reads no booking, fell by 13-17 % from before
    // the seeding to after it in two runs).
    await admin((client) => client.query(`create database ${name}_ref`));
    const referenceUrl = databaseAddress(`${name}_ref`);
    const referenceDb = await openDatabase({ kind: 'postgres', url: referenceUrl });
    const referenceBranchIds: number[] = [];
    try {
      await migrateToLatest(referenceDb.db);
      for (let index = 1; index <= BRANCHES; index += 1) {
        referenceBranchIds.push(await insertBranchDefinition(referenceDb.db, benchBranch(index, true)));
      }
      await generateSlots(referenceDb.db);
      await sql`analyze`.execute(referenceDb.db);
    } finally {
      await referenceDb.close();
    }
    const empty = await start(
      'server/main.ts',
      3404,
      { ...productEnv, DATABASE_URL: referenceUrl },
      '/api/health',
    );
    children.push(empty);
    const emptySlotUrls = days.map(
      (day, index) => `${empty.url}/api/bookings/slots/${referenceBranchIds[index % BRANCHES]}/${day}`,
    );
    const seedStarted = performance.now();
    const { rows: slotCount } = await sql<{
      count: number;
    }>`select count(*)::int as count from slots`.execute(opened.db);
    const perSlot = Math.ceil(BOOKINGS_AT_SCALE / slotCount[0]!.count);
    for (const branchId of branchIds) {
      await sql`
        insert into bookings (user_id, slot_id, branch_id, start_time, end_time, status, base_price_cents,
                              final_price_cents, refund_ratios, canceled_at)
        select null, s.id, s.branch_id, s.start_time, s.end_time,
               case when g % 2 = 0 then 'canceled' else 'expired' end, s.price_cents, s.price_cents,
               '{"48": 1, "24": 0.5, "0": 0}'::jsonb, case when g % 2 = 0 then now() end
        from slots s cross join generate_series(1, ${perSlot}) g
        where s.branch_id = ${branchId}`.execute(opened.db);
    }
    await sql`
      insert into bookings (user_id, slot_id, branch_id, start_time, end_time, status, base_price_cents,
                            final_price_cents, refund_ratios, paid_at)
      select null, s.id, s.branch_id, s.start_time, s.end_time, 'confirmed', s.price_cents, s.price_cents,
             '{"48": 1, "24": 0.5, "0": 0}'::jsonb, now()
      from slots s where s.branch_id = any(${branchIds.slice(BRANCHES / 2)}) and s.id % 2 = 0`.execute(
      opened.db,
    );
    // Vacuumed and checkpointed before measuring, so that autovacuum (a million rows inserted) and the
    // checkpointer do not share the machine's two cores with the phases measured after the seeding.
    await sql`vacuum analyze bookings`.execute(opened.db);
    await sql`checkpoint`.execute(opened.db);
    const { rows: bookingCount } = await sql<{
      count: number;
    }>`select count(*)::int as count from bookings`.execute(opened.db);
    console.log(
      `seeded ${bookingCount[0]!.count} bookings in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`,
    );
    // Measured through the second process, which like the reference's has served nothing yet (the first has served
    // every phase above: their throughputs would differ by the processes' pasts as well as by the data).
    const scaleSlotUrls = slotUrls.map((slotUrl) => slotUrl.replace(first.url, second.url));
    await load(scaleSlotUrls, 10); // warm-up
    await load(emptySlotUrls, 10);
    // Rounds of the four phases in turn; each figure is the round with the median throughput.
    const rounds: Load[][] = [[], [], [], []];
    for (let round = 0; round < SCALE_ROUNDS; round += 1) {
      rounds[0]!.push(await load(emptySlotUrls, 50));
      rounds[1]!.push(await load(scaleSlotUrls, 50));
      rounds[2]!.push(await load([`${second.url}/api/health`], 50));
      rounds[3]!.push(await load([`${reference.url}/select1`], 50));
    }
    await stop(empty); // not needed by the phases after this one
    const median = (results: Load[]) => [...results].sort((a, b) => a.rps - b.rps)[results.length >> 1]!;
    const [noBookingsSlots50, fullSlots50, fullHealth50, fullSelect50] = rounds.map(median) as [
      Load,
      Load,
      Load,
      Load,
    ];

    // 0c. My bookings: a member with 10 bookings and one with 1,000 (upcoming, past and cancelled), at a branch of
    // their own with 60 days of past slots.
    await addBranches(BRANCHES + 1, BRANCHES + 1, true);
    const historyBranch = branchIds.at(-1)!;
    await generateSlots(opened.db);
    await sql`
      insert into slots (branch_id, start_time, end_time, local_date, price_cents)
      select ${historyBranch}, t, t + interval '1 hour', (t at time zone 'Europe/Lisbon')::date, 2000
      from generate_series(date_trunc('hour', now()) - interval '1440 hours', date_trunc('hour', now()) - interval '2 hours',
                           interval '1 hour') t
      on conflict do nothing`.execute(opened.db);
    // Each member books slots of their own (the offsets below), so no two live bookings share a slot.
    const member = async (
      email: string,
      phone: string,
      offset: number,
      past: number,
      canceled: number,
      upcoming: number,
    ) => {
      const { id } = await opened.db
        .insertInto('users')
        .values({
          email,
          phone_number: phone,
          first_name: 'Member',
          last_name: 'Bench',
          password_hash: await hasher.hash(PASSWORD),
          email_verified_at: new Date(),
          phone_verified_at: new Date(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const book = (status: 'confirmed' | 'canceled', when: 'past' | 'future', skip: number, count: number) =>
        sql`
        insert into bookings (user_id, slot_id, branch_id, start_time, end_time, status, base_price_cents,
                              final_price_cents, refund_ratios, paid_at, canceled_at)
        select ${id}::uuid, s.id, s.branch_id, s.start_time, s.end_time, ${status}, s.price_cents, s.price_cents,
               '{"48": 1, "24": 0.5, "0": 0}'::jsonb, now(), case when ${status} = 'canceled' then now() end
        from slots s
        where s.branch_id = ${historyBranch} and ${sql.raw(when === 'past' ? 's.start_time < now()' : "s.start_time > now() + interval '3 days'")}
        order by s.start_time ${sql.raw(when === 'past' ? 'desc' : 'asc')}
        offset ${skip} limit ${count}`.execute(opened.db);
      await book('confirmed', 'past', offset, past);
      await book('confirmed', 'future', offset, upcoming);
      await book('canceled', 'future', offset + 200, canceled);
      const response = await fetch(`${first.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: email, password: PASSWORD }),
      });
      return ((await response.json()) as { access_token: string }).access_token;
    };
    const fewToken = await member('few@example.com', '+351910000010', 1000, 6, 1, 3);
    const manyToken = await member('many@example.com', '+351910000011', 0, 880, 100, 20);
    const myBookingsUrl = `${first.url}/api/bookings/my-bookings`;
    const fewMine = await load([myBookingsUrl], 50, { ...brotli, authorization: `Bearer ${fewToken}` });
    const manyMine = await load([myBookingsUrl], 50, { ...brotli, authorization: `Bearer ${manyToken}` });
    const fewMineBytes = await answerBytes(myBookingsUrl, { authorization: `Bearer ${fewToken}` });
    const manyMineBytes = await answerBytes(myBookingsUrl, { authorization: `Bearer ${manyToken}` });

    // 0d. The branch listing with 200 branches (the new ones shown as 'coming soon', their slots not generated).
    const before = branchIds.length;
    await addBranches(before + 1, MANY_BRANCHES, false);
    await sql`update branches set slots_generated_until = current_date + 10000 where id = any(${branchIds.slice(before)})`.execute(
      opened.db,
    );
    const manyBytes = await answerBytes(branchesUrl);
    const allLanguagesMany = await answerBytes(`${first.url}/api/bookings/branches`);
    const manyBranches = await load([branchesUrl], 50, brotli);
    const revalidated = await load([branchesUrl], 50, { ...brotli, 'if-none-match': manyBytes.etag ?? '' });

    say('\n## Costs as the data grows\n');
    say(
      `Each figure beside its reference, measured in this run at 50 connections (${DURATION_SECONDS} s each). ` +
        `Data sizes seeded by the bench: ${bookingCount[0]!.count} bookings; branch listings as the client asks ` +
        `for them (\`?lang=pt\`, Brotli accepted).\n`,
    );
    say('| what | reference | at scale | ratio | target |');
    say('| --- | ---: | ---: | ---: | --- |');
    const row = (what: string, reference: Load, scaled: Load, target: string) =>
      say(
        `| ${what} | ${reference.rps.toFixed(0)} req/s (p99 ${reference.p99} ms) | ${scaled.rps.toFixed(0)} req/s (p99 ${scaled.p99} ms) | ${(scaled.rps / reference.rps).toFixed(2)} | ${target} |`,
      );
    row(
      `slot listing: no bookings → 1M bookings (two databases measured in turn, median of ${SCALE_ROUNDS} rounds)`,
      noBookingsSlots50,
      fullSlots50,
      '>= 0.9',
    );
    say(
      `| slot listing ÷ SELECT 1 through the same server, GET /api/health (no bookings; 1M bookings) | ${(emptySlots50!.rps / emptyHealth50!.rps).toFixed(2)} | ${(fullSlots50.rps / fullHealth50.rps).toFixed(2)} | | >= 0.5 |`,
    );
    say(
      `| slot listing ÷ SELECT 1 of a bare Fastify server, bench-server.ts (no bookings; 1M bookings) | ${(emptySlots50!.rps / emptySelect50!.rps).toFixed(2)} | ${(fullSlots50.rps / fullSelect50.rps).toFixed(2)} | | reported |`,
    );
    row('my bookings: 10 → 1,000 bookings', fewMine, manyMine, '>= 0.5');
    row(
      `branch listing: ${FIRST_BRANCHES} → ${MANY_BRANCHES} branches`,
      fewBranches,
      manyBranches,
      'none (reported)',
    );
    row(
      `branch listing, ${MANY_BRANCHES} branches: full answer → revalidated (304)`,
      manyBranches,
      revalidated,
      'none (reported)',
    );
    say('\n| answer | reference | at scale |');
    say('| --- | ---: | ---: |');
    say(
      `| my bookings (10 → 1,000 bookings), uncompressed / Brotli | ${kib(fewMineBytes.raw)} / ${kib(fewMineBytes.compressed)} | ${kib(manyMineBytes.raw)} / ${kib(manyMineBytes.compressed)} |`,
    );
    say(
      `| branch listing (${FIRST_BRANCHES} → ${MANY_BRANCHES} branches), one language, uncompressed / Brotli | ${kib(fewBytes.raw)} / ${kib(fewBytes.compressed)} | ${kib(manyBytes.raw)} / ${kib(manyBytes.compressed)} |`,
    );
    say(
      `| branch listing without \`lang\` (all five languages), uncompressed | ${kib(allLanguagesFew.raw)} | ${kib(allLanguagesMany.raw)} |`,
    );
    say(
      `\nBranch listing headers: \`Cache-Control: ${manyBytes.cacheControl}\`, \`ETag\` ${manyBytes.etag ? 'present' : 'missing'}; ` +
        `the revalidation phase got ${revalidated.notModified} answers 304 and ${revalidated.non2xx} other non-2xx. ` +
        `Errors in these phases: ${[fewBranches, noBookingsSlots50, fullSlots50, fewMine, manyMine, manyBranches, revalidated].reduce((sum, result) => sum + result.errors + result.non2xx, 0)}.`,
    );

    if (process.env.BENCH_ONLY === 'slots') {
      // For tuning the slot listing: the other phases are skipped and bench/results.md is left as it was.
      await opened.close();
      console.log('\nBENCH_ONLY=slots: stopped after the slot listing; bench/results.md not written');
      return;
    }

    // A token for the storms.
    const login = await fetch(`${first.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'bench@example.com', password: PASSWORD }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const servers = [first.url, second.url];
    let serverErrors = 0;
    const create = async (index: number, slotIds: number[], total: number) => {
      const response = await json(`${servers[index % 2]}/api/bookings/`, {
        method: 'POST',
        token,
        body: {
          time_slot_id: slotIds,
          max_bookings_per_slot: 1,
          coupon_code: null,
          expected_total_final_price_eur: total,
        },
      });
      if (response.status >= 500) serverErrors += 1;
      return response;
    };
    type Slot = { id: number; basic_price_eur: number; is_bookeable: boolean };
    const bookableSlots = async (branchId: number, day: string): Promise<Slot[]> =>
      ((await json(`${first.url}/api/bookings/slots/${branchId}/${day}`)).body as unknown as Slot[]).filter(
        (slot) => slot.is_bookeable,
      );

    // 2. Contention.
    const raceSlots = [
      ...(await bookableSlots(branchIds[0]!, days[2]!)),
      ...(await bookableSlots(branchIds[0]!, days[3]!)),
    ].slice(0, 40);
    let singleWinnerRounds = 0;
    const contentionStarted = performance.now();
    for (const slot of raceSlots) {
      const round = await Promise.all(
        Array.from({ length: 50 }, (_, index) => create(index, [slot.id], slot.basic_price_eur)),
      );
      if (round.filter((response) => response.status === 201).length === 1) singleWinnerRounds += 1;
    }
    const contentionSeconds = (performance.now() - contentionStarted) / 1000;
    // Overlapping requests ([A,B] against [B,C], [A] and [C]) and adjacent ones ([A] against [B]).
    const runs = await bookableSlots(branchIds[1]!, days[4]!);
    let overlapRounds = 0;
    let overlapGood = 0;
    for (let start = 0; start + 2 < runs.length && overlapRounds < 7; start += 3) {
      const [a, b, c] = [runs[start]!, runs[start + 1]!, runs[start + 2]!];
      const price = (slots: Slot[]) =>
        Math.round(slots.reduce((sum, slot) => sum + slot.basic_price_eur * 100, 0)) / 100;
      const shapes = [[a, b], [b, c], [a], [c]];
      const responses = await Promise.all(
        Array.from({ length: 48 }, (_, index) => {
          const shape = shapes[index % shapes.length]!;
          return create(
            index,
            shape.map((slot) => slot.id),
            price(shape),
          ).then((response) => ({ shape, response }));
        }),
      );
      const won = responses
        .filter(({ response }) => response.status === 201)
        .map(({ shape }) => shape.map((slot) => slot.id));
      const covered = won.flat();
      if (won.length >= 1 && new Set(covered).size === covered.length) overlapGood += 1;
      overlapRounds += 1;
    }
    const adjacent = await bookableSlots(branchIds[2]!, days[5]!);
    let adjacentRounds = 0;
    let adjacentGood = 0;
    for (let start = 0; start + 1 < adjacent.length && adjacentRounds < 10; start += 2) {
      const pair = [adjacent[start]!, adjacent[start + 1]!];
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          create(index, [pair[index % 2]!.id], pair[index % 2]!.basic_price_eur),
        ),
      );
      if (responses.filter((response) => response.status === 201).length === 2) adjacentGood += 1;
      adjacentRounds += 1;
    }
    const { rows: overlaps } = await sql<{ count: number }>`
      select count(*)::int as count from bookings a join bookings b
        on a.branch_id = b.branch_id and a.id < b.id
       and tstzrange(a.start_time, a.end_time, '[)') && tstzrange(b.start_time, b.end_time, '[)')
      where a.status in ('pending', 'confirmed') and b.status in ('pending', 'confirmed')`.execute(opened.db);
    say('\n## Booking contention (two server processes)\n');
    say('| scenario | rounds | as expected | 5xx |');
    say('| --- | ---: | ---: | ---: |');
    say(
      `| 50 creates for one slot (exactly one 201) | ${raceSlots.length} | ${singleWinnerRounds} | ${serverErrors} |`,
    );
    say(
      `| 48 overlapping creates ([A,B], [B,C], [A], [C]): no slot won twice | ${overlapRounds} | ${overlapGood} | ${serverErrors} |`,
    );
    say(
      `| 50 creates for two adjacent slots (exactly two 201) | ${adjacentRounds} | ${adjacentGood} | ${serverErrors} |`,
    );
    say(
      `\nInvariant (live bookings of a branch whose time ranges overlap): **${overlaps[0]!.count}**. ` +
        `2000 racing creates took ${contentionSeconds.toFixed(1)} s (${(2000 / contentionSeconds).toFixed(0)} requests/s).`,
    );

    // 3. Payment-event storm on the local checkout: declined cards, duplicates on both processes, and the status
    // reconciliation racing them; then one expiry sweep. Each session must be fulfilled exactly once.
    const stormSlots = (await bookableSlots(branchIds[3]!, days[6]!)).slice(0, 20);
    const sessions: string[] = [];
    for (const [index, slot] of stormSlots.entries()) {
      const created = await create(index, [slot.id], slot.basic_price_eur);
      const secret = (created.body as unknown as { checkout_session: { clientSecret: string } })
        .checkout_session.clientSecret;
      sessions.push(secret.split('_secret_')[0]!);
    }
    const outcomes: Record<string, number> = {};
    await Promise.all(
      sessions.flatMap((sessionId) =>
        Array.from({ length: 16 }, async (_, index) => {
          let response;
          if (index % 4 === 0) {
            response = await json(
              `${servers[index % 2]}/api/checkout/session-status?stripe_session_id=${sessionId}`,
              { token },
            );
          } else {
            const card = index < 4 ? '4000 0000 0000 0002' : '4242 4242 4242 4242';
            response = await json(`${servers[index % 2]}/api/checkout/local/${sessionId}/complete`, {
              method: 'POST',
              body: { card_number: card },
            });
          }
          if (response.status >= 500) serverErrors += 1;
          const key = `${response.status} ${(response.body as { outcome?: string; status?: string }).outcome ?? (response.body as { status?: string; code?: string }).code ?? (response.body as { status?: string }).status}`;
          outcomes[key] = (outcomes[key] ?? 0) + 1;
        }),
      ),
    );
    const { rows: fulfilment } = await sql<{ session: string; confirmed: number; messages: number }>`
      select s.id as session,
             (select count(*)::int from bookings b where b.checkout_session_id = s.id and b.status = 'confirmed') as confirmed,
             (select count(*)::int from outbox o where o.dedupe_key = 'booking_confirmed:' || (
                select string_agg(b.id::text, ',' order by b.id) from bookings b where b.checkout_session_id = s.id)) as messages
      from checkout_sessions s where s.id = any(${sessions})`.execute(opened.db);
    const exactlyOnce = fulfilment.filter((row) => row.confirmed === 1 && row.messages === 1).length;
    say('\n## Payment-event storm (local checkout, two processes)\n');
    say(
      `${sessions.length} sessions x 16 concurrent calls (3 declined cards, 9 paying duplicates, 4 status reconciliations), ` +
        `spread over both processes. Answers: ${Object.entries(outcomes)
          .sort()
          .map(([key, count]) => `${key}: ${count}`)
          .join(', ')}.\n`,
    );
    say(
      `Sessions fulfilled exactly once (one confirmed booking, one confirmation e-mail): **${exactlyOnce} / ${sessions.length}**. 5xx so far: ${serverErrors}.`,
    );

    // 4. Cancel storm: 10 concurrent cancellations of each of 5 paid bookings (well ahead: a full refund).
    const cancelSlots = (await bookableSlots(branchIds[4]!, days[10]!)).slice(0, 5);
    let singleRefunds = 0;
    const cancelStatuses: Record<number, number> = {};
    for (const [index, slot] of cancelSlots.entries()) {
      const created = await create(index, [slot.id], slot.basic_price_eur);
      const secret = (created.body as unknown as { checkout_session: { clientSecret: string } })
        .checkout_session.clientSecret;
      await json(`${first.url}/api/checkout/local/${secret.split('_secret_')[0]}/complete`, {
        method: 'POST',
        body: { card_number: '4242 4242 4242 4242' },
      });
      const { rows } = await sql<{
        id: number;
      }>`select id from bookings where slot_id = ${slot.id} and status = 'confirmed'`.execute(opened.db);
      const bookingId = rows[0]!.id;
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, call) =>
          json(`${servers[call % 2]}/api/bookings/cancel-bookings`, {
            method: 'POST',
            token,
            body: { booking: [{ booking_id: bookingId, expected_refund_eur: slot.basic_price_eur }] },
          }),
        ),
      );
      for (const response of responses) {
        cancelStatuses[response.status] = (cancelStatuses[response.status] ?? 0) + 1;
        if (response.status >= 500) serverErrors += 1;
      }
      const { rows: refunds } = await sql<{
        count: number;
      }>`select count(*)::int as count from refunds where booking_id = ${bookingId}`.execute(opened.db);
      if (refunds[0]!.count === 1) singleRefunds += 1;
    }
    say('\n## Cancel storm\n');
    say(
      `${cancelSlots.length} paid bookings x 10 concurrent cancellations over both processes: answers ${Object.entries(
        cancelStatuses,
      )
        .map(([status, count]) => `${status}: ${count}`)
        .join(', ')}; bookings refunded exactly once: **${singleRefunds} / ${cancelSlots.length}**.`,
    );
    say(`\nTotal 5xx over all storms: **${serverErrors}**.`);
    await opened.close();
    // Formatted like every other file of the repository, so `npm run lint` stays green after a run.
    const resultsFile = path.join(root, 'bench/results.md');
    const options = (await prettier.resolveConfig(resultsFile)) ?? {};
    // The large database's section (bench/seed-large.ts, bench/explain-console.ts) is measured apart: kept as it is.
    const previous = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '';
    const large = /^## Large database\n[\s\S]*?(?=^## |(?![\s\S]))/m.exec(previous)?.[0] ?? '';
    writeFileSync(
      resultsFile,
      await prettier.format(`${lines.join('\n')}\n${large ? `\n${large}` : ''}`, {
        ...options,
        filepath: resultsFile,
      }),
    );
    console.log('\nwritten to bench/results.md');
  } finally {
    // BENCH_SHOW_SERVER=1: what the servers logged (warnings and errors), to see what an error answer hid.
    if (process.env.BENCH_SHOW_SERVER === '1')
      for (const child of children) console.log(child.output.join(''));
    for (const child of children.reverse()) await stop(child);
    await admin(async (client) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await client.query(`drop database if exists ${name} with (force)`);
      await client.query(`drop database if exists ${name}_ref with (force)`);
    });
  }
}

await main();
