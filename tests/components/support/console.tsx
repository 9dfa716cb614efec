import { I18nProvider } from '@lingui/react';
import { i18n } from '@lingui/core';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { cleanup, getByLabelText, render, waitFor } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { AnyStateMachine, InspectionEvent } from 'xstate';
import type { Feedback } from '../../../machines/feedback.ts';
import { withoutPrefixes, type ModelPath, type Step } from '../../machines/model/paths.ts';
import { ApiError } from '../../../machines/api.ts';
import { consoleFor, type AdminRuntime } from '../../../src/admin/runtime.ts';
import { ADMIN_TOKEN_KEY } from '../../../src/admin/tokenStore.ts';
import { RuntimeContext } from '../../../src/app/context.tsx';
import { createRuntime, type Runtime } from '../../../src/app/runtime.ts';
import { createAppRouter } from '../../../src/router.tsx';
import { CONFIG, loadCatalogs, SITE } from './app.tsx';
import type { Recorder } from './model.ts';
import { createNetwork, type Answer, type Call } from './network.ts';

// The console around a flow under test (the counterpart of app.tsx's renderApp): the app's own router at a console
// address (`/pt/admin/...`), its console route settling the operator's session and loading the page's lazy part,
// the member app's runtime as the console route asks for it, every flow's actor (the console's session among
// them) told to `inspect`. A stored operator token is the operator's session; the network is the test's.

// What jsdom lacks and the console's autosizing text areas ask for: the document's fonts (a browser tells when
// they have loaded; here none load).
if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', { value: new EventTarget(), configurable: true });

/** The signed-in operator the console's session check answers (the contract's Operator). */
export const OWNER = {
  id: 1,
  email: 'owner@gym.example',
  role: 'owner' as const,
  password_set: true,
  branch_ids: null,
  created_at: '2026-01-05T10:00:00Z',
};

/** A branch's arrival kit with nothing set, as the console's branch answers hold it. */
export const EMPTY_ARRIVAL_KIT = {
  entrance_photo_url: null,
  wifi_network: null,
  wifi_password: null,
  texts: Object.fromEntries(
    ['pt', 'en', 'fr', 'de', 'sk'].map((locale) => [locale, { directions: '', keypad: '', rules: '' }]),
  ) as Record<'pt' | 'en' | 'fr' | 'de' | 'sk', { directions: string; keypad: string; rules: string }>,
};

/** A branch as the console's list of branches (listAdminBranches) answers it. */
export const adminBranch = (id: number, name: string) => ({
  id,
  slug: name.toLowerCase(),
  name,
  order: id,
  location: `Rua ${id}, Lisboa`,
  latitude: 38.71,
  longitude: -9.14,
  map_url: null,
  time_zone: 'Europe/Lisbon',
  slot_minutes: 60,
  opening_hours: null,
  images: [],
  descriptions: { pt: '', en: '', fr: '', de: '', sk: '' },
  arrival: EMPTY_ARRIVAL_KIT,
  active_with_smart_lock: true,
  lock_devices: [],
  slots_generated_until: null,
  vat_rate: null,
  guest_limit: 4,
});

/** A booking as the console's bookings search (searchAdminBookings) lists it: confirmed and paid, unless said. */
export const adminBooking = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  status: 'confirmed',
  series: null,
  branch: { id: 1, name: 'Centro', time_zone: 'Europe/Lisbon' },
  start_time: '2026-12-01T10:00:00Z',
  end_time: '2026-12-01T11:00:00Z',
  created_at: '2026-11-20T09:00:00Z',
  member: null,
  final_price_eur: 15,
  paid: true,
  paid_eur: 15,
  refunded_eur: 0,
  coupon_code: null,
  door_code_state: 'none',
  code_sent_at: null,
  checked_in_at: null,
  no_show: false,
  overstay: false,
  canceled_at: null,
  ...overrides,
});

export const OPERATOR_TOKEN = 'operator-token';

/**
 * A network for the console: what the member app's runtime asks at start (no member is signed in), the
 * operator's session check and the navigation's count of approvals are answered at once, unless `auto` says
 * otherwise; the rest waits for the test.
 */
export function consoleNetwork(auto: Partial<Record<string, (call: Call) => Answer | undefined>> = {}) {
  return createNetwork({
    listBranches: () => ({ status: 200, body: [] }),
    getOperatorMe: () => ({ status: 200, body: OWNER }),
    // An owner's navigation counts the refunds waiting for them (none here).
    listRefundApprovals: () => ({
      status: 200,
      body: { staff_refund_ceiling_eur: 30, pending: [], decided: [] },
    }),
    ...auto,
  });
}

export type Console = {
  runtime: Runtime;
  /** The console's runtime (its API client and the operator's session), made by the console route. */
  admin: () => AdminRuntime;
  /** The router's address now (path and search). */
  location: () => string;
  stop: () => void;
};

