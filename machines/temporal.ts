import type { Temporal as TemporalApi } from 'temporal-polyfill';

// Browsers that ship Temporal (Chromium 144+, Firefox 139+) use their own; elsewhere (older browsers, Node for
// the tests) the polyfill is loaded once, on demand. The modals that read times await `loadTemporal()` before
// they render, so the 21 KiB polyfill never weighs on a browser that does not need it.

export type { TemporalApi as Temporal };

let implementation: typeof TemporalApi | null =
  (globalThis as { Temporal?: typeof TemporalApi }).Temporal ?? null;

export async function loadTemporal(): Promise<typeof TemporalApi> {
  implementation ??= (await import('temporal-polyfill')).Temporal;
  return implementation;
}

/** The Temporal API; `loadTemporal()` must have finished first. */
export function temporal(): typeof TemporalApi {
  if (!implementation) throw new Error('Temporal is not loaded yet: await loadTemporal() first');
  return implementation;
}
