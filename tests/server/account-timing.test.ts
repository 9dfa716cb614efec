import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMIT_RULES } from '../../server/config.ts';
import { registration } from './support/accounts.ts';
import { DATABASE_TARGETS, freshDatabaseConfig, type FreshDatabase } from './support/databases.ts';
import { startServerProcess, stopServerProcess, type ServerProcess } from './support/server-process.ts';

// Forgot-password and resend-verification answer the same words whether or not the account exists; their
// answer time must not tell it either. Measured as an attacker would, over HTTP from outside the server's
// process: 30 interleaved pairs, medians within 20% of each other. On a machine shared with other work a burst
// of load can skew one round of milliseconds either way, so a round may be taken again (twice at most); a real
// difference (before answering first, 40-100% slower for an existing account) fails every round.

const PAIRS = 30;
const RELAXED = RATE_LIMIT_RULES.map((rule) => `${rule}=100000/1h`).join(',');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

type Call = (email: string) => Promise<Response>;

async function measure(server: ServerProcess, call: Call) {
  const existing = registration({ locale: 'en' });
  const registered = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(existing),
  });
  expect(registered.status).toBe(201);
  const missing = registration().email;
  const times = { existing: [] as number[], missing: [] as number[] };
  const bodies = new Set<string>();
  const once = async (email: string) => {
    const started = performance.now();
    const response = await call(email);
    const body = await response.text();
    const ms = performance.now() - started;
    expect(response.status).toBe(200);
    bodies.add(body);
    // Room for whatever the request left to do, so it does not slow the next measured request.
    await new Promise((resolve) => setTimeout(resolve, 100));
    return ms;
  };
  // Warm both paths first (compiled code, query plans), then alternate which goes first.
  for (let warm = 0; warm < 10; warm += 1) {
    await once(existing.email);
    await once(missing);
  }
  for (let pair = 0; pair < PAIRS; pair += 1) {
    const order = pair % 2 ? (['existing', 'missing'] as const) : (['missing', 'existing'] as const);
    for (const which of order) times[which].push(await once(which === 'existing' ? existing.email : missing));
  }
  const medians = { existing: median(times.existing), missing: median(times.missing) };
  return {
    ...medians,
    bodies,
    spread: Math.abs(medians.existing - medians.missing) / Math.min(medians.existing, medians.missing),
    label: `medians ${medians.existing.toFixed(2)} ms (existing) and ${medians.missing.toFixed(2)} ms (missing)`,
  };
}

describe.each(DATABASE_TARGETS)('answer times of the account-recovery calls (%s)', (target) => {
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
      dataDir = mkdtempSync(path.join(tmpdir(), 'gym-timing-'));
      env = { DATA_DIR: dataDir };
    }
    server = await startServerProcess(
      { ...env, RATE_LIMITS: RELAXED, SEED_DEMO_DATA: 'false' },
      target === 'postgres' ? 3341 : 3342,
    );
  }, 120_000);
  afterAll(async () => {
    await stopServerProcess(server);
    await fresh?.cleanup();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'forgot-password takes as long for an existing account as for a missing one',
    { retry: 2, timeout: 90_000 },
    async () => {
      const result = await measure(server, (email) =>
        fetch(`${server.url}/api/auth/forgot-password?email=${encodeURIComponent(email)}`, {
          method: 'POST',
          headers: { locale: 'en' },
        }),
      );
      expect(result.bodies.size).toBe(1);
      expect(result.spread, result.label).toBeLessThan(0.2);
    },
  );

  for (const channel of ['email', 'phone'] as const) {
    it(
      `resend-${channel}-verification takes as long for an existing account as for a missing one`,
      { retry: 2, timeout: 90_000 },
      async () => {
        const result = await measure(server, (email) =>
          fetch(`${server.url}/api/auth/resend-${channel}-verification`, {
            method: 'POST',
            headers: { locale: 'en', 'content-type': 'application/json' },
            body: JSON.stringify({ email }),
          }),
        );
        expect(result.bodies.size).toBe(1);
        expect(result.spread, result.label).toBeLessThan(0.2);
      },
    );
  }
});