/** Renders the app at the console address `path` (`/pt/admin/...`); `operatorToken` is a stored operator session. */
export async function renderConsole(
  path: string,
  options: {
    network: ReturnType<typeof createNetwork>;
    inspect: (event: InspectionEvent) => void;
    operatorToken?: string | null;
  },
): Promise<Console> {
  cleanup();
  window.localStorage.clear();
  const token = options.operatorToken === undefined ? OPERATOR_TOKEN : options.operatorToken;
  if (token !== null) window.localStorage.setItem(ADMIN_TOKEN_KEY, token);
  window.history.replaceState(null, '', path);
  vi.stubGlobal('fetch', options.network.fetch);
  // The console's chunk, loaded before the first render, so the first path does not wait for it to compile.
  await Promise.all([loadCatalogs(), import('../../../src/admin/admin.lazy.tsx')]);
  const runtime: Runtime = {
    ...createRuntime({ ...CONFIG, apiBaseUrl: `${window.location.origin}/api` }, SITE, {
      openLogin: () => {},
    }),
    inspect: options.inspect,
  };
  const router = createAppRouter(createMemoryHistory({ initialEntries: [path] }), {
    liveRuntime: () => Promise.resolve(runtime),
  });
  // Not awaited: the console route waits for the operator's session check, which the test may hold.
  render(
    <I18nProvider i18n={i18n}>
      <RuntimeContext value={runtime}>
        <RouterProvider router={router} />
      </RuntimeContext>
    </I18nProvider>,
  );
  return {
    runtime,
    admin: () => consoleFor(runtime),
    location: () => router.state.location.href,
    stop: () => {
      cleanup();
      consoleFor(runtime).session.stop();
      runtime.session.stop();
      runtime.startup.stop();
    },
  };
}

/**
 * Where the UI gives two of the model's events with one control (a console button that asks and confirms at
 * once), the two steps become one: the later step's state, an event of its own type naming both (`as`). The
 * state in between is passed before anyone can see it, so it is not checked; what the flow took is still
 * recorded from its own inspection.
 */
export function joinSteps<M extends AnyStateMachine>(
  path: ModelPath<M>,
  first: string,
  second: string,
  as: string,
): ModelPath<M> {
  const steps: Step<M>[] = [];
  for (const step of path.steps) {
    const previous = steps.at(-1);
    if (previous && previous.event.type === first && step.event.type === second) {
      steps[steps.length - 1] = {
        event: { ...previous.event, type: as },
        state: step.state,
      };
    } else steps.push(step);
  }
  return { ...path, steps, description: path.description.replaceAll(`${first} → ${second}`, as) };
}

/** The field whose label starts with `label` (a required field's label ends with Mantine's asterisk). */
export function labelled(label: string, within: HTMLElement = document.body): HTMLInputElement {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return getByLabelText<HTMLInputElement>(within, new RegExp(`^${escaped}( \\*)?$`));
}

/** The words the console shows for a flow's feedback (src/admin/feedback.tsx), in Portuguese. */
export function feedbackText(feedback: Feedback): string {
  if ('text' in feedback) return feedback.text;
  switch (feedback.key) {
    case 'error-during-login':
      return 'Não foi possível iniciar sessão. Verifique o e-mail, a palavra-passe e o código.';
    case 'passwords-do-not-match':
      return 'As palavras-passe não coincidem';
    case 'can-not-cancel-bookings':
      return 'Não foi possível cancelar a reserva. Tente novamente.';
    default:
      return 'Ocorreu um erro inesperado. Tente novamente.';
  }
}

/**
 * Waits for the page to start the flow under test: the console route's first load (its session check, the page's
 * lazy part) takes longer than a step, the first time most of all.
 */
export async function started(flow: Recorder): Promise<void> {
  await waitFor(() => expect(flow.value(), 'the page never started the flow').toBeDefined(), {
    timeout: 10_000,
    interval: 10,
  });
}

/**
 * Each path cut after its first step that `ends` (an answer that ends the operator's session: the console shows
 * its login, and nothing on the page can be done after it), without the duplicates and prefixes this leaves.
 */
export function cutAfter<M extends AnyStateMachine>(
  paths: ModelPath<M>[],
  ends: (event: { type: string; error?: unknown }) => boolean,
): ModelPath<M>[] {
  const cut = paths.map((path) => {
    const end = path.steps.findIndex((step) => ends(step.event));
    if (end < 0 || end === path.steps.length - 1) return path;
    const steps = path.steps.slice(0, end + 1);
    // The description names every event but the first step's (the start).
    return {
      steps,
      state: steps.at(-1)!.state,
      description: path.description.split(' → ').slice(0, end).join(' → '),
    };
  });
  return withoutPrefixes([...new Map(cut.map((path) => [path.description, path])).values()]);
}

/** The error of an answer that ends the operator's session. */
export const isSessionEnd = (event: { type: string; error?: unknown }): boolean =>
  event.error instanceof ApiError && event.error.code === 'unauthorized';

/**
 * The shortest of `paths` that passes through a state `through` holds for: the fewest paths that take every
 * transition may skip what the page shows in some states (a form's checks), which such a path adds.
 */
export function shortestThrough<M extends AnyStateMachine>(
  paths: ModelPath<M>[],
  through: (state: ModelPath<M>['state']) => boolean,
): ModelPath<M> {
  const found = paths
    .filter((path) => path.steps.some((step) => through(step.state)))
    .sort((a, b) => a.steps.length - b.steps.length)[0];
  if (!found) throw new Error('no generated path passes through the state asked for');
  return found;
}
