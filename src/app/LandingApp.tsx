import { useDeferredValue, useEffect, useMemo, useSyncExternalStore } from 'react';
import { liveRuntime } from './live.ts';
import { yieldToBrowser } from './yield.ts';
import type * as RoutedModule from './routed.tsx';
import { Providers } from './Providers.tsx';
import type { Runtime } from './runtime.ts';
import type { Locale } from '../i18n/locales.ts';
import { LandingPage } from '../landing/LandingPage.tsx';
import {
  landingLocale,
  localeOfPath,
  scrollToSection,
  type Navigation,
  type NavigationIntent,
} from '../shell/navigation.ts';

// The landing, adopted without the router (docs/decisions.md, 'Issue 33: the landing without the router'). The
// router and the rest of the app (src/app/routed.tsx) load on the first interaction that needs them: a control
// that navigates or opens a modal (what it asked for is done once they are there, so no click is lost), a step
// through the history, or an address with a modal in it. Until then the page's links are real links.

type Routed = typeof RoutedModule;

type RouterState = {
  /** The router's app, once loaded. */
  routed: Routed | null;
  /** The landing's locale, as the router resolves it (a language switch). */
  locale: Locale;
  /** Whether the router has shown another page: its pages, each in its frame, from then on. */
  left: boolean;
};

/** As the page was prerendered: what its adoption renders, whatever has loaded by then. */
const prerendered: RouterState = {
  routed: null,
  locale: localeOfPath(window.location.pathname),
  left: false,
};
let state = prerendered;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
function update(next: Partial<RouterState>) {
  state = { ...state, ...next };
  listeners.forEach((listener) => listener());
}

const importRouted = () => import('./routed.tsx');
let routing: Promise<Routed> | null = null;

/** The router's app, loaded and resolved for the current address once, by whatever needs it first. */
export function loadRouter(): Promise<Routed> {
  routing ??= importRouted().then(async (routed) => {
    // Evaluating the router's code and resolving the address are two tasks, not one long one.
    await yieldToBrowser();
    await routed.loadRoutes();
    const follow = () => {
      const locale = landingLocale(routed.router.state.location.pathname);
      update({ routed, locale: locale ?? state.locale, left: state.left || !locale });
    };
    routed.onResolved(follow);
    // The router's first render is over the landing as its reader left it (scrolled, a section on its way).
    if (landingLocale(routed.router.state.location.pathname)) routed.keepScrollOnce();
    follow();
    return routed;
  });
  return routing;
}

/**
 * The router's code is fetched (not started) on a sign that a control is about to be used: a pointer over a link
 * or a button, a touch, focus; the first click then waits for less.
 */
function prefetchOnIntent(root: HTMLElement): () => void {
  const events = ['pointerover', 'touchstart', 'focusin'] as const;
  const prefetch = (event: Event) => {
    if (!(event.target instanceof Element) || !event.target.closest('a[href], button')) return;
    stop();
    void importRouted();
  };
  const stop = () => events.forEach((type) => root.removeEventListener(type, prefetch));
  events.forEach((type) => root.addEventListener(type, prefetch, { passive: true }));
  return stop;
}

/** What a control asks for, done by the router's app once it (and the live runtime) are there. */
function go(intent: NavigationIntent): void {
  // A section is scrolled to at once; its address follows with the router.
  if (!state.routed && intent.kind === 'section') scrollToSection(intent.section);
  void Promise.all([loadRouter(), liveRuntime()]).then(([routed, runtime]) =>
    routed.perform(routed.router, runtime.session, intent),
  );
}

function preload(href: string): void {
  void loadRouter().then((routed) => routed.preloadPage(routed.router, href));
}

export function LandingApp({ first, root }: { first: Runtime; root: HTMLElement }) {
  // The router's arrival (its modals, or its page once the reader leaves the landing) is rendered in the background:
  // a store's change is otherwise rendered at once, in one task the browser cannot interrupt (issue 33). Until it is
  // rendered, the same tree stands, and React, given the very same element, has nothing to render again.
  const { routed, locale, left } = useDeferredValue(
    useSyncExternalStore(
      subscribe,
      () => state,
      () => prerendered,
    ),
  );
  useEffect(() => {
    if (routed) return;
    const stop = prefetchOnIntent(root);
    // A step through the history (a hash typed in, a back to an entry of this page) is the router's to show.
    const onPopState = () => void loadRouter();
    window.addEventListener('popstate', onPopState);
    return () => {
      stop();
      window.removeEventListener('popstate', onPopState);
    };
  }, [routed, root]);
  const navigation = useMemo<Navigation>(() => ({ locale, go, preload }), [locale]);
  return useMemo(
    () => (
      <Providers first={first}>
        {routed && left ? (
          <routed.Pages />
        ) : (
          <LandingPage navigation={navigation} modals={routed && <routed.Pages />} />
        )}
      </Providers>
    ),
    [first, routed, left, navigation],
  );
}
