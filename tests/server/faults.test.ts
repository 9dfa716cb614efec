import type { ErrorBody, Schemas } from './support/accounts.ts';
import { rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { dateFromInstant, fixedClock } from '../../server/kernel/clock.ts';
import type { Config } from '../../server/config.ts';
import { JOB_QUEUES } from '../../server/jobs/queue.ts';
import { lisbonSlot } from './bookings-fixtures.ts';
import {
  DATABASE_TARGETS,
  freshDatabaseConfig,
  type FreshDatabase,
  templateDataDir,
} from './support/databases.ts';
import {
  accountTestConfig,
  newClient,
  registration,
  startAccountApp,
  verifiedAccount,
  type AccountApp,
} from './support/accounts.ts';
import { createBranch } from './support/fixtures.ts';
import { startSmtpServer } from './support/mail.ts';
import { startServerProcess, stopServerProcess, type ServerProcess } from './support/server-process.ts';

// Things that go wrong in production: a process killed mid-checkout, a checkout nobody finishes, the database
// connection dropped in the middle of a transaction, an SMTP server that is down. Each time the product must
// answer cleanly, keep no half-written rows, and carry on.

type Server = ServerProcess;
const startServer = startServerProcess;
const kill = (server: Server | undefined, signal: NodeJS.Signals) =>
  stopServerProcess(server, signal, 10_000);

async function call(url: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

describe.each(DATABASE_TARGETS)('a server process killed between booking and paying (%s)', (target) => {
  let fresh: FreshDatabase | undefined;
  let dataDir: string | undefined;
  let env: Record<string, string>;
  const servers: Server[] = [];

  beforeAll(async () => {
    if (target === 'postgres') {
      fresh = await freshDatabaseConfig('postgres');
      if (fresh.config.kind !== 'postgres') throw new Error('needs PostgreSQL');
      env = { DATABASE_URL: fresh.config.url };
    } else {
      dataDir = templateDataDir('gym-faults-');
      env = { DATA_DIR: dataDir };
    }
  });
  afterAll(async () => {
    for (const server of servers) await kill(server, 'SIGTERM');
    await fresh?.cleanup();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('lets the payment finish on the restarted process, and the booking is confirmed', async () => {
    const port = target === 'postgres' ? 3331 : 3333;
    const first = await startServer(env, port);
    servers.push(first);
    const login = await fetch(`${first.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'demo@example.com', password: 'Demo-gym-2026!' }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const branches = (await call(`${first.url}/api/bookings/branches`)).json as unknown as {
      id: number;
      active_with_smart_lock: boolean;
    }[];
    const branch = branches.find((candidate) => candidate.active_with_smart_lock)!;
    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const slots = (await call(`${first.url}/api/bookings/slots/${branch.id}/${day}`)).json as unknown as {
      id: number;
      basic_price_eur: number;
      is_bookeable: boolean;
    }[];
    const slot = slots.find((candidate) => candidate.is_bookeable)!;
    const created = await call(`${first.url}/api/bookings/`, {
      method: 'POST',
      token,
      body: {
        time_slot_id: [slot.id],
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: slot.basic_price_eur,
      },
    });
    expect(created.status).toBe(201);
    const secret = (created.json!.checkout_session as { clientSecret: string }).clientSecret;
    const sessionId = secret.split('_secret_')[0]!;

    await kill(first, 'SIGKILL');
    expect(first.process.signalCode).toBe('SIGKILL');

    const second = await startServer(env, port + 1);
    servers.push(second);
    expect(
      (await call(`${second.url}/api/checkout/session-status?stripe_session_id=${sessionId}`, { token }))
        .json,
    ).toEqual({
      status: 'open',
      clientSecret: secret,
      bookings: [expect.objectContaining({ status: 'pending' })],
    });
    const paid = await call(`${second.url}/api/checkout/local/${sessionId}/complete`, {
      method: 'POST',
      body: { card_number: '4242 4242 4242 4242' },
    });
    expect(paid.json).toMatchObject({ status: 'complete', outcome: 'paid' });
    const mine = (await call(`${second.url}/api/bookings/my-bookings`, { token })).json as unknown as {
      status: string;
      paid: boolean;
    }[];
    expect(mine.map((booking) => [booking.status, booking.paid])).toEqual([['confirmed', true]]);
    const after = (await call(`${second.url}/api/bookings/slots/${branch.id}/${day}`)).json as unknown as {
      id: number;
      is_bookeable: boolean;
    }[];
    expect(after.find((candidate) => candidate.id === slot.id)?.is_bookeable).toBe(false);
  }, 120_000);
});

describe.each(DATABASE_TARGETS)('a checkout nobody finishes (%s)', (target) => {
  let server: AccountApp;
  beforeAll(async () => {
    server = await startAccountApp(target, { CHECKOUT_EXPIRY_MINUTES: '30' });
  });
  afterAll(async () => server?.close());

  it('expires with the hold-expiry sweep, and its slot can be booked again', async () => {
    const { app, clock } = server;
    const branchId = await createBranch(app.db);
    const slot = await lisbonSlot(app.db, branchId, '2026-03-26T10:00');
    const first = newClient(app);
    const second = newClient(app);
    const firstToken = (await verifiedAccount(first, app)).token;
    const secondToken = (await verifiedAccount(second, app)).token;
    const body = {
      time_slot_id: [slot],
      max_bookings_per_slot: 1,
      coupon_code: null,
      expected_total_final_price_eur: 15,
    };
    const created = await first.json('POST', '/api/bookings/', body, firstToken);
    expect(created.statusCode).toBe(201);
    const sessionId = (
      created.json<Schemas['CreateBookingResponse']>().checkout_session.clientSecret as string
    ).split('_secret_')[0]!;
    expect((await second.json('POST', '/api/bookings/', body, secondToken)).statusCode).toBe(409);

    // The sweep as the queue runs it each minute (under a test clock the cron does not fire by itself).
    clock.advance({ minutes: 31 });
    await app.jobs.boss.send(JOB_QUEUES.holdExpiry, null, { startAfter: dateFromInstant(clock.now()) });
    expect(await app.jobs.runDue()).toBe(1);
    const session = await app.db
      .selectFrom('checkout_sessions')
      .select('status')
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    expect(session.status).toBe('expired');
    const status = await first.get(`/api/checkout/session-status?stripe_session_id=${sessionId}`, firstToken);
    expect(status.json()).toEqual({
      status: 'expired',
      clientSecret: null,
      bookings: [expect.objectContaining({ status: 'expired' })],
    });
    const listed = (await first.get(`/api/bookings/slots/${branchId}/2026-03-26`)).json<
      {
        id: number;
        is_bookeable: boolean;
      }[]
    >();
    expect(listed.find((candidate) => candidate.id === slot)?.is_bookeable).toBe(true);
    const paying = await first.json('POST', `/api/checkout/local/${sessionId}/complete`, {
      card_number: '4242 4242 4242 4242',
    });
    expect(paying.statusCode).toBe(409);
    expect((await second.json('POST', '/api/bookings/', body, secondToken)).statusCode).toBe(201);
    const mine = (await first.get('/api/bookings/my-bookings', firstToken)).json<{ status: string }[]>();
    expect(mine.map((booking) => booking.status)).toEqual(['expired']);
  });
});

describe('the database connection dropped in the middle of a booking (postgres)', () => {
  let fresh: FreshDatabase;
  let app: FastifyInstance;
  let admin: pg.Client;

  beforeAll(async () => {
    fresh = await freshDatabaseConfig('postgres');
    if (fresh.config.kind !== 'postgres') throw new Error('needs PostgreSQL');
    app = await buildApp(accountTestConfig(fresh.config), { clock: fixedClock('2026-03-20T10:30:00Z') });
    admin = new pg.Client({ connectionString: fresh.config.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await app?.close();
    await fresh?.cleanup();
  });

  it('answers a clean 503 {detail, code}, leaves no half-written rows, and serves the next request', async () => {
    const branchId = await createBranch(app.db);
    const slot = await lisbonSlot(app.db, branchId, '2026-03-26T10:00');
    const client = newClient(app);
    const { token } = await verifiedAccount(client, app);
    const body = {
      time_slot_id: [slot],
      max_bookings_per_slot: 1,
      coupon_code: null,
      expected_total_final_price_eur: 15,
    };

    // Hold the checkout sessions table, so the booking's transaction stops after placing its hold; then end the
    // server's connection under it, as a failover or a network cut would.
    await admin.query('begin');
    await admin.query('lock table checkout_sessions in access exclusive mode');
    const pending = client.json('POST', '/api/bookings/', body, token);
    let victim: number | undefined;
    for (let attempt = 0; attempt < 100 && victim === undefined; attempt += 1) {
      // Activity statistics are a snapshot per transaction: take a new one each time.
      await admin.query('select pg_stat_clear_snapshot()');
      const { rows } = await admin.query<{ pid: number }>(
        `select pid from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid()
           and wait_event_type = 'Lock' and xact_start is not null`,
      );
      victim = rows[0]?.pid;
      if (victim === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (victim === undefined) {
      const { rows } = await admin.query(
        'select pid, state, wait_event_type, query from pg_stat_activity where datname = current_database()',
      );
      await admin.query('rollback');
      throw new Error(
        `no blocked backend: ${JSON.stringify(rows)} ${JSON.stringify((await pending).json())}`,
      );
    }
    await admin.query('select pg_terminate_backend($1)', [victim]);
    await admin.query('rollback');

    const response = await pending;
    expect(response.statusCode).toBe(503);
    expect(Object.keys(response.json()).sort()).toEqual(['code', 'detail']);
    expect(response.json<ErrorBody>().code).toBe('service_unavailable');
    expect(response.body).not.toMatch(/terminat|postgres|sql|pg_|stack|at \w+ \(/i);
    const counts = await sql<{ bookings: number; sessions: number }>`
      select (select count(*)::int from bookings) as bookings,
             (select count(*)::int from checkout_sessions) as sessions`.execute(app.db);
    expect(counts.rows[0]).toEqual({ bookings: 0, sessions: 0 });

    const retried = await client.json('POST', '/api/bookings/', body, token);
    expect(retried.statusCode).toBe(201);
    expect((await client.get('/api/health')).json()).toEqual({ status: 'ok', database: 'ok' });
  }, 60_000);
});

describe.each(DATABASE_TARGETS)('an unreachable SMTP server (%s)', (target) => {
  it('delays mail without losing it, across a restart, and delivers once the server listens', async () => {
    const probe = await startSmtpServer();
    const port = probe.port;
    await probe.close();
    const fresh = await freshDatabaseConfig(target);
    const dataDir = target === 'pglite' ? templateDataDir('gym-smtp-') : null;
    const database: Config['database'] = dataDir ? { kind: 'pglite', dataDir } : fresh.config;
    const clock = fixedClock('2026-03-20T10:30:00Z');
    const config = accountTestConfig(database, { SMTP_URL: `smtp://127.0.0.1:${port}` });
    let smtp: Awaited<ReturnType<typeof startSmtpServer>> | undefined;
    let app: FastifyInstance | undefined = await buildApp(config, { clock });
    try {
      const account = registration();
      expect((await newClient(app).json('POST', '/api/auth/register', account)).statusCode).toBe(201);
      expect((await app.outboxWorker.runOnce()).retrying).toBe(1);
      const row = () =>
        app!.db
          .selectFrom('outbox')
          .selectAll()
          .where('recipient', '=', account.email)
          .executeTakeFirstOrThrow();
      const waiting = await row();
      expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
      expect(waiting.last_error).toMatch(/ECONNREFUSED|connect/i);

      // The process goes away and comes back; the message is still there, waiting.
      await app.close();
      app = await buildApp(config, { clock });
      expect(await row()).toMatchObject({ status: 'pending', attempts: 1 });

      smtp = await startSmtpServer({ port });
      clock.set(new Date(waiting.next_attempt_at.getTime() + 1000).toISOString());
      expect((await app.outboxWorker.runOnce()).delivered).toBe(1);
      expect(smtp.received.map((mail) => mail.to)).toEqual([[account.email]]);
      expect(await row()).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    } finally {
      await app?.close();
      await smtp?.close();
      await fresh.cleanup();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
