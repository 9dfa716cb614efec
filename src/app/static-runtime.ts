import { createActor } from 'xstate';
import type { Runtime } from './runtime.ts';
import { createApiClient } from '../api/client.ts';
import { createLoaderStore } from '../api/loader.ts';
import { parseConfig } from '../config.ts';
import { sessionMachine } from '../../machines/session.machine.ts';
import { startupMachine } from '../../machines/startup.machine.ts';

/**
 * A runtime whose actors never start: the page as a first-time, logged-out visitor sees it at once. The build
 * prerenders each page with it (src/prerender.tsx), and the browser's first render adopts that HTML with the
 * same runtime (src/app/start.tsx), so both renders are identical, before the app switches to its live runtime.
 */
export function staticRuntime(env: Record<string, string | boolean | undefined>): Runtime {
  const config = parseConfig(env, 'http://localhost');
  const loader = createLoaderStore();
  const analytics = { request() {}, identify() {}, reset() {} };
  const api = createApiClient({
    baseUrl: 'http://localhost/api',
    getLocale: () => 'pt',
    getToken: () => null,
    loader,
    analytics,
    fetch: () => Promise.reject(new Error('no network in the static runtime')),
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
