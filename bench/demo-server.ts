// The production server over the demo data set, for the web measurements (bench/web.ts, bench/trace-start.ts):
// production never seeds the demo data (server/config.ts), so it is seeded into a store of the bench's own first,
// and the pages are measured with real branches and their images.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { systemClock } from '../server/kernel/clock.ts';
import { openDatabase } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { seedDemoData } from '../server/demo/seed.ts';

const root = path.resolve(import.meta.dirname, '..');

/** Debian's Chromium as the measurements run it (ARCHITECTURE.md): no sandbox, GPU or background traffic. */
export const CHROMIUM_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

async function waitForServer(url: string): Promise<void> {
  for (let attempt = 0; attempt < 240; attempt += 1) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the server did not answer at ${url}`);
}

/**
 * Seeds the demo data and serves the production build on `port`: the work tree's (built first if it is stale), or
 * the one already built in `distDir` (another version of the client, to compare with).
 */
export async function startDemoServer(
  port: number,
  distDir?: string,
): Promise<{ origin: string; stop: () => void }> {
  if (!distDir) {
    const build = spawn(process.execPath, ['scripts/build-client-if-stale.ts'], {
      cwd: root,
      stdio: 'inherit',
    });
    await new Promise((resolve, reject) =>
      build.on('exit', (code) => (code === 0 ? resolve(null) : reject(new Error('build failed')))),
    );
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gym-bench-'));
  const seeded = await openDatabase({ kind: 'pglite', dataDir });
  await migrateToLatest(seeded.db);
  await seedDemoData(seeded.db, systemClock);
  await seeded.close();
  const app = spawn(process.execPath, ['server/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      // Production refuses to start without a signing secret; a throwaway one serves the measurement.
      JWT_SECRET: randomBytes(48).toString('base64'),
      CLIENT_DIST_DIR: distDir ?? process.env.CLIENT_DIST_DIR ?? 'dist',
    },
  });
  const stop = () => {
    app.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitForServer(`${origin}/api/health`);
  } catch (error) {
    stop();
    throw error;
  }
  return { origin, stop };
}
