import { useLingui } from '@lingui/react';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useRuntime } from '../app/context.tsx';
import { Modals } from '../app/Modals.tsx';
import { isStaticRuntime } from '../app/static-runtime.ts';
import { applyPageMetadata, type PageName } from '../i18n/metadata.ts';
import { isNative } from '../platform/native.ts';
import { BottomBar } from './BottomBar.tsx';
import { Footer } from './Footer.tsx';
import { GlobalLoader } from './GlobalLoader.tsx';
import { SessionNotice } from './SessionNotice.tsx';
import { useLocale } from './navigation.ts';
import { TopBar } from './TopBar.tsx';

function usePageMetadata() {
  const { i18n } = useLingui();
  const { config, site } = useRuntime();
  const locale = useLocale();
  const page: PageName = useRouterState({
    select: (state) => (state.location.pathname.replace(/\/+$/, '').endsWith('/rights') ? 'rights' : 'main'),
  });
  useEffect(() => {
    applyPageMetadata(document, i18n, {
      locale,
      page,
      siteName: site.company.name,
      baseUrl: config.webMainUrl,
    });
  }, [i18n, locale, page, config, site]);
}

/** The page frame: top bar and footer on the web, the bottom bar in the native app, and the global loader. */
export function Shell() {
  usePageMetadata();
  // Until the app has taken over with its live runtime, the page is the prerendered HTML (tests and tools wait for
  // this mark).
  const runtime = useRuntime();
  useEffect(() => {
    if (!isStaticRuntime(runtime)) document.documentElement.dataset.appReady = 'true';
  }, [runtime]);
  return (
    <div className={isNative ? 'app app--native' : 'app'}>
      {!isNative && <TopBar />}
      <main id="content" className="app__content">
        <SessionNotice />
        <Outlet />
      </main>
      {!isNative && <Footer />}
      {isNative && <BottomBar />}
      <Modals />
      <GlobalLoader />
    </div>
  );
}
