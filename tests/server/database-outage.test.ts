import type { ErrorBody } from './support/accounts.ts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { accountTestConfig, newClient, verifiedAccount } from './support/accounts.ts';
import { freshDatabaseConfig, TEST_POSTGRES_URL, type FreshDatabase } from './support/databases.ts';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts';
import { anyOf } from './support/matchers.ts';

// The database behind a real TCP proxy, cut (connections refused and reset) or black-holed (accepted, then
// silent): callers hear a prompt 503 they may retry, never a 401 that logs them out and never nothing at all,
// and the server recovers by itself once the database is back.

const NO_ANSWER = Symbol('no answer');

/** The response, or NO_ANSWER when none came within `ms`; also how long it took. */
async function within(ms: number, pending: Promise<LightMyRequestResponse>) {
  const started = performance.now();
  const outcome = await Promise.race([
    pending,
    new Promise<typeof NO_ANSWER>((resolve) => setTimeout(() => resolve(NO_ANSWER), ms)),
  ]);
  return { outcome, elapsedMs: performance.now() - started };
}

async function waitUntilHealthy(app: FastifyInstance, ms: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < ms) {
    const health = await app.inject({ url: '/api/health' });
    if (health.statusCode === 200) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not recover within ${ms} ms`);
}

describe('the database unreachable behind a TCP proxy (postgres)', () => {
  let fresh: FreshDatabase;
  let proxy: TcpProxy;
  let app: FastifyInstance;
  let token: string;
  let client: ReturnType<typeof newClient>;

  beforeAll(async () => {
    fresh = await freshDatabaseConfig('postgres');
    if (fresh.config.kind !== 'postgres') throw new Error('needs PostgreSQL');
    const target = new URL(TEST_POSTGRES_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    // The default timeouts: the test proves what an operator gets without tuning anything.
    app = await buildApp(accountTestConfig({ kind: 'postgres', url: proxy.urlFor(fresh.config.url) }), {
      clock: fixedClock('2026-03-20T10:30:00Z'),
    });
    client = newClient(app);
    token = (await verifiedAccount(client, app)).token;
  }, 60_000);
  afterEach(async () => {
    proxy.restore();
    await waitUntilHealthy(app, 20_000);
  }, 30_000);
  afterAll(async () => {
    proxy?.restore();
    await app?.close();
    await proxy?.close();
    await fresh?.cleanup();
  });

  it('answers an authenticated call 503 service_unavailable with Retry-After while cut, not 401', async () => {
    expect((await client.get('/api/auth/me', token)).statusCode).toBe(200);
    proxy.cut();
    for (const url of ['/api/auth/me', '/api/auth/token/validate', '/api/bookings/my-bookings']) {
      const response = await client.get(url, token);
      expect(response.statusCode, url).toBe(503);
      expect(response.json()).toEqual({ detail: anyOf(String), code: 'service_unavailable' });
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    proxy.restore();
    await waitUntilHealthy(app, 20_000);
    expect((await client.get('/api/auth/me', token)).statusCode).toBe(200);
  }, 60_000);

  it('answers every request within 10 s with 503 while black-holed, and recovers without a restart', async () => {
    expect((await client.get('/api/bookings/my-bookings', token)).statusCode).toBe(200);
    proxy.blackHole();
    const [health, branches, mine] = await Promise.all([
      within(12_000, client.get('/api/health')),
      within(12_000, client.get('/api/bookings/branches')),
      within(12_000, client.get('/api/bookings/my-bookings', token)),
    ]);
    for (const [name, { outcome, elapsedMs }] of Object.entries({ health, branches, mine })) {
      expect(outcome, `${name} answered`).not.toBe(NO_ANSWER);
      expect(elapsedMs, name).toBeLessThan(10_000);
      expect((outcome as LightMyRequestResponse).statusCode, name).toBe(503);
    }
    expect((health.outcome as LightMyRequestResponse).json()).toEqual({
      status: 'unavailable',
      database: 'unreachable',
    });
    expect((branches.outcome as LightMyRequestResponse).json<ErrorBody>().code).toBe('service_unavailable');
    expect((mine.outcome as LightMyRequestResponse).json<ErrorBody>().code).toBe('service_unavailable');

    proxy.restore();
    await waitUntilHealthy(app, 20_000);
    expect((await client.get('/api/bookings/my-bookings', token)).statusCode).toBe(200);
    expect((await client.get('/api/bookings/branches')).statusCode).toBe(200);
  }, 90_000);
});
