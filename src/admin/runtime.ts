import { createActor, type ActorRefFrom } from 'xstate';
import { createAdminSessionActors } from '../../machines/adminSession.actors.ts';
import { adminSessionMachine } from '../../machines/adminSession.machine.ts';
import type { ApiClient } from '../../machines/api.ts';
import { createApiClient } from '../api/client.ts';
import type { Runtime } from '../app/runtime.ts';
import { requestLocale } from '../i18n/i18n.ts';
import { adminTokenStore } from './tokenStore.ts';

export type AdminRuntime = {
  api: ApiClient;
  session: ActorRefFrom<typeof adminSessionMachine>;
  /** What every console flow does when a call says the operator's session is over. */
  sessionEnded: () => void;
};

/** Operators are not counted in the product's analytics. */
const noAnalytics = { request() {}, identify() {}, reset() {} };

/**
 * The console's own API client (the operator's token, never the member's) and its session, created once per
 * page: the member app's runtime keeps its own client, token and session untouched.
 */
export function createAdminRuntime(runtime: Runtime): AdminRuntime {
  const api = createApiClient({
    baseUrl: runtime.config.apiBaseUrl,
    getLocale: requestLocale,
    getToken: () => adminTokenStore.read(),
    loader: runtime.loader,
    analytics: noAnalytics,
  });
  const session = createActor(adminSessionMachine.provide({ actors: createAdminSessionActors(api) }), {
    input: { tokenStore: adminTokenStore },
  }).start();
  return { api, session, sessionEnded: () => session.send({ type: 'session.expired' }) };
}
