// Build-time rendering of each locale's pages (vite.config.ts runs it after the client build). The
// server puts the HTML into #root, so the first paint needs no JavaScript; the app then adopts it (hydration).
import { I18nProvider } from '@lingui/react';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { renderToString } from 'react-dom/server';
import { RuntimeContext } from './app/context.tsx';
import { staticRuntime } from './app/static-runtime.ts';
import { i18n } from './i18n/i18n.ts';
import { createAppRouter } from './router.tsx';

export async function prerender(
  path: string,
  env: Record<string, string | boolean | undefined>,
): Promise<string> {
  const router = createAppRouter(createMemoryHistory({ initialEntries: [path] }), { prerendering: true });
  await router.load();
  return renderToString(
    <I18nProvider i18n={i18n}>
      <RuntimeContext value={staticRuntime(env)}>
        <RouterProvider router={router} />
      </RuntimeContext>
    </I18nProvider>,
  );
}
