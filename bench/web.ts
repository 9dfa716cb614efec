// `npm run bench:web` (also the last part of `npm run bench`): Lighthouse mobile, median of 5 runs, on the
// production build over the demo data set (real branches with images, seeded by the bench itself): the landing
// in pt and en, the booking modal opened by URL, the rights page, and the reference, the same landing with
// JavaScript blocked (its HTML alone), all in one interleaved series so that each score sits beside the
// reference of the same run. Targets (issue 19): landing >= 98 and >= 0.98 x the reference, TBT <= 150 ms;
// booking modal >= 95, LCP <= 1.5 s; rights >= 98; accessibility >= 95. Writes bench/web-results.md.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import * as prettier from 'prettier';
import { CHROMIUM_ARGS, CHROMIUM_PATH, startDemoServer } from './demo-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.BENCH_PORT ?? 3400);

function gzipKiB(files: string[]): number {
  return (
    files.reduce((sum, file) => sum + gzipSync(readFileSync(path.join(root, 'dist', file))).length, 0) / 1024
  );
}

/**
 * The app chunk the entry loads right after the first paint (src/app/start.tsx, which adopts the landing without
 * the router) with its static imports, from the build's chunk graph, beyond what the first paint loaded.
 */
function appJavaScriptKiB(): number {
  const manifest = JSON.parse(
    readFileSync(path.join(root, 'dist', '.vite', 'manifest.json'), 'utf8'),
  ) as Record<string, { file: string; imports?: string[] }>;
  const files = new Set<string>();
  const add = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(`/${chunk.file}`)) return;
    files.add(`/${chunk.file}`);
    chunk.imports?.forEach(add);
  };
  add('src/app/start.tsx');
  const firstPaint = new Set(firstPaintJavaScript().files);
  return gzipKiB([...files].filter((file) => !firstPaint.has(file)));
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
async function measure(chromePort: number, url: string, blockJavaScript = false): Promise<Run> {
  for (let attempt = 1; ; attempt += 1) {
    const result = await lighthouse(
      url,
      {
        port: chromePort,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        ...(blockJavaScript ? { blockedUrlPatterns: ['*.js'] } : {}),
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

const server = await startDemoServer(port);

let failed = false;
try {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
  });
  try {
    const pages = [
      { name: 'HTML only (/pt, JavaScript blocked)', path: '/pt', target: 0, blockJavaScript: true },
      { name: 'landing /pt', path: '/pt', target: 98 },
      { name: 'landing /en', path: '/en', target: 98 },
      {
        name: 'booking modal opened by URL',
        path: '/pt?booking_tab=bookSessions&booking_branch_id=1',
        target: 95,
      },
      { name: 'rights /pt', path: '/pt/rights', target: 98 },
    ];
    // Interleaved: run i of every page, then run i + 1, so a busy moment of the machine weighs on all alike.
    const runs: Run[][] = pages.map(() => []);
    for (let index = 0; index < RUNS; index += 1) {
      for (const [position, page] of pages.entries())
        runs[position]!.push(
          await measure(chrome.port, `${server.origin}${page.path}`, page.blockJavaScript ?? false),
        );
    }
    const medianOf = (position: number, key: keyof Run) => median(runs[position]!.map((run) => run[key]));
    const reference = medianOf(0, 'performance');
    const rows: string[] = [];
    for (const [position, page] of pages.entries()) {
      const pick = (key: keyof Run) => medianOf(position, key);
      const performance = pick('performance');
      const accessibility = pick('accessibility');
      const ratio = reference > 0 ? (performance / reference).toFixed(2) : '-';
      console.log(`${page.name} (${page.path}), production build, Lighthouse mobile, median of ${RUNS}:`);
      console.log(
        `  performance ${performance} (runs: ${runs[position]!.map((run) => run.performance).join(', ')}), ${ratio} x the reference ${reference}, accessibility ${accessibility}`,
      );
      console.log(
        `  LCP ${Math.round(pick('lcp'))} ms, TBT ${Math.round(pick('tbt'))} ms, CLS ${pick('cls').toFixed(3)}, JavaScript loaded ${(pick('scriptBytes') / 1024).toFixed(1)} KiB, machine benchmark index ${Math.round(pick('benchmarkIndex'))}`,
      );
      const target = page.target ? ` (≥ ${page.target})` : '';
      rows.push(
        `| ${page.name} | ${performance}${target} | ${reference} | ${ratio} | ${accessibility} | ${Math.round(pick('lcp'))} ms | ${Math.round(pick('tbt'))} ms | ${pick('cls').toFixed(3)} | ${(pick('scriptBytes') / 1024).toFixed(1)} KiB | ${Math.round(pick('benchmarkIndex'))} |`,
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
      `Lighthouse ${lighthouseVersion} mobile (simulated throttling), production build over the demo data set, median of ${RUNS} runs each, the pages interleaved in one series, measured on ${new Date().toISOString().slice(0, 10)}. The reference is the landing's HTML alone (/pt with JavaScript blocked) in the same series; the ratio is each score over it.`,
      '',
      '| page | performance | reference | ratio | accessibility | LCP | TBT | CLS | JavaScript transferred | benchmark index |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
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
  server.stop();
}
process.exit(failed ? 1 : 0);
