import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

// Budgets on the production build (`npm test` builds before it runs the suites), in gzip bytes, read from
// the chunk graph Vite writes (dist/.vite/manifest.json):
// - the landing page: what it loads before an interaction asks for more: the entry and its imports, the app chunk
//   it starts right after the first paint with its imports, and the Portuguese catalog, <= 110 KiB (issue 33; 131
//   before: React DOM alone is 55 of it). The landing adopts its page without the router (src/app/LandingApp.tsx):
//   TanStack Router and the route tree come with src/app/routed.tsx, on the first interaction that needs them, and
//   no chunk loaded before that carries them. XState, the machines and the API client are none of the budget: they
//   come with the live runtime (src/app/runtime.ts), loaded while React adopts the prerendered page;
// - the router's app (src/app/routed.tsx: TanStack Router, the route tree, the modal layer): what the landing's
//   first interaction that needs it adds, <= 35 KiB;
// - the booking modal: what opening it adds (its chunk and imports not already loaded with the landing, the live
//   runtime and the router's app, and its catalog), <= 60 KiB;
// - Stripe.js is loaded only by the payment dialog's Stripe checkout;
// - member pages never load the operator console (src/admin/, a lazily loaded route): no chunk that any entry or
//   lazily loaded chunk outside src/admin/ loads with it bundles a module of src/admin/ (from the modules of each
//   chunk, dist/.vite/chunk-modules.json). Until the console exists this holds trivially.

const dist = path.resolve(import.meta.dirname, '../../dist');
const KIB = 1024;

type Chunk = {
  file: string;
  src?: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
  isDynamicEntry?: boolean;
};
type Manifest = Record<string, Chunk>;

function readManifest(): Manifest {
  const file = path.join(dist, '.vite', 'manifest.json');
  if (!existsSync(file)) throw new Error('dist/.vite/manifest.json is missing: run `npm run build` first');
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}

/** The files a chunk loads with it: itself and its static imports, transitively. */
function closure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`no chunk ${key} in the build`);
  if (into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(manifest, imported, into);
  return into;
}

function gzipBytes(files: Iterable<string>): number {
  let total = 0;
  for (const file of files) total += gzipSync(readFileSync(path.join(dist, file))).length;
  return total;
}

function kib(bytes: number): string {
  return `${(bytes / KIB).toFixed(1)} KiB`;
}

