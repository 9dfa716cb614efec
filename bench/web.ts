// `npm run bench:web` (also the last part of `npm run bench`): Lighthouse mobile, median of 5 runs, for the
// landing page and for the booking modal opened by URL, on the production build: performance, accessibility,
// LCP, TBT, CLS and JavaScript transferred. Targets: landing >= 95, booking modal >= 90, accessibility >= 95.
// Writes bench/web-results.md.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import * as prettier from 'prettier';

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

const RUNS = 5;
const lighthouseVersion = (
  JSON.parse(readFileSync(path.join(root, 'node_modules', 'lighthouse', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

type Run = {
  performance: number;
  accessibility: number;
  lcp: number;
  tbt: number;
  cls: number;
  scriptBytes: number;
  /** Lighthouse's measure of this machine's CPU speed (higher is faster); the throttling simulation scales by it. */
  benchmarkIndex: number;
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** One Lighthouse run; a run that could not measure (e.g. NO_FCP on a busy machine) is repeated. */
async function measure(chromePort: number, url: string): Promise<Run> {
  for (let attempt = 1; ; attempt += 1) {
    const result = await lighthouse(
      url,
      {
        port: chromePort,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
      },
      undefined,
    );
    if (!result) throw new Error('Lighthouse returned no result');
    if (result.lhr.runtimeError && attempt < 3) continue;
    const { categories, audits } = result.lhr;
    const requests =
      (audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] })
        ?.items ?? [];
    return {
      performance: Math.round((categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
      lcp: audits['largest-contentful-paint']?.numericValue ?? 0,
      tbt: audits['total-blocking-time']?.numericValue ?? 0,
      cls: audits['cumulative-layout-shift']?.numericValue ?? 0,
      benchmarkIndex: result.lhr.environment.benchmarkIndex,
      scriptBytes: requests
        .filter((request) => request.resourceType === 'Script')
        .reduce((sum, request) => sum + (request.transferSize ?? 0), 0),
    };
  }
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
    const pages = [
      { name: 'landing page', path: '/pt', target: 95 },
      {
        name: 'booking modal opened by URL',
        path: '/pt?booking_tab=bookSessions&booking_branch_id=1',
        target: 90,
      },
    ];
    const rows: string[] = [];
    for (const page of pages) {
      const runs: Run[] = [];
      for (let index = 0; index < RUNS; index += 1)
        runs.push(await measure(chrome.port, `http://127.0.0.1:${port}${page.path}`));
      const pick = (key: keyof Run) => median(runs.map((run) => run[key]));
      const performance = pick('performance');
      const accessibility = pick('accessibility');
      console.log(`${page.name} (${page.path}), production build, Lighthouse mobile, median of ${RUNS}:`);
      console.log(
        `  performance ${performance} (runs: ${runs.map((run) => run.performance).join(', ')}), accessibility ${accessibility}`,
      );
      console.log(
        `  LCP ${Math.round(pick('lcp'))} ms, TBT ${Math.round(pick('tbt'))} ms, CLS ${pick('cls').toFixed(3)}, JavaScript loaded ${(pick('scriptBytes') / 1024).toFixed(1)} KiB, machine benchmark index ${Math.round(pick('benchmarkIndex'))}`,
      );
      rows.push(
        `| ${page.name} | ${performance} (≥ ${page.target}) | ${accessibility} | ${Math.round(pick('lcp'))} ms | ${Math.round(pick('tbt'))} ms | ${pick('cls').toFixed(3)} | ${(pick('scriptBytes') / 1024).toFixed(1)} KiB | ${Math.round(pick('benchmarkIndex'))} |`,
      );
      if (performance < page.target || accessibility < 95) {
        failed = true;
        console.error(`  target missed: performance >= ${page.target} and accessibility >= 95`);
      }
    }
    const javascript = firstPaintJavaScript();
    console.log(
      `JavaScript before first paint: ${javascript.kib.toFixed(1)} KiB gzip; app JavaScript right after it: ${appJavaScriptKiB().toFixed(1)} KiB gzip`,
    );
    // Formatted like every other file of the repository, so `npm run lint` stays green after a run.
    const resultsFile = path.join(root, 'bench', 'web-results.md');
    const markdown = [
      '# Web figures (`npm run bench:web`)',
      '',
      `Lighthouse ${lighthouseVersion} mobile (simulated throttling), production build, median of ${RUNS} runs each, measured on ${new Date().toISOString().slice(0, 10)}.`,
      '',
      '| page | performance | accessibility | LCP | TBT | CLS | JavaScript transferred | benchmark index |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
      "The benchmark index is Lighthouse's measure of the machine's CPU (higher is faster): simulated throttling scales the observed main-thread time by a fixed factor, so Total Blocking Time, and the score with it, depends on the machine; compare runs with similar indexes.",
      '',
      `JavaScript before the first paint: ${javascript.kib.toFixed(1)} KiB gzip (the page arrives prerendered); the app chunk loaded right after it: ${appJavaScriptKiB().toFixed(1)} KiB gzip.`,
      '',
    ].join('\n');
    writeFileSync(
      resultsFile,
      await prettier.format(markdown, {
        ...((await prettier.resolveConfig(resultsFile)) ?? {}),
        filepath: resultsFile,
      }),
    );
  } finally {
    chrome.kill();
  }
} finally {
  app.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
