import { I18nProvider } from '@lingui/react';
import { i18n } from '@lingui/core';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { cleanup, configure, render } from '@testing-library/react';
import type { ReactNode } from 'react';

import { afterEach, expect, vi } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { modalSearchSchema } from '../../../machines/modal-search.ts';
import { RuntimeContext } from '../../../src/app/context.tsx';
import { createRuntime, type Runtime } from '../../../src/app/runtime.ts';
import type { SiteFacts } from '../../../src/app/site.ts';
import type { ClientConfig } from '../../../src/config.ts';
import { activateLocale, loadFeatureMessages } from '../../../src/i18n/i18n.ts';
import { RouterNavigation } from '../../../src/shell/Shell.tsx';
import type { Network } from './network.ts';

// The app around a feature under test: the real runtime (session, startup, the typed API client over the test's
// `fetch`), Lingui in Portuguese, a router with the app's `/$lang` route and its modal search, the feature as the
// page. What jsdom lacks and Mantine asks for is stubbed once.

// The test's user prefers reduced motion: with the theme's consent (below) Mantine's modals open and close at once.
if (!window.matchMedia)
  window.matchMedia = (query: string) =>
    ({
      matches: query === '(prefers-reduced-motion: reduce)',
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
window.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
if (!('scrollIntoView' in Element.prototype)) Object.assign(Element.prototype, { scrollIntoView() {} });
window.scrollTo = () => {};

// Role queries skip the check that an element is not hidden: it computes every ancestor's style (the slowest part
// of a query), and jsdom applies no stylesheet (Mantine's CSS is not loaded), so it proves little here; a modal
// that is closed is not in the document at all.
configure({ defaultHidden: true });

export const CONFIG: ClientConfig = {
  webMainUrl: 'https://gym.example',
  apiBaseUrl: '/api',
  stripePublishableKey: null,
  mixpanelToken: null,
  earlyBirdEnabled: false,
  poweredBy: { name: 'Vendor', url: 'https://vendor.example' },
};

/** The business's facts, as the server's page would bring them; the refund policy comes from the fake network. */
export const SITE: SiteFacts = {
  company: {
    name: 'Ginásio Privado',
    tax_id: '123456789',
    email: 'ola@gym.example',
    social_url: 'https://social.example/gym',
  },
  refundRatios: null,
  refundPolicyStated: null,
  refundPolicyUntilKnown: '…',
};

/** Texts a component asked for that the Portuguese catalogs lack (a message not extracted, an id mistyped). */
const missing = new Set<string>();
i18n.on('missing', ({ id }) => missing.add(id));

let loaded: Promise<void> | null = null;

/** The real Portuguese catalogs, as the app loads them: the page's and every feature's. */
export function loadCatalogs(): Promise<void> {
  loaded ??= (async () => {
    await activateLocale('pt');
    await Promise.all(
      (['account', 'booking', 'admin'] as const).map((feature) => loadFeatureMessages(feature)),
    );
  })();
  return loaded;
}

afterEach(() => {
  const ids = [...missing];
  missing.clear();
  expect(ids, 'messages the Portuguese catalogs lack').toEqual([]);
});

export type App = { runtime: Runtime; search: () => string };

/**
 * Renders `Page` at `/pt?<search>` in the app's providers, the network answered by `network`, every step of the
 * flows' actors told to `inspect`. A stored `token` is the member's session.
 */
export async function renderApp(
  Page: () => ReactNode,
  options: {
    search: string;
    network: Network;
    inspect: (event: InspectionEvent) => void;
    token?: string;
    config?: Partial<ClientConfig>;
    /** Told of the runtime as soon as it exists, before anything renders. */
    onRuntime?: (runtime: Runtime) => void;
  },
): Promise<App> {
  cleanup();
  window.localStorage.clear();
  if (options.token) window.localStorage.setItem('token', options.token);
  window.history.replaceState(null, '', `/pt${options.search ? `?${options.search}` : ''}`);
  vi.stubGlobal('fetch', options.network.fetch);
  await loadCatalogs();
  const runtime: Runtime = {
    ...createRuntime({ ...CONFIG, apiBaseUrl: `${window.location.origin}/api`, ...options.config }, SITE, {
      openLogin: () => {},
    }),
    inspect: options.inspect,
  };
  options.onRuntime?.(runtime);
  const rootRoute = createRootRoute({ component: Outlet });
  const langRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: '$lang',
    validateSearch: modalSearchSchema,
    // The navigation the page frame gives its pages (locale, navigation by the router).
    component: () => (
      <RouterNavigation>
        <Page />
      </RouterNavigation>
    ),
  });
  const router = createRouter({
    routeTree: rootRoute.addChildren([langRoute]),
    history: createMemoryHistory({ initialEntries: [window.location.pathname + window.location.search] }),
  });
  await router.load();
  render(
    <I18nProvider i18n={i18n}>
      <RuntimeContext value={runtime}>
        <RouterProvider router={router as never} />
      </RuntimeContext>
    </I18nProvider>,
  );
  return { runtime, search: () => router.state.location.searchStr };
}
