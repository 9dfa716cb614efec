import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { stopKeepingPresses } from './early-press.ts';
import { LandingApp, loadRouter } from './LandingApp.tsx';
import { PressedBeforeAdoption } from './PressedBeforeAdoption.tsx';
import { liveRuntime, pageSite } from './live.ts';
import { staticRuntime } from './static-runtime.ts';
import { clientEnv } from '../config.ts';
import { activateLocale } from '../i18n/i18n.ts';
import { detectLocale } from '../i18n/locales.ts';
import { installNativeGuards, lockViewportZoom } from '../platform/guards.ts';
import { isNative } from '../platform/native.ts';
import { landingLocale } from '../shell/navigation.ts';

if (isNative) {
  document.documentElement.dataset.native = 'true';
  lockViewportZoom(document);
  installNativeGuards(window);
}

// The first catalog loads before the first render, so the first paint is already translated.
const firstLocale = activateLocale(
  detectLocale({
    pathname: window.location.pathname,
    cookie: document.cookie,
    languages: navigator.languages ?? [],
  }),
);

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// An address that opens a modal needs the live runtime for it, so it starts at once, and its requests (the branch
// data) go out while the page is adopted.
const withModal = window.location.search.length > 1;
if (withModal) void liveRuntime();

// The landing's prerendered page (the web's: the native app renders its own) is adopted without the router
// (src/app/LandingApp.tsx); any other page, and the native app, start with the router's pages.
if (!isNative && root.hasChildNodes() && landingLocale(window.location.pathname)) {
  // An address with a modal in it needs the router for the modal: its code loads while the page is adopted.
  if (withModal) void loadRouter();
  await firstLocale;
  // In a transition, React adopts the page in slices of a few milliseconds, giving the browser its thread back
  // between them; outside one, hydration runs to its end in one task that nothing on the page can interrupt
  // (issue 33: the booking modal opened by URL lost its Lighthouse points to such blocking time).
  stopKeepingPresses(root);
  startTransition(() => {
    hydrateRoot(
      root,
      <>
        <LandingApp first={staticRuntime(clientEnv, pageSite)} root={root} />
        <PressedBeforeAdoption />
      </>,
    );
  });
  void liveRuntime();
} else {
  const [{ startPages }] = await Promise.all([import('./routed.tsx'), firstLocale]);
  await startPages(root);
}
