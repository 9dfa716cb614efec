import type { ErrorBody, Schemas } from './support/accounts.ts';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import { DATABASE_TARGETS, freshDatabaseConfig, templateDataDir } from './support/databases.ts';

type Branch = {
  id: number;
  name: string;
  order: number;
  image: string;
  images_urls: string[];
  active_with_smart_lock: boolean;
  descriptions_data: Record<string, string>;
  min_and_max_price_eur_long_cached: [number, number];
  time_zone: string;
};
type Slot = {
  id: number;
  start_time: string;
  end_time: string;
  basic_price_eur: number;
  is_bookeable: boolean;
};

const clientDist = mkdtempSync(path.join(tmpdir(), 'gym-dist-'));
mkdirSync(path.join(clientDist, 'assets'));
writeFileSync(path.join(clientDist, 'index.html'), '<!doctype html><title>app</title><div id="root"></div>');
writeFileSync(path.join(clientDist, 'assets', 'app-abc123.js'), 'console.log("app")');
afterAll(() => rmSync(clientDist, { recursive: true, force: true }));

function testConfig(database: Config['database'], overrides: Record<string, string> = {}): Config {
  return {
    ...loadConfig({ NODE_ENV: 'test', SLOT_HORIZON_DAYS: '240', CLIENT_DIST_DIR: clientDist, ...overrides }),
    database,
  };
}

