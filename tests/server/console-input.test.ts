import type { ErrorBody, Schemas } from './support/accounts.ts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { freshDatabaseConfig, type FreshDatabase, PGLITE_ONLY } from './support/databases.ts';
import {
  accountTestConfig,
  bookAndPayOverHttp,
  newClient,
  startAccountApp,
  verifiedAccount,
  type AccountApp,
} from './support/accounts.ts';
import { createBranch, insertSlot } from './support/fixtures.ts';
import { loggedInOperator } from './support/operators.ts';

// What the console takes from an operator is refused with the contract's errors, never a 500 and never stored
// when it is out of bounds: a move onto the booking's own slot, dates outside the accepted years (2000-2100)
// or that do not exist, a closure of centuries, and map or image links a browser would run or that are not
// https (docs/decisions.md, "Input is refused with the contract's errors").

let counter = 0;
const unique = (role: string) => `${role}-${Date.now()}-${(counter += 1)}@gym.example`;

const NEW_BRANCH = {
  name: 'Input branch',
  location: 'Rua 1',
  latitude: 38.7,
  longitude: -9.1,
  time_zone: 'Europe/Lisbon',
  default_price_eur: 15,
  images: ['https://cdn.gym.example/a.jpg'],
  descriptions: { pt: 'x', en: 'x', fr: 'x', de: 'x', sk: 'x' },
};

