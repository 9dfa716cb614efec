import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom } from 'xstate';
import type { Branch } from '../../machines/branches.ts';
import type { ModalSearch } from '../../machines/modal-search.ts';
import { arrangeModals, needsLogin, startupMachine } from '../../machines/startup.machine.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';

function branch(id: number, order: number): Branch {
  return {
    id,
    name: `Branch ${id}`,
    order,
    image: `/images/branches/${id}.jpg`,
    images_urls: [],
    location: 'Lisboa',
    active_with_smart_lock: true,
    descriptions_data: { pt: '', en: '', fr: '', de: '', sk: '' },
    min_and_max_price_eur_long_cached: [10, 20],
    time_zone: 'Europe/Lisbon',
    slot_minutes: 60,
    latitude: 0,
    longitude: 0,
    map_url: null,
  };
}

type Event = EventFrom<typeof startupMachine>;
// Answers of the two startup calls and what the rest of the app sends afterwards.
const EVENTS = [
  { type: 'xstate.done.actor.fetchBranches', output: [branch(2, 2), branch(1, 1)] },
  { type: 'xstate.done.actor.fetchBranches', output: [] },
  { type: 'xstate.error.actor.fetchBranches', error: new Error('offline') },
  { type: 'xstate.done.actor.validateSession', output: true },
  { type: 'xstate.done.actor.validateSession', output: false },
  { type: 'xstate.error.actor.validateSession', error: new Error('offline') },
  { type: 'branches.load' },
  { type: 'branches.load', force: true },
  { type: 'session.changed', valid: true },
  { type: 'session.changed', valid: false },
  // The router telling of a new URL: a modal closed, the login added, a payment result.
  { type: 'search.changed', search: {} },
  { type: 'search.changed', search: { account_tab: 'profile' } },
  { type: 'search.changed', search: { account_tab: 'profile', auth_tab: 'login' } },
  { type: 'search.changed', search: { stripe_session_id: 'cs_1', booking_tab: 'bookSessions' } },
] as unknown as Event[];

const coverage = coverageOf(startupMachine);
afterAll(() => coverage.save());

// One pending flag of each kind, and none: the modal chosen must follow spec 2.5's priority every time.
const SEARCHES: [string, ModalSearch][] = [
  ['no pending modal', {}],
  ['a reset token and a booking tab', { reset_token: 'abc', booking_tab: 'bookSessions' }],
  ['a booking tab and an account tab', { booking_tab: 'bookSessions', account_tab: 'profile' }],
  ['an account tab', { account_tab: 'myBookings' }],
];

describe.each(SEARCHES)('startup machine, model-based, with %s', (_label, search) => {
  const paths = generatePaths(startupMachine, {
    events: EVENTS,
    input: { search },
    serializeState: (state) =>
      [
        JSON.stringify(state.value),
        `branches:${state.context.branches.length}`,
        `failed:${state.context.branchesFailed}`,
        `token:${state.context.tokenValid}`,
        `modal:${state.context.modal}`,
        `behind:${state.context.behind}`,
        `search:${JSON.stringify(state.context.search)}`,
      ].join(' '),
  });

  for (const path of paths) {
    it(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      let logins = 0;
      let wasReady = false;
      await replayPath(startupMachine, path, {
        scripted: ['fetchBranches', 'validateSession'],
        input: { search },
        coverage,
        provide: { actions: { requestLogin: () => void (logins += 1) } },
        check: (snapshot, step) => {
          const { context } = snapshot;
          const orders = context.branches.map((item) => item.order);
          // The kept list is always sorted by `order` (spec 7).
          expect(orders).toEqual([...orders].sort((a, b) => a - b));
          const type = step.event.type as string;
          const arranged =
            snapshot.matches('ready') &&
            (!wasReady || type === 'search.changed' || type === 'session.changed');
          if (snapshot.matches('ready')) {
            // Once started, the modals on screen are always those the precedence gives for the URL and session.
            expect({ modal: context.modal, behind: context.behind }).toEqual(
              arrangeModals(context.search, context.tokenValid),
            );
          } else {
            expect(context.modal).toBeNull();
          }
          // The login is asked for exactly when the arrangement finds a logged-out visitor wanting the account.
          expect(logins).toBe(arranged && needsLogin(context.search, context.tokenValid) ? 1 : 0);
          logins = 0;
          wasReady = snapshot.matches('ready');
        },
      });
    });
  }
});

describe('startup machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});
