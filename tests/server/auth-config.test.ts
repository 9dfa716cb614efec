import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createPasswordHasher } from '../../server/accounts/passwords.ts';
import { buildApp } from '../../server/app.ts';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { DEMO_CLIENT } from '../../server/demo/demo-data.ts';
import { templateDataDir } from './support/databases.ts';
import { accountTestConfig, newClient, verifiedAccount, type Schemas } from './support/accounts.ts';

describe('account configuration', () => {
  it('refuses to start in production without JWT_SECRET, or with a short one', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET is required in production/);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'short' })).toThrow(ConfigError);
    const config = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(48) });
    expect(config.auth.jwtSecret).toBe('x'.repeat(48));
    expect(config.auth.passwordHashing).toEqual({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
  });

  it('uses lighter password hashing only under test', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).auth.passwordHashing.memoryCost).toBe(19_456);
    expect(loadConfig({ NODE_ENV: 'test' }).auth.passwordHashing.memoryCost).toBeLessThan(19_456);
  });

  it('reads rate-limit overrides and refuses malformed ones', () => {
    const limits = loadConfig({ RATE_LIMITS: 'login.ip=5/30s, forgot.account=2/2h' }).auth.rateLimits;
    expect(limits['login.ip']).toEqual({ limit: 5, windowSeconds: 30 });
    expect(limits['forgot.account']).toEqual({ limit: 2, windowSeconds: 7200 });
    expect(limits['register.ip']).toEqual({ limit: 10, windowSeconds: 3600 });
    for (const bad of ['login.ip=5', 'nope.ip=5/1m', 'login.ip=5/0m', 'login.ip=x/1m']) {
      expect(() => loadConfig({ RATE_LIMITS: bad })).toThrow(/RATE_LIMITS/);
    }
  });

  it('chooses Twilio only with all its settings, and SMTP when SMTP_URL is set', () => {
    expect(loadConfig({}).sms).toEqual({ provider: 'log' });
    expect(() => loadConfig({ SMS_PROVIDER: 'twilio' })).toThrow(/TWILIO_ACCOUNT_SID/);
    const twilio = loadConfig({
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: `AC${'a'.repeat(32)}`,
      TWILIO_AUTH_TOKEN: 'token',
      TWILIO_FROM: '+15005550006',
    });
    expect(twilio.sms.provider).toBe('twilio');
    expect(loadConfig({ SMTP_URL: 'smtp://mail.example:587' }).mail).toEqual({
      smtpUrl: 'smtp://mail.example:587',
      from: '"Private Gym" <no-reply@localhost>',
      timeouts: { connectionMs: 10_000, greetingMs: 10_000, socketMs: 20_000 },
    });
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example' })).toThrow(/SMTP_URL/);
  });

  it('bounds every SMTP step and the outbox’s deliveries in flight, within limits', () => {
    const config = loadConfig({
      SMTP_CONNECTION_TIMEOUT_MS: '3000',
      SMTP_GREETING_TIMEOUT_MS: '2000',
      SMTP_SOCKET_TIMEOUT_MS: '5000',
      OUTBOX_CONCURRENCY: '8',
    });
    expect(config.mail.timeouts).toEqual({ connectionMs: 3000, greetingMs: 2000, socketMs: 5000 });
    expect(config.outbox).toEqual({ concurrency: 8 });
    expect(loadConfig({}).outbox).toEqual({ concurrency: 4 });
    // Each deadline stays well within the outbox's two-minute lease.
    expect(() => loadConfig({ SMTP_SOCKET_TIMEOUT_MS: '120000' })).toThrow(/SMTP_SOCKET_TIMEOUT_MS/);
    expect(() => loadConfig({ SMTP_CONNECTION_TIMEOUT_MS: '0' })).toThrow(/SMTP_CONNECTION_TIMEOUT_MS/);
    expect(() => loadConfig({ OUTBOX_CONCURRENCY: '0' })).toThrow(/OUTBOX_CONCURRENCY/);
  });
});

// Each test opens an on-disk PGlite (copied from the template) twice: start, then a restart.
describe('sessions across restarts', { timeout: 120_000 }, () => {
  it('keeps a session valid after a restart in development, with the secret generated once and stored', async () => {
    const dataDir = templateDataDir('gym-auth-');
    try {
      const config = accountTestConfig({ kind: 'pglite', dataDir });
      const first = await buildApp(config);
      const account = await verifiedAccount(newClient(first), first);
      await first.close();
      const second = await buildApp(config);
      try {
        expect((await newClient(second).get('/api/auth/token/validate', account.token)).statusCode).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('signs with JWT_SECRET when it is set, so tokens of the generated secret stop working', async () => {
    const dataDir = templateDataDir('gym-auth-');
    try {
      const first = await buildApp(accountTestConfig({ kind: 'pglite', dataDir }));
      const account = await verifiedAccount(newClient(first), first);
      await first.close();
      const second = await buildApp(
        accountTestConfig({ kind: 'pglite', dataDir }, { JWT_SECRET: 'z'.repeat(40) }),
      );
      try {
        expect((await newClient(second).get('/api/auth/token/validate', account.token)).statusCode).toBe(401);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('password hashing', () => {
  it('takes about as long for an unknown account as for a wrong password, with production cost', async () => {
    const hasher = await createPasswordHasher({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    const stored = await hasher.hash('the real passphrase');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const time = async (storedHash: string | undefined) => {
      const start = performance.now();
      expect(await hasher.verify(storedHash, 'a wrong guess')).toBe(false);
      return performance.now() - start;
    };
    await time(stored);
    await time(undefined);
    // Adjacent pairs (order alternating) meet the same background load; the median of their ratios compares the
    // two paths rather than whatever else the machine is running at the time.
    const ratios: number[] = [];
    for (let round = 0; round < 9; round += 1) {
      let wrongPassword: number;
      let unknownAccount: number;
      if (round % 2 === 0) {
        wrongPassword = await time(stored);
        unknownAccount = await time(undefined);
      } else {
        unknownAccount = await time(undefined);
        wrongPassword = await time(stored);
      }
      ratios.push(unknownAccount / wrongPassword);
    }
    const ratio = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
    expect(await hasher.verify(stored, 'the real passphrase')).toBe(true);
    expect(await hasher.verify('not a hash', 'the real passphrase')).toBe(false);
  });
});

describe('the demo data', () => {
  it('has a verified client account that can log in at once with the README’s password', async () => {
    const app = await buildApp(
      accountTestConfig({ kind: 'pglite', dataDir: null }, { SEED_DEMO_DATA: 'true' }),
    );
    try {
      const client = newClient(app);
      const login = await client.login(DEMO_CLIENT.email, DEMO_CLIENT.password);
      expect(login.statusCode).toBe(200);
      const me = await client.get('/api/auth/me', login.json<Schemas['LoginResponse']>().access_token);
      expect(me.json()).toMatchObject({
        email: 'demo@example.com',
        email_verified: true,
        phone_verified: true,
      });
    } finally {
      await app.close();
    }
  });
});