describe.each(DATABASE_TARGETS)('the API on %s', (target) => {
  let app: FastifyInstance;
  let cleanup: () => Promise<void>;
  let branches: Branch[];
  // 20 March 2026, a week before Europe/Lisbon moves its clocks forward.
  const clock = fixedClock('2026-03-20T10:30:00Z');

  beforeAll(async () => {
    const database = await freshDatabaseConfig(target);
    cleanup = database.cleanup;
    app = await buildApp(testConfig(database.config), { clock });
    branches = (await app.inject('/api/bookings/branches')).json();
  });
  afterAll(async () => {
    await app?.close();
    await cleanup?.();
  });

  const activeBranch = () => branches.find((branch) => branch.active_with_smart_lock) as Branch;

  it('lists the three demo branches sorted by order, one of them coming soon', async () => {
    const response = await app.inject('/api/bookings/branches');
    expect(response.statusCode).toBe(200);
    expect(branches).toHaveLength(3);
    expect(branches.map((branch) => branch.order)).toEqual(
      [...branches.map((branch) => branch.order)].sort((a, b) => a - b),
    );
    expect(branches.filter((branch) => !branch.active_with_smart_lock)).toHaveLength(1);
    for (const branch of branches) {
      const [min, max] = branch.min_and_max_price_eur_long_cached;
      expect(min).toBeGreaterThan(0);
      expect(max).toBeGreaterThanOrEqual(min);
      expect(branch.image.startsWith('/')).toBe(true);
      expect(Object.keys(branch.descriptions_data).sort()).toEqual(['de', 'en', 'fr', 'pt', 'sk']);
    }
  });

  it('lists the priced slots of a branch-local day, all bookable when the day is ahead', async () => {
    const response = await app.inject(`/api/bookings/slots/${activeBranch().id}/2026-03-24`);
    expect(response.statusCode).toBe(200);
    const slots: Slot[] = response.json();
    expect(slots).toHaveLength(24);
    expect(slots.every((slot) => slot.is_bookeable && slot.basic_price_eur > 0)).toBe(true);
    expect(slots[0]?.start_time).toBe('2026-03-24T00:00:00+00:00');
    expect(new Set(slots.map((slot) => slot.basic_price_eur)).size).toBeGreaterThan(1);
  });

  it('marks the slots that have already started as not bookable', async () => {
    const slots: Slot[] = (await app.inject(`/api/bookings/slots/${activeBranch().id}/2026-03-20`)).json();
    const started = slots.filter((slot) => Date.parse(slot.start_time) <= Date.parse('2026-03-20T10:30:00Z'));
    expect(started.length).toBe(11);
    expect(started.every((slot) => !slot.is_bookeable)).toBe(true);
    expect(slots.filter((slot) => slot.is_bookeable)).toHaveLength(13);
  });

  it('has 23 one-hour slots on the spring-forward day and 25 on the fall-back day in Europe/Lisbon', async () => {
    const spring: Slot[] = (await app.inject(`/api/bookings/slots/${activeBranch().id}/2026-03-29`)).json();
    const autumn: Slot[] = (await app.inject(`/api/bookings/slots/${activeBranch().id}/2026-10-25`)).json();
    expect(spring).toHaveLength(23);
    expect(spring.map((slot) => slot.start_time)).toContain('2026-03-29T02:00:00+01:00');
    expect(autumn).toHaveLength(25);
    expect(autumn.filter((slot) => slot.start_time.startsWith('2026-10-25T01:00:00'))).toHaveLength(2);
  });

  it("answers a branch's current local time with its offset", async () => {
    const response = await app.inject(`/api/bookings/local-time/branch/${activeBranch().id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.json()).toBe('2026-03-20T10:30:00+00:00');
  });

  it('answers the refund ratios of the policy in force', async () => {
    const response = await app.inject('/api/checkout/refund-ratios');
    expect(response.json()).toEqual({ '48': 1, '24': 0.5, '0': 0 });
  });

  it('reports itself healthy', async () => {
    const response = await app.inject('/api/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('refuses an unknown branch with a localised 404', async () => {
    const portuguese = await app.inject('/api/bookings/slots/9999/2026-03-24');
    expect(portuguese.statusCode).toBe(404);
    expect(portuguese.json()).toEqual({ code: 'branch_not_found', detail: 'Filial não encontrada.' });
    const english = await app.inject({
      url: '/api/bookings/slots/9999/2026-03-24',
      headers: { locale: 'en' },
    });
    expect(english.json()).toEqual({ code: 'branch_not_found', detail: 'Branch not found.' });
    const unsupported = await app.inject({
      url: '/api/bookings/local-time/branch/9999',
      headers: { locale: 'xx' },
    });
    expect(unsupported.json<ErrorBody>().detail).toBe('Filial não encontrada.');
  });

  it.each([
    ['a branch id that is not a number', '/api/bookings/slots/abc/2026-03-24', 422, 'validation_failed'],
    ['a zero branch id', '/api/bookings/slots/0/2026-03-24', 422, 'validation_failed'],
    ['a huge branch id', '/api/bookings/slots/99999999999999999999/2026-03-24', 422, 'validation_failed'],
    ['a malformed date', '/api/bookings/slots/1/24-03-2026', 422, 'validation_failed'],
    ['an impossible date', '/api/bookings/slots/1/2026-02-30', 400, 'invalid_date'],
    ['an injection attempt', "/api/bookings/slots/1/2026-03-24'%20OR%201=1--", 422, 'validation_failed'],
    ['a local-time id that is not a number', '/api/bookings/local-time/branch/1.5', 422, 'validation_failed'],
    // Coercion alone would read these as 16, 1000 and 1 (JavaScript's +value does); ids are decimal digits.
    ['a hexadecimal branch id', '/api/bookings/slots/0x10/2026-03-24', 422, 'validation_failed'],
    ['a branch id in exponent form', '/api/bookings/local-time/branch/1e3', 422, 'validation_failed'],
    ['an unknown API path', '/api/bookings/nothing-here', 404, 'not_found'],
  ])('answers %s with a 4xx carrying detail and code', async (_name, url, status, code) => {
    const response = await app.inject({ url, headers: { locale: 'en' } });
    expect(response.statusCode).toBe(status);
    const body = response.json<ErrorBody>();
    expect(body.code).toBe(code);
    expect(typeof body.detail).toBe('string');
    expect(body.detail.length).toBeGreaterThan(0);
  });

  it('names the invalid field in the validation message, in the request language', async () => {
    const response = await app.inject({
      url: '/api/bookings/slots/abc/2026-03-24',
      headers: { locale: 'en' },
    });
    expect(response.json<ErrorBody>().detail).toBe("Invalid request: 'branch_id' has the wrong type");
    const portuguese = await app.inject('/api/bookings/slots/abc/2026-03-24');
    expect(portuguese.json<ErrorBody>().detail).toBe(
      'Pedido inválido: «branch_id» tem um tipo de valor inválido',
    );
  });

  it('refuses broken and unexpected request bodies with a 4xx, never a 5xx', async () => {
    const brokenJson = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(brokenJson.statusCode).toBe(400);
    expect(brokenJson.json<ErrorBody>().code).toBe('malformed_body');

    const poisoned = await app.inject({
      method: 'POST',
      url: '/api/auth/resend-email-verification',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@example.com", "__proto__": {"admin": true}}',
    });
    expect(poisoned.statusCode).toBeGreaterThanOrEqual(400);
    expect(poisoned.statusCode).toBeLessThan(500);
    expect(poisoned.json<ErrorBody>().code).toBeTypeOf('string');

    const extraField = await app.inject({
      method: 'POST',
      url: '/api/auth/resend-email-verification',
      payload: { email: 'a@example.com', role: 'admin' },
    });
    expect(extraField.statusCode).toBe(422);
    expect(extraField.json<ErrorBody>().detail).toContain('role');

    const wrongType = await app.inject({
      method: 'POST',
      url: '/api/auth/resend-email-verification',
      payload: { email: 42 },
    });
    expect(wrongType.statusCode).toBe(422);

    const wrongMediaType = await app.inject({
      method: 'POST',
      url: '/api/auth/resend-email-verification',
      headers: { 'content-type': 'application/xml' },
      payload: '<email/>',
    });
    expect(wrongMediaType.statusCode).toBe(415);
    expect(wrongMediaType.json<ErrorBody>().code).toBe('unsupported_media_type');

    const oversized = await app.inject({
      method: 'POST',
      url: '/api/auth/resend-email-verification',
      payload: { email: `${'a'.repeat(100_000)}@example.com` },
    });
    expect(oversized.statusCode).toBe(413);
  });

  it('refuses a call that needs a session when no valid token is sent', async () => {
    const response = await app.inject({
      url: '/api/auth/me',
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json<ErrorBody>().code).toBe('unauthorized');
  });

  it('sends security headers', async () => {
    const response = await app.inject('/api/bookings/branches');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(response.headers['x-powered-by']).toBeUndefined();
  });

  it('serves the browsable API reference and the contract behind it', async () => {
    const page = await app.inject('/api/docs/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const specification = await app.inject('/api/docs/json');
    expect(
      specification.json<{ paths: Record<string, { get?: { operationId: string } }> }>().paths[
        '/bookings/branches'
      ]?.get?.operationId,
    ).toBe('listBranches');
  });

  it('lists the development outbox outside production', async () => {
    const response = await app.inject('/api/dev/outbox?to=nobody@example.com');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it('serves the client app for page paths and its assets with long caching', async () => {
    const page = await app.inject('/pt/rights');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await app.inject('/assets/app-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missingAsset = await app.inject('/assets/missing.js');
    expect(missingAsset.statusCode).toBe(404);
  });

  it('serves the operator console and its pages as pages of the app, in the path language, unindexed', async () => {
    for (const url of ['/pt/admin', '/en/admin/', '/de/admin/bookings/12', '/fr/admin?setup=abc']) {
      const page = await app.inject(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain('<div id="root">');
      expect(page.headers['x-robots-tag'], url).toBe('noindex');
    }
    expect((await app.inject('/xx/admin')).statusCode).toBe(404);
    expect((await app.inject('/pt/admin/missing.js')).statusCode).toBe(404);
  });
});

describe('the API when something breaks inside', () => {
  it('answers a generic 500 without internals when the database is gone, and health says unavailable', async () => {
    // The migrated template's copy: building the schema from scratch is the migration tests' business.
    const dataDir = templateDataDir('gym-gone-');
    onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
    const app = await buildApp(testConfig({ kind: 'pglite', dataDir }, { SLOT_HORIZON_DAYS: '3' }), {
      clock: fixedClock('2026-03-20T10:30:00Z'),
    });
    await app.db.destroy();
    const response = await app.inject({ url: '/api/bookings/branches', headers: { locale: 'en' } });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      code: 'internal_error',
      detail: 'An unexpected error occurred. Please try again.',
    });
    const health = await app.inject('/api/health');
    expect(health.statusCode).toBe(503);
    await app.close().catch(() => undefined);
  }, 90_000); // a whole app on an embedded database, seeded: over 30 s on a loaded machine
});

describe('the API in production', () => {
  it('has no development routes and seeds no demo data', async () => {
    // An empty database (the migrated template's copy, never seeded), started in production.
    const dataDir = templateDataDir('gym-production-');
    onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
    const app = await buildApp({
      ...testConfig(
        { kind: 'pglite', dataDir },
        {
          NODE_ENV: 'production',
          LOG_LEVEL: 'silent',
          JWT_SECRET: 'a-production-secret-of-at-least-32-characters',
        },
      ),
    });
    try {
      expect((await app.inject('/api/dev/outbox')).statusCode).toBe(404);
      expect(
        (await app.inject({ method: 'POST', url: '/api/dev/checkout/cs_local_x/expire' })).statusCode,
      ).toBe(404);
      expect(
        (await app.inject({ method: 'POST', url: '/api/dev/checkout/cs_local_x/pay-late' })).statusCode,
      ).toBe(404);
      expect((await app.inject('/api/bookings/branches')).json()).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe('the embedded database', () => {
  it('keeps its data across a restart', async () => {
    const dataDir = templateDataDir('gym-data-');
    try {
      const first = await buildApp(testConfig({ kind: 'pglite', dataDir }));
      const before = (await first.inject('/api/bookings/branches')).json<Schemas['Branch'][]>();
      await first.close();
      const second = await buildApp(testConfig({ kind: 'pglite', dataDir }));
      const after = (await second.inject('/api/bookings/branches')).json<Schemas['Branch'][]>();
      await second.close();
      expect(after).toEqual(before);
      expect(after).toHaveLength(3);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000); // an on-disk PGlite opened twice (copied from the template, so no migration runs)
});
