import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseConfig, type FreshDatabase } from './support/databases.ts';
import { startServerProcess, stopServerProcess, type ServerProcess } from './support/server-process.ts';

// A rolling restart under load: two processes on one PostgreSQL behind a simple balancer (round robin, a
// connection that is refused goes to the other process, as any balancer does). SIGTERM to one process must
// drain it: stop accepting, finish what is in flight, then close the pool. No request may be lost: every
// request the processes accepted gets its real answer, never a 5xx or a cut connection.

const WORKERS = 8;

type Outcome = { status: number } | { lost: string };

function refusedBeforeSending(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code === 'ECONNREFUSED';
}

describe('a rolling restart of one of two processes under load (postgres)', () => {
  let fresh: FreshDatabase;
  let env: Record<string, string>;
  const servers: (ServerProcess | undefined)[] = [];

  beforeAll(async () => {
    // From scratch: the first process to start migrates, as in a first deployment.
    fresh = await freshDatabaseConfig('postgres', { fromScratch: true });
    if (fresh.config.kind !== 'postgres') throw new Error('needs PostgreSQL');
    env = {
      DATABASE_URL: fresh.config.url,
      JWT_SECRET: 'a-test-secret-shared-by-both-server-processes',
      RATE_LIMITS: 'login.ip=100000/1h,login.pair=100000/1h,login.account=100000/1h',
    };
    servers[0] = await startServerProcess(env);
    servers[1] = await startServerProcess(env);
  }, 120_000);
  afterAll(async () => {
    for (const server of servers) await stopServerProcess(server);
    await fresh?.cleanup();
  });

  it('loses no request while one process is stopped with SIGTERM and started again', async () => {
    // Each process starts again on its port: the clients keep their addresses.
    const ports = servers.map((server) => server!.port);
    const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const branches = (await (await fetch(`${servers[0]!.url}/api/bookings/branches`)).json()) as {
      id: number;
    }[];
    const requests: ((base: string) => Promise<Response>)[] = [
      (base) => fetch(`${base}/api/bookings/branches`),
      (base) => fetch(`${base}/api/bookings/slots/${branches[0]!.id}/${day}`),
      // A login holds the request for its password hashing: long enough to be in flight at the signal.
      (base) =>
        fetch(`${base}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ username: 'demo@example.com', password: 'Demo-gym-2026!' }),
        }),
    ];
    const outcomes: Outcome[] = [];
    let next = 0;
    let running = true;

    async function send(kind: number): Promise<Outcome> {
      const first = next++ % 2;
      for (const index of [first, 1 - first]) {
        try {
          const response = await requests[kind]!(`http://127.0.0.1:${ports[index]}`);
          await response.arrayBuffer();
          return { status: response.status };
        } catch (error) {
          // Never accepted: the balancer tries the other process. Anything else is a lost request.
          if (refusedBeforeSending(error)) continue;
          return { lost: String((error as { cause?: unknown }).cause ?? error) };
        }
      }
      return { lost: 'both processes refused the connection' };
    }

    const workers = Array.from({ length: WORKERS }, async (_, worker) => {
      for (let round = 0; running; round += 1) outcomes.push(await send((worker + round) % requests.length));
    });

    await new Promise((resolve) => setTimeout(resolve, 1500));
    const exitCode = await stopServerProcess(servers[0], 'SIGTERM');
    expect(exitCode).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    servers[0] = await startServerProcess(env, ports[0]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await stopServerProcess(servers[1], 'SIGTERM')).toBe(0);
    servers[1] = await startServerProcess(env, ports[1]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    running = false;
    await Promise.all(workers);

    const lost = outcomes.filter((outcome) => 'lost' in outcome || outcome.status >= 500);
    expect(outcomes.length).toBeGreaterThan(50);
    expect(lost, `${lost.length} of ${outcomes.length} requests lost`).toEqual([]);
    expect(new Set(outcomes.map((outcome) => ('status' in outcome ? outcome.status : 0)))).toEqual(
      new Set([200]),
    );
  }, 180_000);
});
