import type { Schemas } from './support/accounts.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMIT_RULES } from '../../server/config.ts';
import { PGLITE_ONLY } from './support/databases.ts';
import { newClient, startAccountApp, verifiedAccount, type AccountApp } from './support/accounts.ts';

// Wrong passwords typed by someone else must not lock the owner out: guessing is throttled per address and per
// (account, address); the account as a whole has only a much higher ceiling. The login limits are the defaults.

const NOT_LOGIN = RATE_LIMIT_RULES.filter((rule) => !rule.startsWith('login.'))
  .map((rule) => `${rule}=1000/1h`)
  .join(',');

describe.each(PGLITE_ONLY)('wrong passwords for someone else’s account (%s)', (target) => {
  let server: AccountApp;
  beforeAll(async () => {
    server = await startAccountApp(target, { RATE_LIMITS: NOT_LOGIN });
  });
  afterAll(async () => server?.close());

  it('throttle the guessing address, while the owner typing the right password elsewhere gets in', async () => {
    const owner = newClient(server.app);
    const account = await verifiedAccount(owner, server.app);
    const attacker = newClient(server.app);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt += 1) {
      statuses.push((await attacker.login(account.email, `wrong guess number ${attempt}`)).statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    // The guessing address gets nothing, not even with the right password.
    expect((await attacker.login(account.email, account.password)).statusCode).toBe(429);
    // The owner, from an address that has not been failing, gets in.
    const login = await owner.login(account.email, account.password);
    expect(login.statusCode).toBe(200);
    expect(
      (await owner.get('/api/auth/me', login.json<Schemas['LoginResponse']>().access_token)).statusCode,
    ).toBe(200);
    // And from another fresh address too (a phone on mobile data).
    expect((await newClient(server.app).login(account.email, account.password)).statusCode).toBe(200);
  });

  it('still stops a guesser spreading over many addresses at a per-account ceiling far above ten', async () => {
    const owner = newClient(server.app);
    const account = await verifiedAccount(owner, server.app);
    // 30 addresses, 3 guesses each: under every per-address rule, 90 failures for the account.
    for (let address = 0; address < 30; address += 1) {
      const guesser = newClient(server.app);
      for (let attempt = 0; attempt < 3; attempt += 1) {
        expect((await guesser.login(account.email, `guess ${address}-${attempt}`)).statusCode).toBe(401);
      }
    }
    expect((await owner.login(account.email, account.password)).statusCode).toBe(200);
    // Past the ceiling (100 failures in 15 minutes), the account answers 429 to everyone until the window ends.
    for (let address = 0; address < 4; address += 1) {
      const guesser = newClient(server.app);
      for (let attempt = 0; attempt < 3; attempt += 1)
        await guesser.login(account.email, `more ${address}-${attempt}`);
    }
    expect((await newClient(server.app).login(account.email, account.password)).statusCode).toBe(429);
    server.clock.advance({ minutes: 16 });
    expect((await owner.login(account.email, account.password)).statusCode).toBe(200);
  }, 60_000);
});
