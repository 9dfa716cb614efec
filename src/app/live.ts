import { useDeferredValue, useSyncExternalStore } from 'react';
import type { Runtime } from './runtime.ts';
import { readPageSite } from './site.ts';
import { yieldToBrowser } from './yield.ts';
import { config } from '../config.ts';
import { prepareEuros } from '../i18n/format.ts';
import { requestLocale } from '../i18n/i18n.ts';

// The live runtime (XState, the machines, the API client: src/app/runtime.ts), shared by the landing before the
// router (src/app/LandingApp.tsx) and the router's app (src/app/routed.tsx): one session, one startup, once.

// The business's facts and the refund policy, from the page the server sent (none in the native app's own page).
const pageSite = readPageSite(document);

let runtime: Runtime | null = null;
let runtimeStart: Promise<Runtime> | null = null;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** Who puts the login in front when a flow asks for it (the router's app, once it is there). */
let loginOpener: () => void = () => {};

export function setLoginOpener(open: () => void): void {
  loginOpener = open;
}

/**
 * The live runtime is a chunk of its own, loaded while React adopts the prerendered page, which needs none of it;
 * the app switches to it as soon as it is there.
 */
async function startRuntime(): Promise<Runtime> {
  const { startLiveRuntime } = await import('./runtime.ts');
  // Evaluating the runtime's code (XState, the machines) and starting its actors are two tasks, not one long one.
  await yieldToBrowser();
  runtime = await startLiveRuntime(config, pageSite, { openLogin: () => loginOpener() });
  listeners.forEach((listener) => listener());
  // The prices come with the branches, asked for just now: their formatter is made while the answer is on its way.
  void yieldToBrowser().then(() => prepareEuros(requestLocale()));
  return runtime;
}

/** The live runtime, started once by whoever needs it first. */
export const liveRuntime = (): Promise<Runtime> => (runtimeStart ??= startRuntime());

/** The facts the page came with (src/app/site.ts), for the prerender's runtime the page is adopted with. */
export { pageSite };

/**
 * The runtime the app renders with: `first` (the prerender's static one, or the live one already) until the live
 * one is there. React hydrates with the server snapshot, then renders again with the live one.
 */
export function useLiveRuntime(first: Runtime): Runtime {
  // Deferred: the change of runtime reaches most of the page (session, branches, modals), and is rendered in the
  // background rather than in one task the browser cannot interrupt (issue 33).
  return useDeferredValue(
    useSyncExternalStore(
      subscribe,
      () => runtime ?? first,
      () => first,
    ),
  );
}
