import type { ErrorBody, Schemas } from './support/accounts.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGLITE_ONLY } from './support/databases.ts';
import { newClient, startAccountApp, verifiedAccount, type AccountApp } from './support/accounts.ts';

// Logging out ends the session on the server: a token copied before logout is worth nothing afterwards.

describe.each(PGLITE_ONLY)('POST /auth/logout (%s)', (target) => {
  let server: AccountApp;
  beforeAll(async () => {
    server = await startAccountApp(target);
  });
  afterAll(async () => server?.close());

  it('makes a token copied before logout invalid, and a new login works', async () => {
    const client = newClient(server.app);
    const account = await verifiedAccount(client, server.app);
    const copied = account.token;
    expect((await client.get('/api/auth/me', copied)).statusCode).toBe(200);

    const logout = await client.json('POST', '/api/auth/logout', undefined, account.token);
    expect(logout.statusCode).toBe(204);
    expect(logout.body).toBe('');

    for (const url of ['/api/auth/me', '/api/auth/token/validate', '/api/bookings/my-bookings']) {
      const response = await client.get(url, copied);
      expect(response.statusCode, url).toBe(401);
      expect(response.json<ErrorBody>().code).toBe('unauthorized');
    }
    const again = await client.login(account.email, account.password);
    expect(again.statusCode).toBe(200);
    expect(
      (await client.get('/api/auth/me', again.json<Schemas['LoginResponse']>().access_token)).statusCode,
    ).toBe(200);
  });

  it('answers 401 without a valid token and changes nothing', async () => {
    const client = newClient(server.app);
    const account = await verifiedAccount(client, server.app);
    expect((await client.json('POST', '/api/auth/logout')).statusCode).toBe(401);
    expect((await client.json('POST', '/api/auth/logout', undefined, 'not-a-token')).statusCode).toBe(401);
    expect((await client.get('/api/auth/me', account.token)).statusCode).toBe(200);
  });
});
