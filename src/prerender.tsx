// Build-time rendering of each locale's pages (vite.config.ts runs it after the client build). The
// server puts the HTML into #root, so the first paint needs no JavaScript; the app then replaces it.
import { I18nProvider } from '@lingui/react';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { renderToString } from 'react-dom/server';
import { createActor } from 'xstate';
import { createApiClient } from './api/client.ts';
import { createLoaderStore } from './api/loader.ts';
import { RuntimeContext } from './app/context.tsx';
import type { Runtime } from './app/runtime.ts';
import { parseConfig } from './config.ts';
import { i18n } from './i18n/i18n.ts';
import { createAppRouter } from './router.tsx';
import { sessionMachine } from '../machines/session.machine.ts';
import { startupMachine } from '../machines/startup.machine.ts';

/** A runtime whose actors never start: the page renders as a first-time, logged-out visitor sees it at once. */
function staticRuntime(env: Record<string, string | boolean | undefined>): Runtime {
  const config = parseConfig(env, 'http://localhost');
  const loader = createLoaderStore();
  const analytics = { request() {}, identify() {}, reset() {} };
  const api = createApiClient({
    baseUrl: 'http://localhost/api',
    getLocale: () => 'pt',
    getToken: () => null,
    loader,
    analytics,
    fetch: () => Promise.reject(new Error('no network while prerendering')),
  });
  const tokenStore = { read: () => null, write() {}, clear() {} };
  return {
    config,
    api,
    loader,
    analytics,
    session: createActor(sessionMachine, { input: { tokenStore } }),
    startup: createActor(startupMachine, { input: { search: {} } }),
  };
}

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
