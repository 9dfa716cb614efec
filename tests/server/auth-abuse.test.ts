import type { ErrorBody } from './support/accounts.ts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/database.ts';
import { PGLITE_ONLY } from './support/databases.ts';
import {
  latestCode,
  newClient,
  registration,
  RELAXED_RATE_LIMITS,
  startAccountApp,
  verifiedAccount,
  type AccountApp,
} from './support/accounts.ts';

const LOW_LIMITS = [
  RELAXED_RATE_LIMITS,
  'login.ip=6/15m',
  'login.account=3/15m',
  'register.ip=3/1h',
  'register.contact=2/1h',
  'resend.ip=4/1h',
  'resend.account=2/1h',
  'forgot.ip=4/1h',
  'forgot.account=2/1h',
  'confirm.ip=4/15m',
  'reset.ip=3/15m',
].join(',');

async function rowCounts(db: Db) {
  const { rows } = await sql<Record<string, number>>`
    select (select count(*)::int from users) as users,
           (select count(*)::int from verification_codes) as codes,
           (select count(*)::int from password_reset_tokens) as reset_tokens,
           (select count(*)::int from outbox) as outbox,
           (select count(*)::int from blocked_contacts) as blocked`.execute(db);
  return rows[0];
}

describe.each(PGLITE_ONLY)('abuse limits on %s', (target) => {
  let server: AccountApp;
  beforeAll(async () => {
    server = await startAccountApp(target, { RATE_LIMITS: LOW_LIMITS });
  });
  afterAll(async () => server?.close());

  it('refuses logins from one address past the limit with 429, Retry-After and a localised detail', async () => {
    const client = newClient(server.app);
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      const response = await client.login(`someone-${attempt}@example.com`, 'whatever it is');
      expect(response.statusCode).toBe(401);
    }
    const limited = await client.login('someone-7@example.com', 'whatever it is', { locale: 'en' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      code: 'rate_limited',
      detail: 'Too many requests. Please try again in a few minutes.',
    });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    server.clock.advance({ seconds: retryAfter });
    try {
      expect((await client.login('someone-8@example.com', 'whatever it is')).statusCode).toBe(401);
    } finally {
      server.clock.advance({ seconds: -retryAfter });
    }
  });

  it('locks an account after repeated wrong passwords from any address, even for the right password', async () => {
    const owner = newClient(server.app);
    const account = await verifiedAccount(owner, server.app);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await newClient(server.app).login(account.email, 'a wrong guess here')).statusCode).toBe(401);
    }
    expect((await newClient(server.app).login(account.email, account.password)).statusCode).toBe(429);
  });

  it('does not count successful logins against the account', async () => {
    const client = newClient(server.app);
    const account = await verifiedAccount(client, server.app);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await newClient(server.app).login(account.email, account.password)).statusCode).toBe(200);
    }
  });

  it('limits registrations per address and per e-mail address', async () => {
    const client = newClient(server.app);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await client.json('POST', '/api/auth/register', registration())).statusCode).toBe(201);
    }
    expect((await client.json('POST', '/api/auth/register', registration())).statusCode).toBe(429);

    const same = registration();
    expect((await newClient(server.app).json('POST', '/api/auth/register', same)).statusCode).toBe(201);
    expect((await newClient(server.app).json('POST', '/api/auth/register', same)).statusCode).toBe(409);
    expect((await newClient(server.app).json('POST', '/api/auth/register', same)).statusCode).toBe(429);
  });

  it('limits code resends and reset requests per account, whatever the address', async () => {
    const account = registration();
    await newClient(server.app).json('POST', '/api/auth/register', account);
    for (const path of ['/api/auth/resend-email-verification', '/api/auth/resend-phone-verification']) {
      expect((await newClient(server.app).json('POST', path, { email: account.email })).statusCode).toBe(200);
      expect((await newClient(server.app).json('POST', path, { email: account.email })).statusCode).toBe(200);
      expect((await newClient(server.app).json('POST', path, { email: account.email })).statusCode).toBe(429);
    }
    const forgot = `/api/auth/forgot-password?email=${encodeURIComponent('victim@example.com')}`;
    expect((await newClient(server.app).call({ method: 'POST', url: forgot })).statusCode).toBe(200);
    expect((await newClient(server.app).call({ method: 'POST', url: forgot })).statusCode).toBe(200);
    expect((await newClient(server.app).call({ method: 'POST', url: forgot })).statusCode).toBe(429);
  });

  it('limits resends and reset requests per address', async () => {
    const client = newClient(server.app);
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const email = `nobody-${attempt}@example.com`;
      expect((await client.json('POST', '/api/auth/resend-email-verification', { email })).statusCode).toBe(
        200,
      );
      expect(
        (await client.call({ method: 'POST', url: `/api/auth/forgot-password?email=${email}` })).statusCode,
      ).toBe(200);
    }
    expect(
      (await client.json('POST', '/api/auth/resend-phone-verification', { email: 'x@example.com' }))
        .statusCode,
    ).toBe(429);
    expect(
      (await client.call({ method: 'POST', url: '/api/auth/forgot-password?email=x@example.com' }))
        .statusCode,
    ).toBe(429);
  });

  it('holds the attempt limit on codes: after four wrong codes even the right one is refused', async () => {
    const client = newClient(server.app);
    const account = registration();
    await client.json('POST', '/api/auth/register', account);
    const code = await latestCode(server.app, account.email);
    const wrong = code === '000000' ? '000001' : '000000';
    for (const attempt of [wrong, '12345', 'abcdef', wrong]) {
      expect((await client.get(`/api/auth/confirm-email/${attempt}`)).statusCode).toBe(400);
    }
    const limited = await client.get(`/api/auth/confirm-email/${code}`);
    expect(limited.statusCode).toBe(429);
    // Whole seconds until the attempt window (at most 15 minutes) ends.
    expect(String(limited.headers['retry-after'])).toMatch(/^[1-9]\d*$/);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    // Another caller is not affected, and the code is still good.
    expect((await newClient(server.app).get(`/api/auth/confirm-email/${code}`)).statusCode).toBe(200);
  });

  it('limits wrong reset tokens per address', async () => {
    const client = newClient(server.app);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await client.json('POST', `/api/auth/reset-password/not-a-token-${attempt}`, {
        new_password: 'a good long passphrase',
      });
      expect(response.statusCode).toBe(400);
    }
    const limited = await client.json('POST', '/api/auth/reset-password/another', {
      new_password: 'a good long passphrase',
    });
    expect(limited.statusCode).toBe(429);
  });

  it('stores no e-mail address or IP address in the rate-limit counters', async () => {
    const { rows } = await sql<{ bucket: string }>`select bucket from rate_limit_counters`.execute(
      server.app.db,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const { bucket } of rows) expect(bucket).toMatch(/^[a-z]+\.[a-z]+:[0-9a-f]{64}$/);
  });

  describe('bad input to every /auth call', () => {
    const long = 'x'.repeat(10 * 1024);
    const sqlText = "' OR 1=1; drop table users; --";
    const script = '<script>alert(document.cookie)</script>';
    const valid = registration();

    type Case = {
      name: string;
      method: 'GET' | 'POST' | 'PUT' | 'DELETE';
      url: string;
      body?: unknown;
      form?: string;
      type?: string;
    };
    const cases: Case[] = [
      { name: 'register without a body', method: 'POST', url: '/api/auth/register' },
      {
        name: 'register with missing fields',
        method: 'POST',
        url: '/api/auth/register',
        body: { email: valid.email },
      },
      {
        name: 'register with wrong types',
        method: 'POST',
        url: '/api/auth/register',
        body: { ...valid, agree_newsletter: 'yes', first_name: 42 },
      },
      {
        name: 'register with a 10 kB name',
        method: 'POST',
        url: '/api/auth/register',
        body: { ...valid, first_name: long },
      },
      {
        name: 'register with a 10 kB password',
        method: 'POST',
        url: '/api/auth/register',
        body: { ...valid, password: long, confirm_password: long },
      },
      {
        name: 'register with SQL as e-mail',
        method: 'POST',
        url: '/api/auth/register',
        body: { ...valid, email: sqlText },
      },
      {
        name: 'register with a script as phone',
        method: 'POST',
        url: '/api/auth/register',
        body: { ...valid, phone_number: script },
      },
      {
        name: 'register with an unknown field',
        method: 'POST',
        url: '/api/auth/register',
        body: { ...valid, is_admin: true },
      },
      {
        name: 'register with an unknown locale',
        method: 'POST',
        url: '/api/auth/register',
        body: { ...valid, locale: 'xx' },
      },
      { name: 'register with an array body', method: 'POST', url: '/api/auth/register', body: [valid] },
      {
        name: 'login with JSON instead of a form',
        method: 'POST',
        url: '/api/auth/login',
        body: { username: valid.email, password: 'x' },
      },
      {
        name: 'login with a missing password',
        method: 'POST',
        url: '/api/auth/login',
        form: `username=${encodeURIComponent(valid.email)}`,
      },
      {
        name: 'login with SQL as username',
        method: 'POST',
        url: '/api/auth/login',
        form: `username=${encodeURIComponent(sqlText)}&password=x`,
      },
      {
        name: 'login with a 10 kB password',
        method: 'POST',
        url: '/api/auth/login',
        form: `username=a%40example.com&password=${long}`,
      },
      { name: 'forgot-password without an e-mail', method: 'POST', url: '/api/auth/forgot-password' },
      {
        name: 'forgot-password with SQL',
        method: 'POST',
        url: `/api/auth/forgot-password?email=${encodeURIComponent(sqlText)}`,
      },
      {
        name: 'forgot-password with a 10 kB e-mail',
        method: 'POST',
        url: `/api/auth/forgot-password?email=${long}@example.com`,
      },
      {
        name: 'reset-password with SQL as token',
        method: 'POST',
        url: `/api/auth/reset-password/${encodeURIComponent(sqlText)}`,
        body: { new_password: 'a good long passphrase' },
      },
      {
        name: 'reset-password with a 10 kB token',
        method: 'POST',
        url: `/api/auth/reset-password/${long}`,
        body: { new_password: 'a good long passphrase' },
      },
      {
        name: 'reset-password with a wrong type',
        method: 'POST',
        url: '/api/auth/reset-password/abc',
        body: { new_password: ['a'] },
      },
      { name: 'reset-password without a body', method: 'POST', url: '/api/auth/reset-password/abc' },
      {
        name: 'confirm-email with SQL',
        method: 'GET',
        url: `/api/auth/confirm-email/${encodeURIComponent(sqlText)}`,
      },
      {
        name: 'confirm-email with a script',
        method: 'GET',
        url: `/api/auth/confirm-email/${encodeURIComponent(script)}`,
      },
      {
        name: 'confirm-phone-number with a 10 kB code',
        method: 'GET',
        url: `/api/auth/confirm-phone-number/${long}`,
      },
      {
        name: 'resend-email-verification with SQL',
        method: 'POST',
        url: '/api/auth/resend-email-verification',
        body: { email: sqlText },
      },
      {
        name: 'resend-email-verification with a number',
        method: 'POST',
        url: '/api/auth/resend-email-verification',
        body: { email: 42 },
      },
      {
        name: 'resend-phone-verification with a script',
        method: 'POST',
        url: '/api/auth/resend-phone-verification',
        body: { email: script },
      },
      {
        name: 'resend-phone-verification with a 10 kB e-mail',
        method: 'POST',
        url: '/api/auth/resend-phone-verification',
        body: { email: `${long}@example.com` },
      },
      { name: 'me without a token', method: 'GET', url: '/api/auth/me' },
      { name: 'update me without a token', method: 'PUT', url: '/api/auth/me', body: { ...valid } },
      { name: 'delete without a token', method: 'DELETE', url: '/api/auth/delete-account' },
      { name: 'validate without a token', method: 'GET', url: '/api/auth/token/validate' },
      {
        name: 'a 10 kB locale header',
        method: 'GET',
        url: '/api/auth/confirm-email/123456',
        type: 'long-locale',
      },
    ];

    it.each(cases)('$name gets a 4xx {detail, code} and changes nothing', async (testCase) => {
      const client = newClient(server.app);
      const before = await rowCounts(server.app.db);
      const headers: Record<string, string> = testCase.type === 'long-locale' ? { locale: long } : {};
      if (testCase.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
      const response = await client.call({
        method: testCase.method,
        url: testCase.url,
        headers,
        ...(testCase.form !== undefined
          ? { payload: testCase.form }
          : testCase.body !== undefined
            ? { payload: testCase.body as object }
            : {}),
      });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      // {detail, code}; a validation error adds the refused fields (the contract's FieldProblem).
      const errorBody = response.json<{ code: string; fields?: unknown[] }>();
      expect(Object.keys(errorBody).sort()).toEqual(
        errorBody.code === 'validation_failed' ? ['code', 'detail', 'fields'] : ['code', 'detail'],
      );
      expect(await rowCounts(server.app.db)).toEqual(before);
    });

    it('refuses bad profile updates from a signed-in user with a 4xx and leaves the profile as it was', async () => {
      const client = newClient(server.app);
      const account = await verifiedAccount(client, server.app);
      const profile = {
        email: account.email,
        phone_number: account.phone_number,
        first_name: 'Ana',
        last_name: 'Silva',
        agree_newsletter: true,
      };
      const before = await client.get('/api/auth/me', account.token);
      const counts = await rowCounts(server.app.db);
      for (const body of [
        {},
        { ...profile, email: sqlText },
        { ...profile, phone_number: script },
        { ...profile, first_name: long },
        { ...profile, password: long },
        { ...profile, password: 12345678 },
        { ...profile, agree_newsletter: 'true' },
        { ...profile, locale: 'klingon' },
        { ...profile, role: 'admin' },
      ]) {
        const response = await client.json('PUT', '/api/auth/me', body, account.token);
        expect(response.statusCode).toBeGreaterThanOrEqual(400);
        expect(response.statusCode).toBeLessThan(500);
        expect(response.json<ErrorBody>().code).toEqual(expect.any(String));
      }
      expect((await client.get('/api/auth/me', account.token)).json()).toEqual(before.json());
      expect(await rowCounts(server.app.db)).toEqual(counts);
    });

    it('keeps a script typed as a name as text, escaped in the e-mail', async () => {
      const client = newClient(server.app);
      const account = registration({ first_name: script });
      expect((await client.json('POST', '/api/auth/register', account)).statusCode).toBe(201);
      const { rows } = await sql<{ html_body: string; text_body: string }>`
        select html_body, text_body from outbox where recipient = ${account.email}`.execute(server.app.db);
      expect(rows[0]?.text_body).toContain(script);
      expect(rows[0]?.html_body).not.toContain('<script>');
      expect(rows[0]?.html_body).toContain('&lt;script&gt;');
    });
  });
});

describe('the global budget of wrong codes', () => {
  it('refuses every caller once wrong codes from all addresses together pass the limit', async () => {
    const server = await startAccountApp('pglite', {
      RATE_LIMITS: `${RELAXED_RATE_LIMITS},confirm.global=3/15m`,
    });
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        expect((await newClient(server.app).get('/api/auth/confirm-email/000000')).statusCode).toBe(400);
      }
      const limited = await newClient(server.app).get('/api/auth/confirm-phone-number/000000');
      expect(limited.statusCode).toBe(429);
      expect(limited.json<ErrorBody>().code).toBe('rate_limited');
    } finally {
      await server.close();
    }
  });
});
