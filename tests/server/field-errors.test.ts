import type { ErrorBody, Schemas } from './support/accounts.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newClient, startAccountApp, verifiedAccount, type AccountApp } from './support/accounts.ts';
import { anyOf } from './support/matchers.ts';

// Issue 17, item 5: a refused field is named in a structured way, so the client can show its own translated
// sentence beside that field instead of the server's technical one at the top of the form.

describe('validation errors name their fields (pglite)', () => {
  let started: AccountApp;
  beforeAll(async () => {
    started = await startAccountApp('pglite');
  }, 120_000);
  afterAll(async () => started?.close());

  it('a too-long first name is refused with the field, the problem and the limit', async () => {
    const client = newClient(started.app);
    const account = await verifiedAccount(client, started.app);
    const response = await client.json(
      'PUT',
      '/api/auth/me',
      {
        email: account.email,
        phone_number: account.phone_number,
        first_name: 'A'.repeat(101),
        last_name: account.last_name,
        agree_newsletter: false,
      },
      account.token,
    );
    expect(response.statusCode).toBe(422);
    const body = response.json<ErrorBody>();
    expect(body.code).toBe('validation_failed');
    expect(body.fields).toEqual([{ field: 'first_name', problem: 'too_long', limit: 100 }]);
  });

  it('a missing field is named too', async () => {
    const client = newClient(started.app);
    const missing = await client.json('POST', '/api/auth/register', { email: 'rita@example.com' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json<ErrorBody>().fields).toEqual([{ field: anyOf(String), problem: 'required' }]);
  });

  it('a tax number (NIF) with a wrong check digit is refused beside its field; a valid one is kept, null removes it', async () => {
    const client = newClient(started.app);
    const account = await verifiedAccount(client, started.app);
    const profile = (tax_id: string | null | undefined) => ({
      email: account.email,
      phone_number: account.phone_number,
      first_name: account.first_name,
      last_name: account.last_name,
      agree_newsletter: false,
      ...(tax_id === undefined ? {} : { tax_id }),
    });
    const wrong = await client.json('PUT', '/api/auth/me', profile('123456788'), account.token);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json<ErrorBody>().fields).toEqual([{ field: 'tax_id', problem: 'invalid' }]);
    const right = await client.json('PUT', '/api/auth/me', profile('PT 123 456 789'), account.token);
    expect(right.statusCode).toBe(200);
    expect(right.json<Schemas['User']>().tax_id).toBe('123456789');
    // A save without the field (the language switch's) keeps it; null removes it.
    const kept = await client.json('PUT', '/api/auth/me', profile(undefined), account.token);
    expect(kept.json<Schemas['User']>().tax_id).toBe('123456789');
    const removed = await client.json('PUT', '/api/auth/me', profile(null), account.token);
    expect(removed.json<Schemas['User']>().tax_id).toBeNull();
  });
});
