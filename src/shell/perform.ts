import type { Runtime } from '../app/runtime.ts';
import { rememberLocale } from '../i18n/i18n.ts';
import { switchLocaleInPath } from '../i18n/locales.ts';
import type { createAppRouter } from '../router.tsx';
import { localeOfPath, scrollToSection, type NavigationIntent } from './navigation.ts';

type AppRouter = ReturnType<typeof createAppRouter>;

/**
 * Does what a control asked for (src/shell/navigation.ts), with the router: right away on the router's pages, and
 * on the landing once the router has loaded (src/app/LandingApp.tsx). Settles when the navigation has.
 */
export async function perform(
  router: AppRouter,
  session: Runtime['session'],
  intent: NavigationIntent,
): Promise<void> {
  const location = router.state.location;
  switch (intent.kind) {
    case 'section':
      await router.navigate({
        to: '/$lang',
        params: { lang: localeOfPath(location.pathname) },
        hash: intent.section,
        hashScrollIntoView: false,
      });
      requestAnimationFrame(() => scrollToSection(intent.section));
      return;
    case 'modal': {
      const { request } = intent;
      await router.navigate({
        to: '.',
        hash: (previous) => previous ?? '',
        search: (previous: Record<string, unknown>) => {
          const next = { ...previous };
          if (request.modal === 'auth') next.auth_tab = request.tab;
          if (request.modal === 'booking') {
            next.booking_tab = request.tab;
            next.booking_branch_id = request.branchId;
          }
          if (request.modal === 'account') next.account_tab = request.tab;
          return next;
        },
      });
      return;
    }
    case 'locale':
      rememberLocale(intent.locale);
      // A logged-in member's account takes the language too, so the e-mails and SMS that follow use it.
      session.send({ type: 'locale.change', locale: intent.locale });
      await router.navigate({
        href: `${switchLocaleInPath(location.pathname, intent.locale)}${location.searchStr}${location.hash ? `#${location.hash}` : ''}`,
        resetScroll: false,
      });
      session.send({ type: 'token.validate' });
      return;
    case 'page':
      await router.navigate({ href: intent.href });
      return;
  }
}

/**
 * Gets a page ready (its code and data), as the router's links do on a sign of intent. The address is a concrete
 * one, which the router matches like any other (its types name route templates only).
 */
export function preloadPage(router: AppRouter, href: string): void {
  const { pathname } = new URL(href, window.location.origin);
  router.preloadRoute({ to: pathname as '/' }).catch(() => {});
}
