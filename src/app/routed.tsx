import { RouterProvider } from '@tanstack/react-router';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { stopKeepingPresses } from './early-press.ts';
import { liveRuntime, pageSite, setLoginOpener } from './live.ts';
import { PressedBeforeAdoption } from './PressedBeforeAdoption.tsx';
import { Providers } from './Providers.tsx';
import { staticRuntime } from './static-runtime.ts';
import { clientEnv } from '../config.ts';
import { isNative } from '../platform/native.ts';
import { createAppRouter } from '../router.tsx';

// The router and the pages it renders: loaded at once on any page but the landing, and by the landing on the first
// interaction that needs it (src/app/LandingApp.tsx).

/** Whether the router's next render leaves the window's scroll as it is (`keepScrollOnce`). */
let keepScroll = false;

// The console's routes wait for the live runtime in their `beforeLoad`; member pages render without it.
export const router = createAppRouter(undefined, {
  liveRuntime,
  restoresScroll: () => {
    const restores = !keepScroll;
    keepScroll = false;
    return restores;
  },
});

/**
 * The landing was on screen, and scrolled by its reader, before the router came: the router's first render there
 * (its modal layer, src/app/LandingApp.tsx) leaves the scroll alone, where it would reset it to the top as for a
 * page it has just shown (a section's smooth scroll stopped halfway, a language switch jumped to the top).
 */
export function keepScrollOnce(): void {
  keepScroll = true;
}

setLoginOpener(
  () =>
    void router.navigate({
      from: '/$lang',
      to: '.',
      replace: true,
      resetScroll: false,
      hash: (previous) => previous ?? '',
      search: (previous) => ({ ...previous, auth_tab: 'login' as const }),
    }),
);

let loaded: Promise<void> | null = null;

/** The current address's routes resolved (their `beforeLoad`, a redirect), once. */
export const loadRoutes = (): Promise<void> => (loaded ??= router.load());

/** The router's pages; inside the landing's frame, only its modals (src/router.tsx). */
export function Pages() {
  return <RouterProvider router={router} />;
}

export { perform } from '../shell/perform.ts';

export { preloadPage } from '../shell/perform.ts';

/** Tells `listener` of each address the router has resolved. */
export function onResolved(listener: () => void): () => void {
  return router.subscribe('onResolved', listener);
}

/** The app on a page that is not the landing (or in the native app): the router's pages from the start. */
export async function startPages(root: HTMLElement): Promise<void> {
  const requested = window.location.href;
  // The prerendered markup is the web page's: the native app's differs (a bottom bar, no top bar, no marketing
  // sections), so it is rendered anew rather than adopted (adopting it failed with React's error #418).
  const adopt = !isNative && root.hasChildNodes();
  if (adopt) await loadRoutes();
  // The prerendered page is adopted when the router shows that page (not after a redirect to another address).
  if (adopt && window.location.href === requested) {
    // As TanStack Router's own hydration does: the router renders as on the server (no Suspense boundary of its own).
    router.ssr = { manifest: undefined };
    // The prerender's state: its actors in their first state, and requests that wait for the live runtime.
    // In a transition, adopted in slices the browser can answer between (as the landing is, src/app/start.tsx).
    stopKeepingPresses(root);
    startTransition(() => {
      hydrateRoot(
        root,
        <>
          <Providers first={staticRuntime(clientEnv, pageSite)}>
            <Pages />
          </Providers>
          <PressedBeforeAdoption />
        </>,
      );
    });
    void liveRuntime();
  } else {
    const first = await liveRuntime();
    // Rendered anew: a button pressed on the prerendered page is not this page's.
    stopKeepingPresses(root);
    root.replaceChildren();
    createRoot(root).render(
      <Providers first={first}>
        <Pages />
      </Providers>,
    );
  }
}
