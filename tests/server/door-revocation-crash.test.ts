import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../server/db/database.ts';
import { setBranchDoors } from '../../server/doors/doors-repository.ts';
import { freshDatabaseConfig, type FreshDatabase } from './support/databases.ts';
import { startFakeSeam, type FakeSeam } from './support/fake-seam.ts';
import { startServerProcess, stopServerProcess, type ServerProcess } from './support/server-process.ts';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts';

// kill -9 of the process syncing a revocation to the doors. The job it held must not wait for its expiry
// (two minutes, then a retry: the door kept opening for about four minutes): another process sees its
// heartbeat stop, fails it, and retries it after the queue's short delay. Real processes on one PostgreSQL,
// Seam's fake behind a TCP proxy that stops answering, so the revocation hangs in the first process.

/**
 * Counted from the member's cancellation. A sync held by a dead process is freed by its heartbeat (10 s, a look
 * every 5 s, then the first retry delay of 5-10 s and a poll of 2 s: about 20-30 s after the kill on an idle
 * machine, the second process's start included) or, without one, only by its expiry 120 s after it started, and
 * until then no other sync of the code may run, not even the door sweep's. The bound leaves room for a loaded CI
 * machine and still tells the two apart.
 */
const REVOKED_WITHIN_MS = 110_000;

describe('a revocation whose process is killed mid-sync (postgres, Seam’s fake)', () => {
  let fresh: FreshDatabase;
  let seam: FakeSeam;
  let proxy: TcpProxy;
  let db: OpenedDatabase;
  let env: Record<string, string>;
  const servers: (ServerProcess | undefined)[] = [];

  beforeAll(async () => {
    fresh = await freshDatabaseConfig('postgres');
    if (fresh.config.kind !== 'postgres') throw new Error('needs PostgreSQL');
    seam = await startFakeSeam();
    const fakeUrl = new URL(seam.url);
    proxy = await startTcpProxy({ host: fakeUrl.hostname, port: Number(fakeUrl.port) });
    env = {
      DATABASE_URL: fresh.config.url,
      JWT_SECRET: 'a-test-secret-shared-by-both-server-processes',
      SEAM_API_KEY: seam.apiKey,
      SEAM_ENDPOINT: `http://127.0.0.1:${proxy.port}`,
    };
    servers[0] = await startServerProcess(env);
    db = await openDatabase(fresh.config);
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) await stopServerProcess(server, 'SIGKILL');
    await db?.close();
    await proxy?.close();
    await seam?.close();
    await fresh?.cleanup();
  });

  async function call(path: string, body: unknown, token?: string) {
    const response = await fetch(`${servers[0]!.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function until<T>(what: string, read: () => Promise<T | undefined>, withinMs: number): Promise<T> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const value = await read();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  const onDoors = async (lockCodeId: number) =>
    (await Promise.all(seam.devices.map((device) => seam.codesOn(device))))
      .flat()
      .filter((code) => code.name === `booking-code-${lockCodeId}`);

  it('is taken over by another process and deletes the code from every door within seconds', async () => {
    const [branch] = await db.db
      .selectFrom('branches')
      .select('id')
      .where('active_with_smart_lock', '=', true)
      .orderBy('id')
      .execute();
    await setBranchDoors(db.db, branch!.id, seam.devices);

    const login = await fetch(`${servers[0]!.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'demo@example.com', password: 'Demo-gym-2026!' }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const day = new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 10);
    const slots = (await (
      await fetch(`${servers[0]!.url}/api/bookings/slots/${branch!.id}/${day}`)
    ).json()) as { id: number; basic_price_eur: number; is_bookeable: boolean }[];
    const slot = slots.find((candidate) => candidate.is_bookeable)!;
    const created = await call(
      '/api/bookings/',
      {
        time_slot_id: [slot.id],
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: slot.basic_price_eur,
      },
      token,
    );
    expect(created.status).toBe(201);
    const secret = (created.body.checkout_session as { clientSecret: string }).clientSecret;
    const paid = await call(`/api/checkout/local/${secret.split('_secret_')[0]}/complete`, {
      card_number: '4242 4242 4242 4242',
    });
    expect(paid.status).toBe(200);
    const booking = await db.db
      .selectFrom('bookings')
      .select(['id', 'lock_code_id'])
      .where('slot_id', '=', slot.id)
      .where('status', '=', 'confirmed')
      .executeTakeFirstOrThrow();
    const lockCodeId = booking.lock_code_id!;
    await until(
      'the code is on both doors',
      async () => ((await onDoors(lockCodeId)).length === 2 ? true : undefined),
      30_000,
    );

    // The doors are still programming, so the code's sync waits for a retry; as after a door has taken its time
    // for a while, that retry is minutes away (the backoff grows to five minutes). The revocation must not wait
    // for it: the queue holds one waiting job per code.
    await until(
      'the code’s sync waits for a retry',
      async () => {
        const { rows } = await sql<{ id: string }>`
          update pgboss.job set start_after = now() + interval '5 minutes', retry_count = 5
          where name = 'lock-sync' and singleton_key = ${`code-${lockCodeId}`} and state = 'retry'
          returning id`.execute(db.db);
        return rows.length > 0 ? true : undefined;
      },
      30_000,
    );

    // Seam stops answering; the member cancels; the first process takes the revocation and hangs in it.
    proxy.blackHole();
    const revocationWishedAt = Date.now();
    const canceled = await call(
      '/api/bookings/cancel-bookings',
      { booking: [{ booking_id: booking.id, expected_refund_eur: slot.basic_price_eur }] },
      token,
    );
    expect(canceled.status).toBe(200);
    await until(
      'the revocation runs in the first process',
      async () => {
        const { rows } = await sql<{ state: string }>`
          select state from pgboss.job
          where name = 'lock-sync' and data->>'lockCodeId' = ${String(lockCodeId)} and state = 'active'`.execute(
          db.db,
        );
        return rows.length > 0 ? true : undefined;
      },
      20_000,
    );
    await stopServerProcess(servers[0], 'SIGKILL');
    proxy.restore();

    // The second process starts after the crash: only it can finish the revocation.
    servers[1] = await startServerProcess(env);
    const upAt = Date.now();
    // Gone from both doors, and each door's row says so (the sync records it just after the door answers).
    const states = async () =>
      (
        await db.db
          .selectFrom('lock_code_doors')
          .select('state')
          .where('lock_code_id', '=', lockCodeId)
          .execute()
      ).map((row) => row.state);
    const syncJobs = async () =>
      (
        await sql<{ state: string; retry_count: number; start_after: Date; output: unknown }>`
          select state, retry_count, start_after, output from pgboss.job
          where name = 'lock-sync' and data->>'lockCodeId' = ${String(lockCodeId)} order by created_on`.execute(
          db.db,
        )
      ).rows;
    try {
      await until(
        'the code is gone from both doors and both rows say revoked',
        async () =>
          (await onDoors(lockCodeId)).length === 0 && (await states()).every((state) => state === 'revoked')
            ? true
            : undefined,
        REVOKED_WITHIN_MS - (Date.now() - revocationWishedAt),
      );
    } catch (error) {
      // What the queue and the second process did, for whoever reads a failure.
      console.error(JSON.stringify(await syncJobs(), null, 1), servers[1].output.join(''));
      throw error;
    }
    console.info(
      `revoked ${Date.now() - revocationWishedAt} ms after the cancellation, ${Date.now() - upAt} ms after the second process answered`,
    );
    expect(await states()).toEqual(['revoked', 'revoked']);
    expect(Date.now() - revocationWishedAt).toBeLessThan(REVOKED_WITHIN_MS);
  }, 180_000);
});
