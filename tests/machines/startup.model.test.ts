import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom } from 'xstate';
import type { Branch } from '../../machines/branches.ts';
import { chooseStartupModal, type ModalSearch } from '../../machines/modal-search.ts';
import { startupMachine } from '../../machines/startup.machine.ts';
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
  { type: 'modal.closed' },
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
      ].join(' '),
  });

  for (const path of paths) {
    it(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      let tokenValidWhenReady: boolean | null = null;
      await replayPath(startupMachine, path, {
        scripted: ['fetchBranches', 'validateSession'],
        input: { search },
        coverage,
        check: (snapshot, step) => {
          const branches = snapshot.context.branches;
          // The kept list is always sorted by `order` (spec 7).
          expect(branches.map((item) => item.order)).toEqual([...branches.map((item) => item.order)].sort());
          if (snapshot.matches('ready') && tokenValidWhenReady === null) {
            tokenValidWhenReady = snapshot.context.tokenValid;
            // Startup opens at most one modal, by the priority of spec 2.5.
            expect(snapshot.context.modal).toBe(chooseStartupModal(search, snapshot.context.tokenValid));
          }
          if ((step.event.type as string) === 'modal.closed') expect(snapshot.context.modal).toBeNull();
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
