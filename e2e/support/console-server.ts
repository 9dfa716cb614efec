import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

// The console journeys need operators made with the CLI (`npm run admin -- operator add`), which on the embedded
// database runs only while no server holds the data directory. So they run on a server of their own: a fresh data
// directory, the CLI first, then the server (the same command and settings as playwright.config.ts's).

export type CliOperator = { email: string; setupPath: string; totpUri: string };

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The port of the console's own server: the run's E2E_PORT plus 100 (each helper owns both). */
export const CONSOLE_PORT = Number(process.env.E2E_PORT ?? 3100) + 100;

export function consoleEnv(dataDir: string, port = CONSOLE_PORT): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    VALIDATE_RESPONSES: 'true',
    CLIENT_DIST_DIR: process.env.E2E_DIST_DIR ?? 'dist',
    RATE_LIMITS:
      'login.ip=5000/15m,register.ip=5000/1h,resend.ip=5000/1h,forgot.ip=5000/1h,confirm.ip=5000/15m,reset.ip=5000/15m',
  };
}

export function newDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'gym-console-e2e-'));
}

/** `npm run admin -- operator add <email> --role <role>`: its one-time setup link (as a path) and TOTP URI. */
export function addOperatorWithCli(dataDir: string, email: string, role: 'owner' | 'staff'): CliOperator {
  const run = spawnSync(
    process.execPath,
    ['server/admin/main.ts', 'operator', 'add', email, '--role', role],
    {
      cwd: ROOT,
      env: consoleEnv(dataDir),
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  const output = `${run.stdout}\n${run.stderr}`;
  if (run.status !== 0) throw new Error(`operator add failed (${run.status}): ${output}`);
  const link = /https?:\/\/\S+\/admin\?setup=[^\s"']+/.exec(output)?.[0];
  const totpUri = /otpauth:\/\/totp\/[^\s"']+/.exec(output)?.[0];
  if (!link || !totpUri) throw new Error(`operator add printed no link or TOTP URI: ${output}`);
  const url = new URL(link);
  return { email, setupPath: `${url.pathname}${url.search}`, totpUri };
}

/** Starts the server on CONSOLE_PORT (or `port`) and waits for its health check. */
export async function startConsoleServer(dataDir: string, port = CONSOLE_PORT): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: ROOT,
    env: consoleEnv(dataDir, port),
    stdio: 'inherit',
  });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the console server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return child;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  child.kill('SIGTERM');
  throw new Error(`the server on port ${port} did not start in 90 s`);
}

export async function stopConsoleServer(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A port nobody listens on now (the console journeys own E2E_PORT + 100, and may run meanwhile). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}
