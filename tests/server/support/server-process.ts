import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

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

export async function startServerProcess(env: Record<string, string>, port: number): Promise<ServerProcess> {
  await assertPortFree(port);
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
