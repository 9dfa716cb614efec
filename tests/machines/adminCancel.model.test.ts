import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import {
  adminCancelMachine,
  cancelProblem,
  eurosToCents,
  needsApproval,
  refundCentsOf,
  type AdminCancelRequest,
} from '../../machines/adminCancel.machine.ts';
import { ApiError } from '../../machines/api.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';

type Event = EventFrom<typeof adminCancelMachine>;
type Snapshot = SnapshotFrom<typeof adminCancelMachine>;

// A staff member's form: the policy gives 12,50 €, the ceiling is 20 € (a full refund of 25 € goes to the owners).
const input = { bookingId: 41, paidCents: 2500, policyCents: 1250, ceilingCents: 2000 };
// The refund choices, amounts within, at and above what was paid or not an amount, a reason or none.
const EVENTS = [
  { type: 'mode.change', mode: 'policy' },
  { type: 'mode.change', mode: 'full' },
  { type: 'mode.change', mode: 'none' },
  { type: 'mode.change', mode: 'amount' },
  { type: 'amount.change', value: '12,5' },
  { type: 'amount.change', value: '25.00' },
  { type: 'amount.change', value: '25.01' },
  { type: 'amount.change', value: 'ten' },
  { type: 'reason.change', value: 'Door broken on arrival' },
  { type: 'reason.change', value: '  ' },
  { type: 'cancel.submit' },
  { type: 'xstate.done.actor.cancelBooking', output: 'cancelled' },
  { type: 'xstate.done.actor.cancelBooking', output: 'sent-for-approval' },
  {
    type: 'xstate.error.actor.cancelBooking',
    error: new ApiError('booking_not_cancelable', 'Already cancelled.'),
  },
  { type: 'xstate.error.actor.cancelBooking', error: new ApiError('unauthorized', 'Session ended.') },
] as unknown as Event[];

const coverage = coverageOf(adminCancelMachine);
afterAll(() => coverage.save());

describe('admin cancellation machine, model-based', () => {
  const paths = generatePaths(adminCancelMachine, {
    events: EVENTS,
    input,
    serializeState: (state) =>
      `${JSON.stringify(state.value)} ${state.context.mode} ${state.context.amount} ${state.context.reason.trim() !== ''} error:${state.context.error !== null}`,
    maxStatesForSimplePaths: 0,
  });
  for (const path of paths) {
    it.concurrent(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      const requests: AdminCancelRequest[] = [];
      let cancelled = 0;
      let sessionEnds = 0;
      let previous: Snapshot | null = null;
      await replayPath(adminCancelMachine, path, {
        scripted: ['cancelBooking'],
        input,
        coverage,
        provide: { actions: { cancelled: () => (cancelled += 1), sessionEnded: () => (sessionEnds += 1) } },
        onCall: (_, request) => requests.push(request as AdminCancelRequest),
        check: (snapshot, step) => {
          const type = step.event.type as string;
          if (type === 'cancel.submit' && previous) {
            const problem = cancelProblem(previous.context);
            // An amount above what was paid, or an override without a reason, is never sent.
            expect(snapshot.matches('cancelling')).toBe(problem === null);
            if (problem === null) {
              const request = requests.at(-1);
              expect(request?.bookingId).toBe(41);
              expect(request?.refund.mode).toBe(previous.context.mode);
              if (request?.refund.mode === 'amount') {
                expect(request.refund.amount_cents).toBe(eurosToCents(previous.context.amount));
                expect(request.refund.amount_cents).toBeLessThanOrEqual(2500);
              }
              expect(request?.reason).toBe(previous.context.reason.trim());
              expect(request?.reason).not.toBe('');
            }
          }
          // At most one cancellation call is ever under way.
          expect(Object.keys(snapshot.children).length).toBe(snapshot.matches('cancelling') ? 1 : 0);
          // Cancelled or sent to the owners, the flow ends and the page reloads once.
          const ended = snapshot.matches('cancelled') || snapshot.matches('sentForApproval');
          expect(cancelled).toBe(ended ? 1 : 0);
          if (type === 'xstate.done.actor.cancelBooking') {
            const output = (step.event as unknown as { output: string }).output;
            expect(snapshot.matches('sentForApproval')).toBe(output === 'sent-for-approval');
          }
          if (type === 'xstate.error.actor.cancelBooking') {
            const code = (step.event as unknown as { error: ApiError }).error.code;
            // An ended session opens the login; a refusal is shown and the form kept.
            if (code === 'unauthorized') expect(sessionEnds).toBeGreaterThan(0);
            else expect(snapshot.context.error).toEqual({ text: 'Already cancelled.' });
            expect(snapshot.context.mode).toBe(previous?.context.mode);
          }
          previous = snapshot;
        },
      });
    });
  }
});

describe('admin cancellation machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});

describe('a refund above the staff ceiling', () => {
  const form = { ...input, amount: '', reason: 'x' };
  it('is the refund the form asks for, compared with the ceiling; an owner has none', () => {
    expect(refundCentsOf({ ...form, mode: 'policy' })).toBe(1250);
    expect(refundCentsOf({ ...form, mode: 'full' })).toBe(2500);
    expect(refundCentsOf({ ...form, mode: 'none' })).toBe(0);
    expect(refundCentsOf({ ...form, mode: 'amount', amount: '20,01' })).toBe(2001);
    expect(refundCentsOf({ ...form, mode: 'amount', amount: 'dez' })).toBe(0);
    expect(needsApproval({ ...form, mode: 'policy' })).toBe(false);
    expect(needsApproval({ ...form, mode: 'full' })).toBe(true);
    expect(needsApproval({ ...form, mode: 'amount', amount: '20' })).toBe(false);
    expect(needsApproval({ ...form, mode: 'amount', amount: '20,01' })).toBe(true);
    expect(needsApproval({ ...form, mode: 'full', ceilingCents: null })).toBe(false);
  });
});

describe('amounts typed in euros', () => {
  it('read a comma or a point, at most two decimals, and nothing else', () => {
    expect(eurosToCents('12,5')).toBe(1250);
    expect(eurosToCents(' 7.05 ')).toBe(705);
    expect(eurosToCents('0')).toBe(0);
    expect(eurosToCents('1.234')).toBeNull();
    expect(eurosToCents('-1')).toBeNull();
    expect(eurosToCents('')).toBeNull();
  });
});
