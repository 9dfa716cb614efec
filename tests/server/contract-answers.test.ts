import type { ErrorBody, Schemas } from './support/accounts.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCatalogue } from '../../server/kernel/errors.ts';
import { translate } from '../../server/kernel/i18n.ts';
import { newClient, startAccountApp, verifiedAccount, type AccountApp } from './support/accounts.ts';
import { anyOf } from './support/matchers.ts';

// Answers the contract declares beyond the happy paths: 405 for a wrong method on a path that exists (not 404),
// and a blocked contact refused on a profile update in words of its own (not the registration's).

describe('answers the contract declares', () => {
  let server: AccountApp;
  beforeAll(async () => {
    server = await startAccountApp('pglite');
  });
  afterAll(async () => server?.close());

  it('answers 405 with Allow for a wrong method on an API path, and still 404 for a path that does not exist', async () => {
    const cases = [
      ['PUT', '/api/bookings/branches', 'GET'],
      ['DELETE', '/api/auth/me', 'GET, PUT'],
      ['GET', '/api/auth/login', 'POST'],
      ['PATCH', '/api/bookings/slots/1/2026-03-26', 'GET'],
      ['GET', '/api/checkout/local/cs_local_x/complete', 'POST'],
    ] as const;
    for (const [method, url, allow] of cases) {
      const response = await server.app.inject({ method, url, headers: { locale: 'en' } });
      expect(response.statusCode, `${method} ${url}`).toBe(405);
      expect(response.headers.allow).toBe(allow);
      expect(response.json()).toEqual({ code: 'method_not_allowed', detail: anyOf(String) });
    }
    const missing = await server.app.inject({ method: 'GET', url: '/api/no/such/path' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json<ErrorBody>().code).toBe('not_found');
  });

  it('refuses a blocked e-mail on a profile update with 403 contact_blocked in words of its own', async () => {
    const client = newClient(server.app);
    const account = await verifiedAccount(client, server.app);
    await server.app.db
      .insertInto('blocked_contacts')
      .values({ kind: 'email', value: 'taken-down@example.com' })
      .execute();
    for (const locale of ['pt', 'en', 'fr', 'de', 'sk'] as const) {
      const response = await client.call({
        method: 'PUT',
        url: '/api/auth/me',
        headers: { authorization: `Bearer ${account.token}`, locale },
        payload: {
          email: 'taken-down@example.com',
          phone_number: account.phone_number,
          first_name: account.first_name,
          last_name: account.last_name,
          agree_newsletter: false,
        },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json<ErrorBody>().code).toBe('contact_blocked');
      expect(response.json<ErrorBody>().detail).not.toBe(
        translate(locale, errorCatalogue.contact_blocked.detail),
      );
      expect(response.json<ErrorBody>().detail.length).toBeGreaterThan(20);
    }
    expect((await client.get('/api/auth/me', account.token)).json<Schemas['User']>().email).toBe(
      account.email.toLowerCase(),
    );
  });
});
