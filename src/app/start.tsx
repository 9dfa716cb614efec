import { I18nProvider } from '@lingui/react';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, useSyncExternalStore } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RuntimeContext } from './context.tsx';
import type { Runtime } from './runtime.ts';
import { readPageSite } from './site.ts';
import { staticRuntime } from './static-runtime.ts';
import { clientEnv, config } from '../config.ts';
import { activateLocale, i18n } from '../i18n/i18n.ts';
import { detectLocale } from '../i18n/locales.ts';
import { installNativeGuards, lockViewportZoom } from '../platform/guards.ts';
import { isNative } from '../platform/native.ts';
import { createAppRouter } from '../router.tsx';

if (isNative) {
  document.documentElement.dataset.native = 'true';
  lockViewportZoom(document);
  installNativeGuards(window);
}

// The first catalog loads before the first render, so the first paint is already translated.
const firstLocale = activateLocale(
  detectLocale({
    pathname: window.location.pathname,
    cookie: document.cookie,
    languages: navigator.languages ?? [],
  }),
);
// The console's routes wait for the live runtime in their `beforeLoad`; member pages render without it.
const router = createAppRouter(undefined, { liveRuntime: () => liveRuntime() });

// The business's facts and the refund policy, from the page the server sent (none in the native app's own page).
const pageSite = readPageSite(document);

let runtime: Runtime | null = null;
let runtimeStart: Promise<Runtime> | null = null;
/** The live runtime, started once by whoever needs it first. */
const liveRuntime = () => (runtimeStart ??= startRuntime());
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
/**
 * The live runtime (XState, the machines, the API client: src/app/runtime.ts) is a chunk of its own, loaded while
 * React adopts the prerendered page, which needs none of it; the app switches to it as soon as it is there.
 */
async function startRuntime(): Promise<Runtime> {
  const { startLiveRuntime } = await import('./runtime.ts');
  runtime = await startLiveRuntime(config, pageSite, {
    openLogin: () =>
      void router.navigate({
        from: '/$lang',
        to: '.',
        replace: true,
        resetScroll: false,
        hash: (previous) => previous ?? '',
        search: (previous) => ({ ...previous, auth_tab: 'login' as const }),
      }),
  });
  listeners.forEach((listener) => listener());
  return runtime;
}

// An address that opens a modal needs the live runtime for it (its chunk is preloaded with the page's HTML), so
// it starts at once, and its requests (the branch data) go out while the page is adopted.
if (new URLSearchParams(window.location.search).size > 0) void liveRuntime();

await firstLocale;

/**
 * The app. Over a prerendered page, its first render uses the prerender's state (a first-time, logged-out
 * visitor, no data yet), so it is the prerendered HTML exactly and React adopts that DOM instead of rebuilding
 * it; once the live runtime is there, only what differs (session, branches, a modal) re-renders.
 */
function App({ first }: { first: Runtime }) {
  // React hydrates with the server snapshot, then renders again with the live one.
  const current = useSyncExternalStore(
    subscribe,
    () => runtime ?? first,
    () => first,
  );
  return (
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <RuntimeContext value={current}>
          <RouterProvider router={router} />
        </RuntimeContext>
      </I18nProvider>
    </StrictMode>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
const requested = window.location.href;
// The prerendered markup is the web page's: the native app's differs (a bottom bar, no top bar, no marketing
// sections), so it is rendered anew rather than adopted (adopting it failed with React's error #418).
const adopt = !isNative && root.hasChildNodes();
if (adopt) await router.load();
// The prerendered page is adopted when the router shows that page (not after a redirect to another address).
if (adopt && window.location.href === requested) {
  // As TanStack Router's own hydration does: the router renders as on the server (no Suspense boundary of its own).
  router.ssr = { manifest: undefined };
  // The prerender's state: its actors in their first state, and requests that wait for the live runtime.
  hydrateRoot(root, <App first={staticRuntime(clientEnv, pageSite)} />);
  void liveRuntime();
} else {
  const first = await liveRuntime();
  root.replaceChildren();
  createRoot(root).render(<App first={first} />);
}
