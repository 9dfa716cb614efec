import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMIT_RULES } from '../../server/config.ts';
import { registration } from './support/accounts.ts';
import {
  freshDatabaseConfig,
  PGLITE_ONLY,
  type FreshDatabase,
  templateDataDir,
} from './support/databases.ts';
import { startServerProcess, stopServerProcess, type ServerProcess } from './support/server-process.ts';

// Forgot-password and resend-verification answer the same words whether or not the account exists, so an
// attacker cannot tell which accounts exist from them. Checked over HTTP from outside the server's process, with
// the answers taken in both orders. Their answer *times* must not tell it either: that is a measurement in
// milliseconds, which a loaded machine skews, so it is a benchmark (bench/account-timing.ts, `npm run bench`:
// medians of 30 interleaved pairs within 20 %), not a test.

const RELAXED = RATE_LIMIT_RULES.map((rule) => `${rule}=100000/1h`).join(',');

type Call = (email: string) => Promise<Response>;

/** The answers (status and body) for an existing and a missing account, each asked twice in alternating order. */
async function answers(server: ServerProcess, call: Call) {
  const existing = registration({ locale: 'en' });
  const registered = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(existing),
  });
  expect(registered.status).toBe(201);
  const missing = registration().email;
  const seen = new Set<string>();
  for (const email of [existing.email, missing, missing, existing.email]) {
    const response = await call(email);
    seen.add(`${response.status} ${await response.text()}`);
  }
  return [...seen];
}

describe.each(PGLITE_ONLY)('answers of the account-recovery calls (%s)', (target) => {
  let server: ServerProcess;
  let fresh: FreshDatabase | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    let env: Record<string, string>;
    if (target === 'postgres') {
      fresh = await freshDatabaseConfig('postgres');
      if (fresh.config.kind !== 'postgres') throw new Error('needs PostgreSQL');
      env = { DATABASE_URL: fresh.config.url };
    } else {
      dataDir = templateDataDir('gym-timing-');
      env = { DATA_DIR: dataDir };
    }
    server = await startServerProcess({ ...env, RATE_LIMITS: RELAXED, SEED_DEMO_DATA: 'false' });
  }, 120_000);
  afterAll(async () => {
    await stopServerProcess(server);
    await fresh?.cleanup();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('forgot-password answers an existing and a missing account alike', { timeout: 90_000 }, async () => {
    const seen = await answers(server, (email) =>
      fetch(`${server.url}/api/auth/forgot-password?email=${encodeURIComponent(email)}`, {
        method: 'POST',
        headers: { locale: 'en' },
      }),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^200 /);
  });

  for (const channel of ['email', 'phone'] as const) {
    it(
      `resend-${channel}-verification answers an existing and a missing account alike`,
      { timeout: 90_000 },
      async () => {
        const seen = await answers(server, (email) =>
          fetch(`${server.url}/api/auth/resend-${channel}-verification`, {
            method: 'POST',
            headers: { locale: 'en', 'content-type': 'application/json' },
            body: JSON.stringify({ email }),
          }),
        );
        expect(seen).toHaveLength(1);
        expect(seen[0]).toMatch(/^200 /);
      },
    );
  }
});
