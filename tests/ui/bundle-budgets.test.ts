import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

// Budgets on the production build (`npm test` builds before it runs the suites), in gzip bytes, read from
// the chunk graph Vite writes (dist/.vite/manifest.json):
// - the landing page: the entry and its imports, the app chunk it starts right after the first paint with
//   its imports, and the Portuguese catalog, <= 150 KiB;
// - the booking modal: what opening it adds (its chunk and imports not already loaded, and its catalog),
//   <= 60 KiB;
// - Stripe.js is loaded only by the payment dialog's Stripe checkout.

const dist = path.resolve(import.meta.dirname, '../../dist');
const KIB = 1024;

type Chunk = { file: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean };
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
  const bookingModal = new Set(
    [
      ...closure(manifest, 'src/booking/BookingModal.tsx'),
      ...closure(manifest, 'locales/pt/booking.po'),
    ].filter((file) => !landing.has(file)),
  );
  const stripeCheckout = closure(manifest, 'src/booking/StripeCheckout.tsx');

  it('loads at most 150 KiB (gzip) of JavaScript for the landing page', () => {
    const bytes = gzipBytes(landing);
    console.log(`landing page JavaScript: ${kib(bytes)} gzip in ${landing.size} files`);
    expect(bytes).toBeLessThanOrEqual(150 * KIB);
  });

  it('adds at most 60 KiB (gzip) when the booking modal opens, and none of it before', () => {
    const bytes = gzipBytes(bookingModal);
    console.log(`booking modal JavaScript: ${kib(bytes)} gzip in ${bookingModal.size} files`);
    expect(bookingModal.size).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(60 * KIB);
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
});
