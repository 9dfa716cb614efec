import {
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  redirect,
  parseSearchWith,
  stringifySearchWith,
  type ParsedLocation,
  type RouterHistory,
} from '@tanstack/react-router';
import { modalSearchSchema, usesSearchAlias } from '../machines/modal-search.ts';
import { loadTemporal } from '../machines/temporal.ts';
import { activateLocale, loadFeatureMessages, loadLegalMessages, rememberLocale } from './i18n/i18n.ts';
import { DEFAULT_LOCALE, detectLocale, isLocale, localeSegment, switchLocaleInPath } from './i18n/locales.ts';
import { Landing } from './landing/Landing.tsx';
import { NotFound } from './shell/NotFound.tsx';
import { Shell } from './shell/Shell.tsx';

function browserLocale(pathname: string) {
  return detectLocale({ pathname, cookie: document.cookie, languages: navigator.languages ?? [] });
}

function keepSearchAndHash(location: ParsedLocation): string {
  return `${location.searchStr}${location.hash ? `#${location.hash}` : ''}`;
}

const rootRoute = createRootRoute({ component: Outlet, notFoundComponent: NotFound });

/** `/` redirects to `/{lang}` by the detection order (docs/decisions.md: every page URL carries its locale). */
const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: ({ location }) => {
    throw redirect({
      href: `/${browserLocale(location.pathname)}${keepSearchAndHash(location)}`,
      replace: true,
    });
  },
});

export const langRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '$lang',
  validateSearch: modalSearchSchema,
  beforeLoad: async ({ params, location }) => {
    if (!isLocale(params.lang)) {
      // An unsupported locale falls back to pt (a path without any locale gets one detected).
      console.error(`Unsupported locale "${params.lang}"; falling back to ${DEFAULT_LOCALE}.`);
      const fallback = localeSegment(location.pathname) ? DEFAULT_LOCALE : browserLocale(location.pathname);
      throw redirect({
        href: `${switchLocaleInPath(location.pathname, fallback)}${keepSearchAndHash(location)}`,
        replace: true,
      });
    }
    if (usesSearchAlias(location.search)) {
      throw redirect({
        to: location.pathname,
        search: modalSearchSchema.parse(location.search),
        hash: location.hash,
        replace: true,
      });
    }
    await activateLocale(params.lang);
    rememberLocale(params.lang);
    return { locale: params.lang };
  },
  component: Shell,
});

const mainRoute = createRoute({ getParentRoute: () => langRoute, path: '/', component: Landing });

export const rightsRoute = createRoute({
  getParentRoute: () => langRoute,
  path: 'rights',
  loader: ({ context }) => loadLegalMessages(context.locale),
}).lazy(() => import('./rights/rights.lazy.tsx').then((module) => module.Route));

/** Any other path under a language: the 404 page inside the shell (top bar and footer); the server answers 404. */
const notFoundRoute = createRoute({ getParentRoute: () => langRoute, path: '$', component: NotFound });

/**
 * The operator console (issue 18): its own page frame, not the member shell, in chunks member pages never load
 * (src/admin/). `/{lang}/admin/<section>/...` are its pages; the section is read by the console itself.
 */
const adminBeforeLoad = async ({ params }: { params: { lang: string } }) => {
  const locale = isLocale(params.lang) ? params.lang : DEFAULT_LOCALE;
  if (locale !== params.lang) throw redirect({ href: `/${locale}/admin`, replace: true });
  await activateLocale(locale);
  // The console's texts and Temporal (times in each branch's zone) load with it, never with member pages.
  await Promise.all([loadFeatureMessages('admin'), loadTemporal()]);
  return { locale };
};
export const adminRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '$lang/admin',
  beforeLoad: adminBeforeLoad,
}).lazy(() => import('./admin/admin.lazy.tsx').then((module) => module.Route));
export const adminPageRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '$lang/admin/$',
  beforeLoad: adminBeforeLoad,
}).lazy(() => import('./admin/admin.lazy.tsx').then((module) => module.PageRoute));

const routeTree = rootRoute.addChildren([
  indexRoute,
  adminRoute,
  adminPageRoute,
  langRoute.addChildren([mainRoute, rightsRoute, notFoundRoute]),
]);

/**
 * The app's router. `prerendering`: no scroll restoration, whose server render is an inline script, which the
 * page's Content-Security-Policy blocks (an error in the console of every page load) and the app replaces anyway.
 */
export function createAppRouter(history?: RouterHistory, { prerendering = false } = {}) {
  return createRouter({
    routeTree,
    ...(history ? { history } : {}),
    defaultPreload: 'intent',
    // Plain query strings: the default JSON encoding quoted a code that looks like a number
    // ('verify_email_code=%22614802%22'); parseModalSearch reads strings and numbers alike.
    parseSearch: parseSearchWith((value) => value),
    stringifySearch: stringifySearchWith(JSON.stringify),
    scrollRestoration: !prerendering,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
