import type { Runtime } from './runtime.ts';
import { createLoaderStore } from '../api/loader.ts';
import { parseConfig } from '../config.ts';
import { NO_SITE, type SiteFacts } from './site.ts';

/**
 * An actor that stays in the first state of its machine and takes no event, with what the page's components read
 * of it (`getSnapshot`, `subscribe`, `matches`, `context`). It is not an XState actor, so the landing adopts its
 * prerendered page without loading XState, the machines and the API client: they come with the live runtime
 * (src/app/runtime.ts), which replaces this one right after. tests/ui/static-runtime.test.ts checks that each one
 * shows its machine's first state.
 */
type StateValue = string | { [state: string]: StateValue };

/** Whether `value` is in `state` (a state's name, or nested names as an object), as XState's `matches` answers. */
function isIn(value: StateValue, state: StateValue): boolean {
  if (typeof state === 'string') return typeof value === 'string' ? value === state : state in value;
  if (typeof value === 'string') return false;
  return Object.entries(state).every(([name, child]) => {
    const inner = value[name];
    return inner !== undefined && isIn(inner, child);
  });
}

function frozenActor<TActor>(value: StateValue, context: object): TActor {
  const snapshot = {
    status: 'active',
    value,
    context,
    matches: (state: StateValue) => isIn(value, state),
    can: () => false,
    hasTag: () => false,
  };
  return {
    getSnapshot: () => snapshot,
    subscribe: () => ({ unsubscribe() {} }),
    send() {},
  } as unknown as TActor;
}

/** Requests wait for the live runtime: what asks before it takes over asks again with its client. */
const waiting = () => new Promise<never>(() => {});

const runtimes = new WeakSet<Runtime>();

/**
 * A runtime whose actors never start: the page as a first-time, logged-out visitor sees it at once. The build
 * prerenders each page with it (src/prerender.tsx), and the browser's first render adopts that HTML with the
 * same runtime (src/app/start.tsx), so both renders are identical, before the app switches to its live runtime.
 */
export function staticRuntime(
  env: Record<string, string | boolean | undefined>,
  site: SiteFacts | null,
): Runtime {
  const api = { GET: waiting, POST: waiting, PUT: waiting, PATCH: waiting, DELETE: waiting };
  const tokenStore = { read: () => null, write() {}, clear() {} };
  const runtime: Runtime = {
    config: parseConfig(env, 'http://localhost'),
    // The prerender's placeholders, or the facts the page came with (src/app/site.ts).
    site: site ?? NO_SITE,
    api: api as unknown as Runtime['api'],
    loader: createLoaderStore(),
    analytics: { request() {}, identify() {}, reset() {} },
    session: frozenActor('loggedOut', { tokenStore, token: null, user: null, unavailable: false }),
    startup: frozenActor(
      { starting: { branches: 'fetching', session: 'validating' } },
      {
        search: {},
        branches: [],
        branchesFailed: false,
        tokenValid: false,
        modal: null,
        behind: null,
      },
    ),
  };
  runtimes.add(runtime);
  return runtime;
}

/** Whether the app still shows the prerendered page's runtime (the live one has not taken over yet). */
export function isStaticRuntime(runtime: Runtime): boolean {
  return runtimes.has(runtime);
}