describe.each(PGLITE_ONLY)('console input on %s', (target) => {
  let server: AccountApp;
  let owner: Awaited<ReturnType<typeof loggedInOperator>>;
  let branchId: number;

  beforeAll(async () => {
    server = await startAccountApp(target);
    owner = await loggedInOperator(server.app, server.clock, unique('owner'), 'owner');
    branchId = await createBranch(server.app.db);
  });
  afterAll(async () => server?.close());

  const get = (url: string) => owner.client.get(url, owner.token, { locale: 'en' });
  const send = (method: 'POST' | 'PATCH', url: string, payload: object) =>
    owner.client.call({
      method,
      url,
      payload,
      headers: { authorization: `Bearer ${owner.token}`, locale: 'en' },
    });
  const fieldsOf = (response: { json: <T>() => T }) =>
    (response.json<ErrorBody>().fields ?? []).map((field) => field.field);

  it('refuses to move a booking onto its own slot with 409 move_same_slot, changing nothing', async () => {
    const member = await verifiedAccount(newClient(server.app), server.app);
    const slotId = await insertSlot(server.app.db, {
      branchId,
      start: '2026-03-30T10:00:00Z',
      end: '2026-03-30T11:00:00Z',
      localDate: '2026-03-30',
    });
    await bookAndPayOverHttp(newClient(server.app), member.token, slotId);
    const before = await server.app.db
      .selectFrom('bookings')
      .selectAll()
      .where('slot_id', '=', slotId)
      .executeTakeFirstOrThrow();
    const outbox = await server.app.db.selectFrom('outbox').select('id').execute();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const moved = await send('POST', `/api/admin/bookings/${before.id}/move`, {
        time_slot_id: slotId,
        reason: 'same slot',
      });
      expect(moved.statusCode).toBe(409);
      expect(moved.json<ErrorBody>()).toMatchObject({ code: 'move_same_slot' });
    }
    expect(
      await server.app.db.selectFrom('bookings').selectAll().where('id', '=', before.id).executeTakeFirst(),
    ).toEqual(before);
    expect(await server.app.db.selectFrom('booking_moves').selectAll().execute()).toEqual([]);
    expect(await server.app.db.selectFrom('outbox').select('id').execute()).toEqual(outbox);
  });

  it('refuses dates outside the years 2000 to 2100 and dates that do not exist with 422 naming the field', async () => {
    for (const url of [
      '/api/admin/bookings?from=0000-01-01',
      '/api/admin/bookings?to=9999-12-31',
      '/api/admin/bookings?from=1999-12-31',
      '/api/admin/today?date=0000-01-01',
      '/api/admin/today?date=2026-02-30',
      '/api/admin/today?date=2101-01-01',
      '/api/admin/payments?from=0000-01-01&to=2026-03-01',
      '/api/admin/reports/money?from=2026-01-01&to=2026-02-30',
      '/api/admin/audit?from=0000-12-01',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(422);
      expect(response.json<ErrorBody>().code, url).toBe('validation_failed');
      expect(fieldsOf(response).length, url).toBe(1);
    }
    // The bounds themselves are days like any other.
    expect((await get('/api/admin/bookings?from=2000-01-01&to=2100-12-31')).statusCode).toBe(200);
    expect((await get('/api/admin/today?date=2100-12-31')).statusCode).toBe(200);
  });

  it('refuses a closure outside the accepted years or longer than a year, and stores none', async () => {
    const closure = (starts_at: string, ends_at: string) => ({
      branch_id: branchId,
      starts_at,
      ends_at,
      reason: 'input test',
    });
    for (const [period, status, field] of [
      [closure('0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z'), 422, 'starts_at'],
      [closure('2026-04-01T00:00:00Z', '9999-12-31T23:59:59Z'), 422, 'ends_at'],
      [closure('1999-12-31T00:00:00Z', '2026-04-02T00:00:00Z'), 422, 'starts_at'],
      [closure('2026-04-01T00:00:00Z', '2101-01-01T00:00:00Z'), 422, 'ends_at'],
      [closure('2026-04-01T00:00:00Z', '2027-04-03T00:00:00Z'), 400, null],
    ] as const) {
      for (const url of ['/api/admin/closures/preview', '/api/admin/closures']) {
        const response = await send('POST', url, period);
        expect(response.statusCode, `${url} ${JSON.stringify(period)}`).toBe(status);
        if (field) expect(fieldsOf(response)).toEqual([field]);
        else expect(response.json<ErrorBody>().code).toBe('invalid_period');
      }
    }
    expect(await server.app.db.selectFrom('branch_closures').select('id').execute()).toEqual([]);
  });

  it('refuses map and image links that are not https (javascript:, data:, relative to nothing) with 422, and publishes none', async () => {
    const bad = [
      'javascript:alert(document.cookie)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      'data:image/svg+xml,<svg onload=alert(1)>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      '//evil.example/x.jpg',
      'ftp://cdn.gym.example/a.jpg',
      'https://',
      'not a url',
    ];
    for (const value of bad) {
      const mapUpdate = await send('PATCH', `/api/admin/branches/${branchId}`, { map_url: value });
      expect(mapUpdate.statusCode, value).toBe(422);
      expect(fieldsOf(mapUpdate), value).toEqual(['map_url']);
      const imageUpdate = await send('PATCH', `/api/admin/branches/${branchId}`, {
        images: ['https://cdn.gym.example/ok.jpg', value],
      });
      expect(imageUpdate.statusCode, value).toBe(422);
      expect(fieldsOf(imageUpdate), value).toEqual(['images[1]']);
      const created = await send('POST', '/api/admin/branches', {
        ...NEW_BRANCH,
        slug: `bad-link-${counter++}`,
        map_url: value,
      });
      expect(created.statusCode, value).toBe(422);
      expect(fieldsOf(created), value).toEqual(['map_url']);
    }
    const published = await newClient(server.app).get('/api/bookings/branches');
    const text = published.body.toLowerCase();
    expect(text).not.toContain('javascript:');
    expect(text).not.toContain('data:');
    expect(await server.app.db.selectFrom('branches').select('id').execute()).toHaveLength(1);

    // https, plain http outside production, and the site's own images are taken.
    const good = await send('PATCH', `/api/admin/branches/${branchId}`, {
      map_url: 'https://www.openstreetmap.org/export/embed.html?bbox=1,2,3,4',
      images: ['/images/branches/a.svg', 'https://cdn.gym.example/b.jpg', 'http://localhost:5173/c.jpg'],
    });
    expect(good.statusCode).toBe(200);
    expect(good.json<Schemas['AdminBranch']>().images).toEqual([
      '/images/branches/a.svg',
      'https://cdn.gym.example/b.jpg',
      'http://localhost:5173/c.jpg',
    ]);
  });
});

describe('branch links in production (pglite)', () => {
  let fresh: FreshDatabase;
  let app: FastifyInstance;
  let token: string;
  let branchId: number;

  beforeAll(async () => {
    fresh = await freshDatabaseConfig('pglite');
    const clock = fixedClock('2026-03-20T10:30:00Z');
    app = await buildApp({ ...accountTestConfig(fresh.config), isProduction: true }, { clock });
    token = (await loggedInOperator(app, clock, unique('owner'), 'owner')).token;
    branchId = await createBranch(app.db);
  });
  afterAll(async () => {
    await app?.close();
    await fresh?.cleanup();
  });

  it('takes only https links', async () => {
    const update = (map_url: string) =>
      app.inject({
        method: 'PATCH',
        url: `/api/admin/branches/${branchId}`,
        headers: { authorization: `Bearer ${token}` },
        payload: { map_url },
      });
    const plain = await update('http://maps.example/embed');
    expect(plain.statusCode).toBe(422);
    expect(plain.json<ErrorBody>().fields).toEqual([{ field: 'map_url', problem: 'format' }]);
    expect((await update('https://maps.example/embed')).statusCode).toBe(200);
  });
});
