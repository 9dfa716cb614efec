// Build-time rendering of each locale's pages (vite.config.ts runs it after the client build). The
// server puts the HTML into #root, so the first paint needs no JavaScript; the app then adopts it (hydration).
import { I18nProvider } from '@lingui/react';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { renderToString } from 'react-dom/server';
import { RuntimeContext } from './app/context.tsx';
import { PRERENDER_SITE } from './app/site.ts';
import { staticRuntime } from './app/static-runtime.ts';
import { BookingModalShell } from './booking/BookingModalShell.tsx';
import { activateLocale, i18n, loadFeatureMessages } from './i18n/i18n.ts';
import type { Locale } from './i18n/locales.ts';
import { LandingPage } from './landing/LandingPage.tsx';
import { createAppRouter } from './router.tsx';
import { landingLocale } from './shell/navigation.ts';

const noNavigation = () => {};

/**
 * A page as a first-time, logged-out visitor sees it: the landing in its own frame, as the browser adopts it
 * without the router (src/app/LandingApp.tsx); any other page through the router, as the router's app adopts it.
 */
export async function prerender(
  path: string,
  env: Record<string, string | boolean | undefined>,
): Promise<string> {
  const runtime = staticRuntime(env, PRERENDER_SITE);
  const locale = landingLocale(path);
  if (locale) {
    await activateLocale(locale);
    return renderToString(
      <I18nProvider i18n={i18n}>
        <RuntimeContext value={runtime}>
          <LandingPage navigation={{ locale, go: noNavigation, preload: noNavigation }} modals={null} />
        </RuntimeContext>
      </I18nProvider>,
    );
  }
  const router = createAppRouter(createMemoryHistory({ initialEntries: [path] }), { prerendering: true });
  await router.load();
  return renderToString(
    <I18nProvider i18n={i18n}>
      <RuntimeContext value={runtime}>
        <RouterProvider router={router} />
      </RuntimeContext>
    </I18nProvider>,
  );
}

/**
 * The booking modal of the first HTML (src/booking/BookingModalShell.tsx) in one locale, with the placeholders the
 * server fills in for the branch an address names.
 */
export async function prerenderBookingShell(locale: Locale): Promise<string> {
  await activateLocale(locale);
  await loadFeatureMessages('booking');
  const html = renderToString(
    <I18nProvider i18n={i18n}>
      <BookingModalShell closeHref={`/${locale}`} />
    </I18nProvider>,
  );
  // React puts a preload of the image before the markup; the server preloads it in the head instead.
  return html.replace(/^(?:<link rel="preload"[^>]*\/>)+/, '');
}
