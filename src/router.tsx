import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  Outlet,
  redirect,
  parseSearchWith,
  stringifySearchWith,
  type AnyRoute,
  type LazyRoute,
  type ParsedLocation,
  type RouterHistory,
} from '@tanstack/react-router';
import type { Operator } from '../machines/adminSession.machine.ts';
import { adminSearch, OwnerOnlyError } from '../machines/adminSearch.ts';
import { modalSearchSchema, usesSearchAlias } from '../machines/modal-search.ts';
import { loadTemporal } from '../machines/temporal.ts';
import { activateLocale, loadFeatureMessages, loadLegalMessages, rememberLocale } from './i18n/i18n.ts';
import { DEFAULT_LOCALE, detectLocale, isLocale, localeSegment, switchLocaleInPath } from './i18n/locales.ts';
import type { ConsolePages } from './admin/admin.lazy.tsx';
import { use } from 'react';
import { Modals } from './app/Modals.tsx';
import type { Runtime } from './app/runtime.ts';
import { Landing } from './landing/Landing.tsx';
import { LandingFrameContext } from './shell/Frame.tsx';
import { NotFound } from './shell/NotFound.tsx';
import { Shell } from './shell/Shell.tsx';

function browserLocale(pathname: string) {
  return detectLocale({ pathname, cookie: document.cookie, languages: navigator.languages ?? [] });
}

function keepSearchAndHash(location: ParsedLocation): string {
  return `${location.searchStr}${location.hash ? `#${location.hash}` : ''}`;
}

/**
 * What the routes are given: the live runtime (XState, the machines, the API client), started on demand; only the
 * console's routes wait for it before they render (its session is checked in their `beforeLoad`).
 */
type RouterContext = { liveRuntime: () => Promise<Runtime> };

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFound,
});

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

/**
 * A language's pages in the page frame; inside the landing's own frame (adopted before the router loaded,
 * src/app/LandingApp.tsx), which shows the landing itself, only the modals the address asks for.
 */
function LanguagePages() {
  return use(LandingFrameContext) ? <Modals /> : <Shell />;
}

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
  component: LanguagePages,
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
 * (src/admin/). Each page is a route of its own (issue 28; the table is in docs/decisions.md): its filters and
 * page number in the address (`validateSearch`, machines/adminSearch.ts), the operator's sign-in settled and an
 * owner-only page refused to staff before it renders (`beforeLoad`), its code in a chunk of its own.
 */
export const adminRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '$lang/admin',
  validateSearch: adminSearch.console,
  beforeLoad: async ({ params, context }) => {
    const locale = isLocale(params.lang) ? params.lang : DEFAULT_LOCALE;
    if (locale !== params.lang) throw redirect({ href: `/${locale}/admin`, replace: true });
    await activateLocale(locale);
    // The console's texts, Temporal (times in each branch's zone) and its session load with it, never with
    // member pages.
    const [{ consoleFor }] = await Promise.all([
      import('./admin/runtime.ts'),
      loadFeatureMessages('admin'),
      loadTemporal(),
    ]);
    const admin = consoleFor(await context.liveRuntime());
    // Who is signed in, once the stored token is checked (null: the console shows its login).
    const operator = await admin.signedIn();
    return { locale, admin, operator };
  },
}).lazy(() => import('./admin/admin.lazy.tsx').then((module) => module.Route));

/**
 * A console page's lazily loaded part, through the console's own chunk (src/admin/admin.lazy.tsx), which the
 * console route loads first anyway: the table of what to preload with each page lives there, not in the landing
 * page's router (tests/ui/bundle-budgets).
 */
const consolePage = (name: keyof ConsolePages): Promise<LazyRoute<AnyRoute>> =>
  import('./admin/admin.lazy.tsx').then((module): Promise<LazyRoute<AnyRoute>> => module.pages[name]());

/** A page only owners may open: staff are refused before it renders, and none of its requests go out. */
const ownersOnly = ({ context }: { context: { operator: Operator | null } }) => {
  if (context.operator && context.operator.role !== 'owner') throw new OwnerOnlyError();
};

const adminTodayRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/',
  validateSearch: adminSearch.today,
}).lazy(() => consolePage('today'));
const adminBookingsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: 'bookings',
  validateSearch: adminSearch.bookings,
}).lazy(() => consolePage('bookings'));
const adminBookingRoute = createRoute({ getParentRoute: () => adminRoute, path: 'bookings/$bookingId' }).lazy(
  () => consolePage('bookingPage'),
);
const adminApprovalsRoute = createRoute({ getParentRoute: () => adminRoute, path: 'approvals' }).lazy(() =>
  consolePage('approvals'),
);
const adminMembersRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: 'members',
  validateSearch: adminSearch.members,
}).lazy(() => consolePage('members'));
const adminMemberRoute = createRoute({ getParentRoute: () => adminRoute, path: 'members/$memberId' }).lazy(
  () => consolePage('memberPageRoute'),
);
const adminDoorsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: 'doors',
  validateSearch: adminSearch.doors,
}).lazy(() => consolePage('doors'));
const adminClosuresRoute = createRoute({ getParentRoute: () => adminRoute, path: 'closures' }).lazy(() =>
  consolePage('closures'),
);
const adminBroadcastsRoute = createRoute({ getParentRoute: () => adminRoute, path: 'broadcasts' }).lazy(() =>
  consolePage('broadcasts'),
);
const adminBranchesRoute = createRoute({ getParentRoute: () => adminRoute, path: 'branches' }).lazy(() =>
  consolePage('branches'),
);
const adminBranchRoute = createRoute({ getParentRoute: () => adminRoute, path: 'branches/$branchId' }).lazy(
  () => consolePage('branchPageRoute'),
);
const adminPricesRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: 'prices',
  validateSearch: adminSearch.prices,
  beforeLoad: ownersOnly,
}).lazy(() => consolePage('prices'));
const adminCouponsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: 'coupons',
  beforeLoad: ownersOnly,
}).lazy(() => consolePage('coupons'));
const adminCreditPacksRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: 'credit-packs',
  beforeLoad: ownersOnly,
}).lazy(() => consolePage('creditPacks'));
const adminGiftVouchersRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: 'gift-vouchers',
  validateSearch: adminSearch.giftVouchers,
  beforeLoad: ownersOnly,
}).lazy(() => consolePage('giftVouchers'));
const adminRefundPolicyRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: 'refund-policy',
  beforeLoad: ownersOnly,
}).lazy(() => consolePage('refundPolicy'));
const adminMoneyRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: 'money',
  validateSearch: adminSearch.money,
  beforeLoad: ownersOnly,
}).lazy(() => consolePage('money'));
const adminDocumentsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: 'documents',
  validateSearch: adminSearch.documents,
  beforeLoad: ownersOnly,
}).lazy(() => consolePage('documents'));
const adminAuditRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: 'audit',
  validateSearch: adminSearch.audit,
}).lazy(() => consolePage('audit'));
const adminOperatorsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: 'operators',
  beforeLoad: ownersOnly,
}).lazy(() => consolePage('operators'));
/** Any other console address: "this page does not exist" inside the console's frame. */
const adminNotFoundRoute = createRoute({ getParentRoute: () => adminRoute, path: '$' }).lazy(() =>
  import('./admin/admin.lazy.tsx').then((module) => module.NotFoundRoute),
);

const routeTree = rootRoute.addChildren([
  indexRoute,
  adminRoute.addChildren([
    adminTodayRoute,
    adminBookingsRoute,
    adminBookingRoute,
    adminApprovalsRoute,
    adminMembersRoute,
    adminMemberRoute,
    adminDoorsRoute,
    adminClosuresRoute,
    adminBroadcastsRoute,
    adminBranchesRoute,
    adminBranchRoute,
    adminPricesRoute,
    adminCouponsRoute,
    adminCreditPacksRoute,
    adminGiftVouchersRoute,
    adminRefundPolicyRoute,
    adminMoneyRoute,
    adminDocumentsRoute,
    adminAuditRoute,
    adminOperatorsRoute,
    adminNotFoundRoute,
  ]),
  langRoute.addChildren([mainRoute, rightsRoute, notFoundRoute]),
]);

/**
 * The app's router. `prerendering`: no scroll restoration, whose server render is an inline script, which the
 * page's Content-Security-Policy blocks (an error in the console of every page load) and the app replaces anyway.
 * `restoresScroll`: asked after each render whether the router may restore or reset the window's scroll then.
 */
export function createAppRouter(
  history?: RouterHistory,
  {
    prerendering = false,
    liveRuntime = () => Promise.reject(new Error('No live runtime while prerendering')),
    restoresScroll = () => true,
  }: {
    prerendering?: boolean;
    liveRuntime?: RouterContext['liveRuntime'];
    restoresScroll?: () => boolean;
  } = {},
) {
  return createRouter({
    routeTree,
    context: { liveRuntime },
    ...(history ? { history } : {}),
    defaultPreload: 'intent',
    // Plain query strings: the default JSON encoding quoted a code that looks like a number
    // ('verify_email_code=%22614802%22'); parseModalSearch reads strings and numbers alike.
    parseSearch: parseSearchWith((value) => value),
    stringifySearch: stringifySearchWith(JSON.stringify),
    scrollRestoration: prerendering ? false : () => restoresScroll(),
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
