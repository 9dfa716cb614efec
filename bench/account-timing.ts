// `npm run bench` (part): forgot-password and resend-verification must not tell by their answer time whether an
// account exists. Measured as an attacker would, over HTTP from outside a real server process (`node
// server/main.ts`), on PGlite and on PostgreSQL (BENCH_POSTGRES_URL, a database of its own created and dropped):
// 10 warm-up pairs, then 30 interleaved pairs; the medians must be within 20 % of each other. Prints a table,
// writes bench/timing-results.md and exits 1 when a call's medians differ more. Not part of `npm test` (a
// millisecond measurement on a loaded machine is a benchmark, not a test); the test suite checks that the answers
// are the same (tests/server/account-recovery-answers.test.ts).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import * as prettier from 'prettier';
import { RATE_LIMIT_RULES } from '../server/config.ts';
import {
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../tests/server/support/server-process.ts';

const root = path.resolve(import.meta.dirname, '..');
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PAIRS = 30;
const WARM_PAIRS = 10;
const LIMIT = 0.2;
const RELAXED = RATE_LIMIT_RULES.map((rule) => `${rule}=100000/1h`).join(',');

/** A real server process on `port`, as the test suites start one (tests/server/support/server-process.ts). */
function startServer(env: Record<string, string>, port: number): Promise<ServerProcess> {
  return startServerProcess({ SEED_DEMO_DATA: 'false', RATE_LIMITS: RELAXED, ...env }, port);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Each call with the status both accounts must get. */
const CALLS: Record<string, [send: (url: string, email: string) => Promise<Response>, status: number]> = {
  // A wrong password for an account that exists and for one that does not (was a Vitest test, security.test.ts,
  // which passed only on retry on a loaded machine): argon2 runs on both paths.
  login: [
    (url: string, email: string) =>
      fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { locale: 'en', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: email, password: 'not the right password 1' }).toString(),
      }),
    401,
  ],
  'forgot-password': [
    (url: string, email: string) =>
      fetch(`${url}/api/auth/forgot-password?email=${encodeURIComponent(email)}`, {
        method: 'POST',
        headers: { locale: 'en' },
      }),
    200,
  ],
  'resend-email-verification': [
    (url: string, email: string) =>
      fetch(`${url}/api/auth/resend-email-verification`, {
        method: 'POST',
        headers: { locale: 'en', 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      }),
    200,
  ],
  'resend-phone-verification': [
    (url: string, email: string) =>
      fetch(`${url}/api/auth/resend-phone-verification`, {
        method: 'POST',
        headers: { locale: 'en', 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      }),
    200,
  ],
};

let accounts = 0;
async function registerAccount(url: string): Promise<string> {
  accounts += 1;
  const email = `timing-${randomBytes(4).toString('hex')}@bench.example`;
  const response = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', locale: 'en' },
    body: JSON.stringify({
      email,
      phone_number: `+3519${String(10_000_000 + accounts).slice(-8)}`,
      first_name: 'Timing',
      last_name: 'Bench',
      password: 'correct horse battery staple',
      confirm_password: 'correct horse battery staple',
      agree_newsletter: false,
      locale: 'en',
    }),
  });
  if (response.status !== 201)
    throw new Error(`register answered ${response.status}: ${await response.text()}`);
  return email;
}

async function measure(
  url: string,
  [call, status]: [send: (url: string, email: string) => Promise<Response>, status: number],
) {
  const existing = await registerAccount(url);
  const missing = `nobody-${randomBytes(4).toString('hex')}@bench.example`;
  const times = { existing: [] as number[], missing: [] as number[] };
  const once = async (email: string) => {
    const started = performance.now();
    const response = await call(url, email);
    await response.text();
    const ms = performance.now() - started;
    if (response.status !== status) throw new Error(`answered ${response.status}, not ${status}`);
    // Room for whatever the request left to do, so it does not slow the next measured request.
    await new Promise((resolve) => setTimeout(resolve, 100));
    return ms;
  };
  for (let warm = 0; warm < WARM_PAIRS; warm += 1) {
    await once(existing);
    await once(missing);
  }
  for (let pair = 0; pair < PAIRS; pair += 1) {
    const order = pair % 2 ? (['existing', 'missing'] as const) : (['missing', 'existing'] as const);
    for (const which of order) times[which].push(await once(which === 'existing' ? existing : missing));
  }
  const medians = { existing: median(times.existing), missing: median(times.missing) };
  return {
    ...medians,
    spread: Math.abs(medians.existing - medians.missing) / Math.min(medians.existing, medians.missing),
  };
}

async function withTarget<T>(target: 'pglite' | 'postgres', work: (url: string) => Promise<T>): Promise<T> {
  if (target === 'pglite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'gym-timing-bench-'));
    const server = await startServer({ DATA_DIR: dataDir }, 3351);
    try {
      return await work(server.url);
    } finally {
      await stopServerProcess(server);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const name = `gym_timing_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const server = await startServer({ DATABASE_URL: url.toString() }, 3352);
  try {
    return await work(server.url);
  } finally {
    await stopServerProcess(server);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

const rows: string[] = [];
let failed = false;
for (const target of ['pglite', 'postgres'] as const) {
  await withTarget(target, async (url) => {
    for (const [call, spec] of Object.entries(CALLS)) {
      const result = await measure(url, spec);
      const ok = result.spread < LIMIT;
      failed ||= !ok;
      const row = `| ${target} | ${call} | ${result.existing.toFixed(2)} | ${result.missing.toFixed(2)} | ${(result.spread * 100).toFixed(1)} % | ${ok ? 'yes' : '**no**'} |`;
      console.log(row);
      rows.push(row);
    }
  });
}

const resultsFile = path.join(root, 'bench/timing-results.md');
const markdown = [
  '# Login and account-recovery answer times (`npm run bench`, bench/account-timing.ts)',
  '',
  `Median answer time over ${PAIRS} interleaved pairs after ${WARM_PAIRS} warm-up pairs, over HTTP to a real server`,
  `process, for an existing and a missing account; the medians must be within ${LIMIT * 100} % of each other.`,
  `Run on ${new Date().toISOString().slice(0, 10)}.`,
  '',
  '| database | call | existing (ms) | missing (ms) | difference | within 20 % |',
  '| --- | --- | --- | --- | --- | --- |',
  ...rows,
  '',
].join('\n');
// Written as Prettier would, so `npm run lint` stays clean after a run.
writeFileSync(
  resultsFile,
  await prettier.format(markdown, {
    ...((await prettier.resolveConfig(resultsFile)) ?? {}),
    filepath: resultsFile,
  }),
);
if (failed) {
  console.error('an account-recovery call tells by its answer time whether the account exists');
  process.exit(1);
}
