// `npm run bench:web`: Lighthouse (mobile) performance and accessibility of the landing page on the
// production build, and the JavaScript loaded before first paint (entry + preloaded chunks, gzip).
// Budgets (issue 5): performance >= 95, accessibility >= 95, first-paint JavaScript <= 150 KiB.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.BENCH_PORT ?? 3400);
const dataDir = mkdtempSync(path.join(tmpdir(), 'gym-bench-'));
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

function gzipKiB(files: string[]): number {
  return (
    files.reduce((sum, file) => sum + gzipSync(readFileSync(path.join(root, 'dist', file))).length, 0) / 1024
  );
}

/** The app chunk (and its static imports) that the entry loads right after the first paint. */
function appJavaScriptKiB(): number {
  const files = readdirSync(path.join(root, 'dist', 'assets'))
    .filter((file) => /^start-.*\.js$/.test(file))
    .map((file) => `/assets/${file}`);
  return gzipKiB(files);
}

function firstPaintJavaScript(): { files: string[]; kib: number } {
  const html = readFileSync(path.join(root, 'dist', 'index.html'), 'utf8');
  const metadata = JSON.parse(readFileSync(path.join(root, 'dist', 'page-metadata.json'), 'utf8')) as {
    catalogs: Record<string, string>;
  };
  const files = [
    ...[...html.matchAll(/<script type="module"[^>]*src="([^"]+)"/g)].map((match) => match[1] ?? ''),
    ...[...html.matchAll(/<link rel="modulepreload"[^>]*href="([^"]+)"/g)].map((match) => match[1] ?? ''),
    // The server preloads the page's catalog, and the app waits for it before its first render.
    metadata.catalogs.pt ?? '',
  ].filter(Boolean);
  return { files, kib: gzipKiB(files) };
}

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

const server = spawn(process.execPath, ['scripts/build-client-if-stale.ts'], { cwd: root, stdio: 'inherit' });
await new Promise((resolve, reject) =>
  server.on('exit', (code) => (code === 0 ? resolve(null) : reject(new Error('build failed')))),
);
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
    SEED_DEMO_DATA: 'true',
    // Production refuses to start without a signing secret; a throwaway one serves the measurement.
    JWT_SECRET: randomBytes(48).toString('base64'),
  },
});

let failed = false;
try {
  await waitForServer(`http://127.0.0.1:${port}/api/health`);
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  try {
    // A run that could not measure (a runtime error such as NO_FCP on a busy machine) is repeated.
    let result: Awaited<ReturnType<typeof lighthouse>>;
    for (let attempt = 1; ; attempt += 1) {
      result = await lighthouse(
        `http://127.0.0.1:${port}/pt`,
        {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
        },
        undefined,
      );
      if (!result?.lhr.runtimeError || attempt === 3) break;
    }
    if (!result) throw new Error('Lighthouse returned no result');
    const { categories, audits } = result.lhr;
    if (result.lhr.runtimeError) console.error('Lighthouse:', result.lhr.runtimeError.message);
    for (const id of ['first-contentful-paint', 'largest-contentful-paint'])
      if (audits[id]?.errorMessage) console.error(id, audits[id]?.errorMessage);
    const performance = Math.round((categories.performance?.score ?? 0) * 100);
    const accessibility = Math.round((categories.accessibility?.score ?? 0) * 100);
    const javascript = firstPaintJavaScript();
    const metric = (id: string) => audits[id]?.displayValue ?? '?';
    const observed =
      (audits.metrics?.details as { items?: Record<string, number>[] } | undefined)?.items?.[0] ?? {};
    console.log(
      `  observed without throttling: FCP ${Math.round(observed.observedFirstContentfulPaint ?? 0)} ms, LCP ${Math.round(observed.observedLargestContentfulPaint ?? 0)} ms`,
    );
    console.log('Landing page (/pt), production build, Lighthouse mobile:');
    console.log(
      `  performance   ${performance}  (FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')})`,
    );
    console.log(`  accessibility ${accessibility}`);
    console.log(
      `  JavaScript before first paint: ${javascript.kib.toFixed(1)} KiB gzip (${javascript.files.join(', ')})`,
    );
    console.log(
      `  app JavaScript loaded right after the first paint: ${appJavaScriptKiB().toFixed(1)} KiB gzip`,
    );
    for (const audit of Object.values(audits)) {
      if (
        audit.score !== null &&
        audit.score < 0.9 &&
        audit.scoreDisplayMode !== 'informative' &&
        audit.scoreDisplayMode !== 'notApplicable'
      ) {
        console.log(`  to improve: ${audit.id} (${audit.displayValue ?? audit.score})`);
      }
    }
    failed = performance < 95 || accessibility < 95 || javascript.kib > 150;
    if (failed)
      console.error('Budget missed: performance and accessibility must be >= 95 and JavaScript <= 150 KiB.');
  } finally {
    chrome.kill();
  }
} finally {
  app.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