describe('the production bundle', () => {
  const manifest = readManifest();
  const landing = new Set([
    ...closure(manifest, 'index.html'),
    ...closure(manifest, 'src/app/start.tsx'),
    ...closure(manifest, 'locales/pt/messages.po'),
  ]);
  const runtime = closure(manifest, 'src/app/runtime.ts');
  const routed = new Set(
    [...closure(manifest, 'src/app/routed.tsx')].filter((file) => !landing.has(file) && !runtime.has(file)),
  );
  const bookingModal = new Set(
    [
      ...closure(manifest, 'src/booking/BookingModal.tsx'),
      ...closure(manifest, 'locales/pt/booking.po'),
    ].filter((file) => !landing.has(file) && !runtime.has(file) && !routed.has(file)),
  );
  const modules = JSON.parse(readFileSync(path.join(dist, '.vite', 'chunk-modules.json'), 'utf8')) as Record<
    string,
    string[]
  >;
  const stripeCheckout = closure(manifest, 'src/booking/StripeCheckout.tsx');

  it('loads at most 110 KiB (gzip) of JavaScript for the landing page', () => {
    const bytes = gzipBytes(landing);
    console.log(`landing page JavaScript: ${kib(bytes)} gzip in ${landing.size} files`);
    const live = [...runtime].filter((file) => !landing.has(file));
    console.log(`and the live runtime, loaded while the page is adopted: ${kib(gzipBytes(live))} gzip more`);
    expect(bytes).toBeLessThanOrEqual(110 * KIB);
  });

  it('adopts the landing page without the router, which comes with the first interaction that needs it', () => {
    const isRouter = (module: string) =>
      /node_modules\/@tanstack\//.test(module) ||
      module === 'src/router.tsx' ||
      module === 'src/app/routed.tsx';
    // Everything the landing loads before an interaction: its own chunks and the live runtime's.
    const beforeInteraction = new Set([...landing, ...runtime]);
    const carried = [...beforeInteraction].flatMap((file) =>
      (modules[file] ?? []).filter(isRouter).map((module) => `${file}: ${module}`),
    );
    expect(carried).toEqual([]);
    // The router is there, in the chunks the landing imports on demand.
    expect(
      [...routed].some((file) =>
        (modules[file] ?? []).some((module) => module.includes('@tanstack/react-router')),
      ),
    ).toBe(true);
    expect(manifest['src/app/start.tsx']!.dynamicImports).toContain('src/app/routed.tsx');
  });

  it('adopts the landing page without XState, the machines or the API client', () => {
    const live = [...landing].flatMap((file) =>
      (modules[file] ?? []).filter((module) =>
        /node_modules\/(xstate|openapi-fetch)\/|\.machine\.ts$|^src\/app\/runtime\.ts$/.test(module),
      ),
    );
    expect(live).toEqual([]);
    expect(
      [...runtime].some((file) =>
        (modules[file] ?? []).some((module) => /node_modules\/xstate\//.test(module)),
      ),
    ).toBe(true);
  });

  it('adds at most 35 KiB (gzip) with the router, on the landing’s first interaction that needs it', () => {
    const bytes = gzipBytes(routed);
    console.log(`the router's app: ${kib(bytes)} gzip in ${routed.size} files`);
    expect(bytes).toBeLessThanOrEqual(35 * KIB);
  });

  it('adds at most 60 KiB (gzip) when the booking modal opens, and none of it before', () => {
    const bytes = gzipBytes(bookingModal);
    console.log(`booking modal JavaScript: ${kib(bytes)} gzip in ${bookingModal.size} files`);
    expect(bookingModal.size).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(60 * KIB);
  });

  it('preloads, for a lazily loaded chunk, only what the chunk asking for it has not loaded already', () => {
    // Each preload link costs the page's main thread (vite.config.ts, preloadWhatIsMissing): a chunk that asks
    // for another has loaded all its own static imports before its code runs.
    const keyOf = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
    let preloads = 0;
    const bookingModalFile = manifest['src/booking/BookingModal.tsx']!.file;
    let bookingModalPreloads: string[] = [];
    for (const [file, key] of keyOf) {
      if (!file.endsWith('.js')) continue;
      const code = readFileSync(path.join(dist, file), 'utf8');
      const table = /m\.f=(\[[^\]]*\])/.exec(code)?.[1];
      if (!table) continue;
      const files = JSON.parse(table) as string[];
      const loaded = closure(manifest, key);
      for (const match of code.matchAll(/import\(`\.\/([^`]+)`\),__vite__mapDeps\(\[([\d,]*)\]\)/g)) {
        const listed = (match[2] ?? '')
          .split(',')
          .filter(Boolean)
          .map((index) => files[Number(index)]!);
        for (const listedFile of listed)
          expect(loaded, `${file} preloads ${listedFile}`).not.toContain(listedFile);
        preloads += listed.length;
        if (`assets/${match[1]}` === bookingModalFile) bookingModalPreloads = listed;
      }
    }
    // Still preloaded: the booking modal's chunk and the chunks it needs that the router's app has not loaded.
    expect(preloads).toBeGreaterThan(0);
    expect(bookingModalPreloads).toContain(bookingModalFile);
  });

  it('has Stripe.js loaded only by the Stripe checkout of the payment dialog', () => {
    const withStripe = readdirSync(path.join(dist, 'assets'))
      .filter((file) => file.endsWith('.js'))
      .map((file) => `assets/${file}`)
      .filter((file) => readFileSync(path.join(dist, file), 'utf8').includes('js.stripe.com'));
    expect(withStripe.length).toBeGreaterThan(0);
    for (const file of withStripe) {
      expect(stripeCheckout.has(file), `${file} mentions js.stripe.com`).toBe(true);
      expect(landing.has(file), `${file} is loaded by the landing page`).toBe(false);
      expect(bookingModal.has(file), `${file} is loaded with the booking modal`).toBe(false);
    }
  });

  it('never loads the operator console’s code on a member page', () => {
    const isConsole = (module: string) => module.startsWith('src/admin/');
    const memberStarts = Object.entries(manifest).filter(
      ([key, chunk]) => (chunk.isEntry || chunk.isDynamicEntry) && !isConsole(chunk.src ?? key),
    );
    expect(memberStarts.length).toBeGreaterThan(5);
    expect(Object.keys(modules)).toContain(manifest['src/app/start.tsx']!.file);
    for (const [key] of memberStarts) {
      for (const loaded of closure(manifest, key)) {
        const consoleModules = (modules[loaded] ?? []).filter(isConsole);
        expect(consoleModules, `${loaded}, loaded with ${key}, bundles the console's modules`).toEqual([]);
      }
    }
  });
});
