import { Outlet, useParams, useRouter, useRouterState } from '@tanstack/react-router';
import { useCallback, useMemo, type ReactNode } from 'react';
import { useRuntime } from '../app/context.tsx';
import { Modals } from '../app/Modals.tsx';
import type { PageName } from '../i18n/metadata.ts';
import { DEFAULT_LOCALE, isLocale } from '../i18n/locales.ts';
import { Frame } from './Frame.tsx';
import { NavigationContext, type Navigation, type NavigationIntent } from './navigation.ts';
import { perform, preloadPage } from './perform.ts';

/** The page frame's navigation (src/shell/navigation.ts) by the router: its `$lang` parameter and `navigate`. */
export function RouterNavigation({ children }: { children: ReactNode }) {
  const router = useRouter();
  const { lang } = useParams({ strict: false });
  const { session } = useRuntime();
  const locale = isLocale(lang) ? lang : DEFAULT_LOCALE;
  const go = useCallback(
    (intent: NavigationIntent) => void perform(router, session, intent),
    [router, session],
  );
  const preload = useCallback((href: string) => preloadPage(router, href), [router]);
  const navigation = useMemo<Navigation>(() => ({ locale, go, preload }), [locale, go, preload]);
  return <NavigationContext value={navigation}>{children}</NavigationContext>;
}

/** The router's pages in the page frame (the landing's own frame is src/landing/LandingPage.tsx). */
export function Shell() {
  const page: PageName = useRouterState({
    select: (state) => (state.location.pathname.replace(/\/+$/, '').endsWith('/rights') ? 'rights' : 'main'),
  });
  return (
    <RouterNavigation>
      <Frame page={page} modals={<Modals />}>
        <Outlet />
      </Frame>
    </RouterNavigation>
  );
}
