import { createActor, waitFor, type ActorRefFrom } from 'xstate';
import { createAdminSessionActors } from '../../machines/adminSession.actors.ts';
import { adminSessionMachine, type Operator } from '../../machines/adminSession.machine.ts';
import type { ApiClient } from '../../machines/api.ts';
import { createApiClient } from '../api/client.ts';
import type { Runtime } from '../app/runtime.ts';
import { requestLocale } from '../i18n/i18n.ts';
import { adminTokenStore } from './tokenStore.ts';

export type AdminRuntime = {
  api: ApiClient;
  session: ActorRefFrom<typeof adminSessionMachine>;
  /** The member app's runtime: its public API client (the branches' free slots) and loader. */
  runtime: Runtime;
  /** What every console flow does when a call says the operator's session is over. */
  sessionEnded: () => void;
  /** The signed-in operator once the session has settled (a stored token checked, a login or logout done). */
  signedIn: () => Promise<Operator | null>;
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
    // As every flow's actor (src/app/binding.tsx): the component model tests record the session's steps.
    inspect: runtime.inspect,
  }).start();
  const settled = (state: ReturnType<typeof session.getSnapshot>) =>
    state.matches('loggedIn') || state.matches('loggedOut');
  return {
    api,
    session,
    runtime,
    sessionEnded: () => session.send({ type: 'session.expired' }),
    signedIn: async () => (await waitFor(session, settled)).context.operator,
  };
}

const consoles = new WeakMap<Runtime, AdminRuntime>();

/**
 * The console of the page, made the first time a console route loads (its `beforeLoad`): one session for every
 * console page, kept while the operator moves between them.
 */
export function consoleFor(runtime: Runtime): AdminRuntime {
  let admin = consoles.get(runtime);
  if (!admin) {
    admin = createAdminRuntime(runtime);
    consoles.set(runtime, admin);
  }
  return admin;
}
