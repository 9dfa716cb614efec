import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import { accountDeletionMachine } from '../../machines/accountDeletion.machine.ts';
import { booking } from './bookings-fixtures.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';

type Event = EventFrom<typeof accountDeletionMachine>;
// What the user does in the settings tab and the deletion call's answers (done, refused, server down).
const EVENTS = [
  { type: 'deletion.open' },
  // The upcoming bookings read (one cancelable, one already past), or not read.
  {
    type: 'xstate.done.actor.loadUpcoming',
    output: [booking(3, { refundable_eur: 0 }), booking(1, { is_cancelable: false })],
  },
  { type: 'xstate.error.actor.loadUpcoming', error: new ApiError('service_unavailable') },
  { type: 'deletion.cancel' },
  { type: 'deletion.confirm' },
  { type: 'xstate.done.actor.deleteAccount' },
  {
    type: 'xstate.error.actor.deleteAccount',
    error: new ApiError('unauthorized', 'Your session has ended.'),
  },
  { type: 'xstate.error.actor.deleteAccount', error: new ApiError('service_unavailable') },
] as unknown as Event[];

const coverage = coverageOf(accountDeletionMachine);
afterAll(() => coverage.save());

describe('account deletion machine, model-based', () => {
  const paths = generatePaths(accountDeletionMachine, {
    events: EVENTS,
    serializeState: (state) =>
      `${JSON.stringify(state.value)} error:${state.context.error !== null} read:${state.context.upcoming !== null}`,
  });

  for (const path of paths) {
    it.concurrent(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      const loggedOut: number[] = [];
      let deletions = 0;
      await replayPath(accountDeletionMachine, path, {
        scripted: ['loadUpcoming', 'deleteAccount'],
        coverage,
        provide: { actions: { accountDeleted: () => loggedOut.push(1) } },
        check: (snapshot, step) => {
          const type = step.event.type as string;
          if (type === 'xstate.done.actor.deleteAccount') deletions += 1;
          // The user is logged out once per deleted account, never for a refused or cancelled deletion.
          expect(loggedOut.length).toBe(deletions);
          // A closed modal shows no error, so opening it again starts clean.
          if (!snapshot.matches('confirming')) expect(snapshot.context.error).toBeNull();
          // Opening reads the bookings, only a confirmation deletes: no call runs while closed or asking.
          const calls = Object.keys(snapshot.children).length;
          expect(calls).toBe(snapshot.matches('deleting') || snapshot.matches('loading') ? 1 : 0);
          // What the dialog lists is what the deletion cancels: the cancelable bookings only.
          if (type === 'xstate.done.actor.loadUpcoming')
            expect(snapshot.context.upcoming?.map((item) => item.id)).toEqual([3]);
          if (type === 'deletion.open') expect(snapshot.context.upcoming).toBeNull();
          if (type === 'deletion.cancel') expect(snapshot.matches('deleting')).toBe(false);
        },
      });
    });
  }
});

describe('account deletion machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});
