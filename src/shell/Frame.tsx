import { useLingui } from '@lingui/react';
import { createContext, useEffect, type ReactNode } from 'react';
import { useRuntime } from '../app/context.tsx';
import { isStaticRuntime } from '../app/static-runtime.ts';
import { applyPageMetadata, type PageName } from '../i18n/metadata.ts';
import { isNative } from '../platform/native.ts';
import { BottomBar } from './BottomBar.tsx';
import { Footer } from './Footer.tsx';
import { GlobalLoader } from './GlobalLoader.tsx';
import { SessionNotice } from './SessionNotice.tsx';
import { useLocale } from './navigation.ts';
import { TopBar } from './TopBar.tsx';

/**
 * True inside the landing's own frame (src/landing/LandingPage.tsx), which the page adopts before the router is
 * loaded: the router's routes, rendered there once it is, add only the modals (src/router.tsx).
 */
export const LandingFrameContext = createContext(false);

function usePageMetadata(page: PageName) {
  const { i18n } = useLingui();
  const { config, site } = useRuntime();
  const locale = useLocale();
  useEffect(() => {
    applyPageMetadata(document, i18n, {
      locale,
      page,
      siteName: site.company.name,
      baseUrl: config.webMainUrl,
    });
  }, [i18n, locale, page, config, site]);
}

/**
 * The page frame: top bar and footer on the web, the bottom bar in the native app, the modals and the global
 * loader, around the page's own content. It reads no router: the landing adopts its page with it before the router
 * is there, and the router's pages (src/shell/Shell.tsx) use it too.
 */
export function Frame({
  page,
  modals,
  children,
}: {
  page: PageName;
  modals: ReactNode;
  children: ReactNode;
}) {
  usePageMetadata(page);
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
        {children}
      </main>
      {!isNative && <Footer />}
      {isNative && <BottomBar />}
      {modals}
      <GlobalLoader />
    </div>
  );
}
