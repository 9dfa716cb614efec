import { I18nProvider } from '@lingui/react';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RuntimeContext } from './context.tsx';
import { createRuntime } from './runtime.ts';
import { config } from '../config.ts';
import { activateLocale, i18n } from '../i18n/i18n.ts';
import { detectLocale } from '../i18n/locales.ts';
import { installNativeGuards, lockViewportZoom } from '../platform/guards.ts';
import { isNative } from '../platform/native.ts';
import { createAppRouter } from '../router.tsx';

if (isNative) {
  document.documentElement.dataset.native = 'true';
  lockViewportZoom(document);
  installNativeGuards(window);
}

// The first catalog loads while the runtime starts its requests, so the first paint is already translated.
const firstLocale = activateLocale(
  detectLocale({
    pathname: window.location.pathname,
    cookie: document.cookie,
    languages: navigator.languages ?? [],
  }),
);
const router = createAppRouter();
const runtime = createRuntime(config, {
  openLogin: () =>
    void router.navigate({
      from: '/$lang',
      to: '.',
      replace: true,
      resetScroll: false,
      hash: (previous) => previous ?? '',
      search: (previous) => ({ ...previous, auth_tab: 'login' as const }),
    }),
});
await firstLocale;

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <I18nProvider i18n={i18n}>
      <RuntimeContext value={runtime}>
        <RouterProvider router={router} />
      </RuntimeContext>
    </I18nProvider>
  </StrictMode>,
);
