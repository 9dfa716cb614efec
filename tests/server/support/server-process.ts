import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Db, type OpenedDatabase } from '../../../server/db/database.ts';
import { freshDatabaseConfig, type FreshDatabase } from './databases.ts';

// A real server process (`node server/main.ts`), as production runs it: for tests about several processes,
// signals, and what a remote client observes (its event loop is not the test's).

const root = path.resolve(import.meta.dirname, '../../..');

export type ServerProcess = { process: ChildProcess; url: string; port: number; output: string[] };

/**
 * Refuses a port another process listens on: its health check would answer for the server this test starts
 * (which then fails to bind), and the test would talk to someone else's server and database.
 */
async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`port ${port} is taken by another process: stop it (another test run?) and run again`)
          : error,
      ),
    );
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

/** A port no process listens on now, from the system (port 0): fixed ports collided with a stale run's server. */
async function freePort(): Promise<number> {
  return await new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Starts `node server/main.ts` on `port` (checked free), or on a free port of the system's choice. */
export async function startServerProcess(env: Record<string, string>, port?: number): Promise<ServerProcess> {
  if (port === undefined) port = await freePort();
  else await assertPortFree(port);
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SLOT_HORIZON_DAYS: '7',
      CLIENT_DIST_DIR: '/nonexistent-client-dist',
      RATE_LIMITS: 'login.ip=1000/1h,login.account=1000/1h',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output.join('')}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { process: child, url, port, output };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start:\n${output.join('')}`);
}

/** Sends the signal and waits for the exit (SIGKILL after `graceMs`); answers the exit code. */
export async function stopServerProcess(
  server: ServerProcess | undefined,
  signal: NodeJS.Signals = 'SIGTERM',
  graceMs = 15_000,
): Promise<number | null> {
  if (!server) return null;
  const child = server.process;
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, graceMs))]);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
  return child.exitCode;
}

export type SharedServerProcesses = {
  /** The processes, in the order they started (the first one migrated the database). */
  readonly servers: ServerProcess[];
  /** The test's own connection to the database both processes use. */
  readonly db: Db;
  readonly database: OpenedDatabase;
  readonly url: string;
};

/**
 * Server processes (two unless `count` says) on one fresh PostgreSQL database, each on a free port, started one
 * after the other before the file's tests (the first migrates, and from scratch seeds the demo data; the next find
 * both done) and stopped together after them; with the test's own connection to that database.
 */
export function useServerProcesses(
  options: { fromScratch?: boolean; env?: Record<string, string>; count?: number } = {},
): SharedServerProcesses {
  let fresh: FreshDatabase | undefined;
  let database: OpenedDatabase | undefined;
  let url = '';
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    fresh = await freshDatabaseConfig('postgres', { fromScratch: options.fromScratch ?? false });
    if (fresh.config.kind !== 'postgres') throw new Error('needs PostgreSQL');
    url = fresh.config.url;
    const env = {
      DATABASE_URL: url,
      JWT_SECRET: 'a-test-secret-shared-by-the-server-processes',
      ...options.env,
    };
    for (let index = 0; index < (options.count ?? 2); index += 1) servers.push(await startServerProcess(env));
    database = await openDatabase(fresh.config);
  }, 120_000);
  afterAll(async () => {
    // Together: each drains its keep-alive connections for a few seconds.
    await Promise.all(servers.map((server) => stopServerProcess(server)));
    await database?.close();
    await fresh?.cleanup();
  });
  const started = () => {
    if (!database) throw new Error('the server processes are not started yet (use them inside a test)');
    return database;
  };
  return {
    servers,
    get db() {
      return started().db;
    },
    get database() {
      return started();
    },
    get url() {
      return url;
    },
  };
}

/** A JSON call to a server process: GET without a body, POST with one; the answer's status and JSON body. */
export async function callJson(
  server: ServerProcess,
  url: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}${url}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
