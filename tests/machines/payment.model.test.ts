import { afterAll, describe, expect, it, vi } from 'vitest';
import type { EventFrom } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import { paymentMachine } from '../../machines/payment.machine.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';
import { modelSession } from './model/session.ts';

type Event = EventFrom<typeof paymentMachine>;
// The status call's answers (each status, a 4xx, a network failure) and what the user and the session send.
const EVENTS = [
  { type: 'xstate.done.actor.checkStatus', output: { status: 'complete', clientSecret: null } },
  { type: 'xstate.done.actor.checkStatus', output: { status: 'expired', clientSecret: null } },
  { type: 'xstate.done.actor.checkStatus', output: { status: 'open', clientSecret: 'cs_1_secret_x' } },
  { type: 'xstate.error.actor.checkStatus', error: new ApiError('unauthorized', 'Not authenticated') },
  { type: 'xstate.error.actor.checkStatus', error: new ApiError(null) },
  { type: 'payment.retry' },
  { type: 'payment.failed' },
  { type: 'result.close' },
  { type: 'session.changed', loggedIn: true },
  { type: 'session.changed', loggedIn: false },
] as unknown as Event[];

const coverage = coverageOf(paymentMachine);
afterAll(() => coverage.save());

describe('payment machine, model-based', () => {
  const paths = generatePaths(paymentMachine, {
    events: EVENTS,
    input: { sessionId: 'cs_1' },
    serializeState: (state) =>
      [
        JSON.stringify(state.value),
        `status:${state.context.status}`,
        `secret:${state.context.clientSecret}`,
      ].join(' '),
  });

  for (const path of paths) {
    it(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      const requestLogin = vi.fn();
      // The session changes reach the machine through the app's bridge, from a real session.
      const world = modelSession();
      try {
        await replayPath(paymentMachine, path, {
          scripted: ['checkStatus'],
          input: { sessionId: 'cs_1' },
          coverage,
          provide: { actions: { requestLogin }, actors: { sessionChanges: world.bridge } },
          through: world.through,
          check: (snapshot) => {
            // The checkout is only ever mounted with the secret of an open session.
            if (snapshot.matches('checkout')) {
              expect(snapshot.context.status).toBe('open');
              expect(snapshot.context.clientSecret).not.toBeNull();
            }
            // 'Try again' exists only for an open session.
            if (snapshot.matches('result')) {
              expect(snapshot.can({ type: 'payment.retry' })).toBe(snapshot.context.status === 'open');
            }
            if (snapshot.matches('awaitingLogin')) expect(requestLogin).toHaveBeenCalled();
          },
        });
      } finally {
        world.session.stop();
      }
    });
  }
});

describe('payment machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});
