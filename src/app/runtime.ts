import { createActor, waitFor, type ActorRefFrom, type InspectionEvent } from 'xstate';
import { createAnalytics, type Analytics } from '../api/analytics.ts';
import { createApiClient, type ApiClient } from '../api/client.ts';
import { createLoaderStore, type LoaderStore } from '../api/loader.ts';
import type { ClientConfig } from '../config.ts';
import { NO_SITE, withPolicy, type SiteFacts } from './site.ts';
import { expectData } from '../../machines/api.ts';
import { i18n, requestLocale } from '../i18n/i18n.ts';
import { modalSearchSchema } from '../../machines/modal-search.ts';
import { createSessionActors, endServerSession } from '../../machines/session.actors.ts';
import { sessionMachine } from '../../machines/session.machine.ts';
import { localStorageTokenStore } from './tokenStore.ts';
import { createStartupActors } from '../../machines/startup.actors.ts';
import { startupMachine } from '../../machines/startup.machine.ts';
import { fromPromise } from 'xstate';

/** The member's bearer token, in local storage under `token`. */
const localTokenStore = localStorageTokenStore('token');

export type Runtime = {
  config: ClientConfig;
  /** The business's facts and the refund policy the page came with (src/app/site.ts). */
  site: SiteFacts;
  api: ApiClient;
  loader: LoaderStore;
  analytics: Analytics;
  session: ActorRefFrom<typeof sessionMachine>;
  startup: ActorRefFrom<typeof startupMachine>;
  /** Told of every step of the flows' actors (src/app/binding.tsx); the component model tests record them. */
  inspect?: (event: InspectionEvent) => void;
};

function rawSearch(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search));
}

/** What the runtime's machines ask of the page around them. */
export type RuntimePorts = {
  /** Adds the login to the URL (the account modal asked for by a logged-out visitor). */
  openLogin: () => void;
};

/** Creates the app's long-lived pieces once: API client, loader, analytics, and the session and startup actors. */
export function createRuntime(config: ClientConfig, site: SiteFacts, ports: RuntimePorts): Runtime {
  const loader = createLoaderStore();
  const analytics = createAnalytics(config.mixpanelToken);
  const api = createApiClient({
    baseUrl: config.apiBaseUrl,
    getLocale: requestLocale,
    getToken: () => localTokenStore.read(),
    loader,
    analytics,
  });

  const session = createActor(
    sessionMachine.provide({
      actors: createSessionActors(api),
      actions: {
        identifyUser: (_, params) => analytics.identify(params.user.distinct_id),
        forgetIdentity: () => analytics.reset(),
        endServerSession: (_, params) => endServerSession(api, params.token),
      },
    }),
    { input: { tokenStore: localTokenStore } },
  ).start();

  const startup = createActor(
    startupMachine.provide({
      actors: {
        ...createStartupActors(api, requestLocale),
        validateSession: fromPromise(async () => {
          const settled = await waitFor(
            session,
            (state) => state.matches('loggedIn') || state.matches('loggedOut'),
          );
          return settled.matches('loggedIn');
        }),
      },
      actions: { requestLogin: () => ports.openLogin() },
    }),
    { input: { search: modalSearchSchema.parse(rawSearch(window.location.search)) } },
  ).start();

  // The branch list and the modal rules follow the session after startup (login, logout, expiry). Re-validating
  // a known user (after a profile update or a language change) keeps the session in: the account stays open.
  const isIn = (state: ReturnType<typeof session.getSnapshot>) =>
    state.matches('loggedIn') || (state.matches('validating') && state.context.user !== null);
  let wasIn = isIn(session.getSnapshot());
  session.subscribe((state) => {
    if (!state.matches('loggedIn') && !state.matches('loggedOut') && !isIn(state)) return;
    const loggedIn = isIn(state);
    if (loggedIn !== wasIn) startup.send({ type: 'session.changed', valid: loggedIn });
    wasIn = loggedIn;
  });

  // The branches come in the interface's language only: a language not read yet is asked for when it is chosen.
  i18n.on('change', () => {
    const { branches } = startup.getSnapshot().context;
    const language = requestLocale();
    if (branches.some((branch) => branch.descriptions_data[language] === undefined)) {
      startup.send({ type: 'branches.load', force: true });
    }
  });

  return { config, site, api, loader, analytics, session, startup };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The live runtime, with the facts the page came with, or else (the native app's own page) those of `GET /site`,
 * asked up to three times a second apart; then none, said in the console: an app without its server can do
 * nothing else either, and shows no other business's name.
 */
export async function startLiveRuntime(
  config: ClientConfig,
  pageSite: SiteFacts | null,
  ports: RuntimePorts,
): Promise<Runtime> {
  const runtime = createRuntime(config, pageSite ?? NO_SITE, ports);
  if (pageSite) return runtime;
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    try {
      const { company } = await expectData(runtime.api.GET('/site'));
      return { ...runtime, site: withPolicy(company, null) };
    } catch (error) {
      console.error('the site facts could not be read', error);
    }
    if (attempt < 3) await wait(1000);
  }
  return runtime;
}
