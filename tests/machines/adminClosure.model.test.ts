import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import {
  adminClosureMachine,
  isClosureComplete,
  type ClosureRequest,
} from '../../machines/adminClosure.machine.ts';
import { ApiError } from '../../machines/api.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';

type Event = EventFrom<typeof adminClosureMachine>;
type Snapshot = SnapshotFrom<typeof adminClosureMachine>;

const preview = { slots: 5, bookings: [], refund_total_eur: 15 };
const EVENTS = [
  { type: 'branch.change', branchId: 1, timeZone: 'Europe/Lisbon' },
  { type: 'branch.change', branchId: null, timeZone: 'UTC' },
  { type: 'field.change', field: 'from', value: '2026-11-24T18:00' },
  { type: 'field.change', field: 'to', value: '2026-11-24T23:00' },
  { type: 'field.change', field: 'to', value: '2026-11-24T17:00' },
  { type: 'field.change', field: 'reason', value: 'Water leak' },
  { type: 'closure.preview' },
  { type: 'closure.back' },
  { type: 'closure.confirm' },
  { type: 'closure.again' },
  { type: 'xstate.done.actor.previewClosure', output: preview },
  { type: 'xstate.error.actor.previewClosure', error: new ApiError('branch_not_found', 'No such branch.') },
  { type: 'xstate.error.actor.previewClosure', error: new ApiError('unauthorized', 'Session ended.') },
  { type: 'xstate.done.actor.closeBranch' },
  { type: 'xstate.error.actor.closeBranch', error: new ApiError('service_unavailable') },
  { type: 'xstate.error.actor.closeBranch', error: new ApiError('unauthorized', 'Session ended.') },
] as unknown as Event[];

const coverage = coverageOf(adminClosureMachine);
afterAll(() => coverage.save());

describe('branch closure machine, model-based', () => {
  const paths = generatePaths(adminClosureMachine, {
    events: EVENTS,
    serializeState: (state) =>
      `${JSON.stringify(state.value)} ${JSON.stringify(state.context.fields)} preview:${state.context.preview !== null} error:${state.context.error !== null}`,
    maxStatesForSimplePaths: 0,
  });
  for (const path of paths) {
    it.concurrent(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      const calls: { id: string; request: ClosureRequest }[] = [];
      let closed = 0;
      let closes = 0;
      let previous: Snapshot | null = null;
      await replayPath(adminClosureMachine, path, {
        scripted: ['previewClosure', 'closeBranch'],
        coverage,
        provide: { actions: { closed: () => (closed += 1) } },
        onCall: (id, request) => calls.push({ id, request: request as ClosureRequest }),
        check: (snapshot, step) => {
          const type = step.event.type as string;
          // Only a branch with a period that ends after it starts, and a reason, is previewed.
          if (type === 'closure.preview' && previous)
            expect(snapshot.matches('previewing')).toBe(isClosureComplete(previous.context.fields));
          // The branch is closed only for the period whose affected bookings the operator saw.
          if (type === 'closure.confirm') {
            const preview = calls.filter((call) => call.id === 'previewClosure').at(-1);
            expect(calls.at(-1)).toEqual({ id: 'closeBranch', request: preview?.request });
            expect(previous?.matches('reviewing')).toBe(true);
          }
          // The list shown always belongs to the period on the form.
          if (snapshot.matches('editing')) expect(snapshot.context.preview).toBeNull();
          // Each closure the server confirms is reported once, so the pages behind reload.
          if (type === 'xstate.done.actor.closeBranch') closes += 1;
          expect(closed).toBe(closes);
          previous = snapshot;
        },
      });
    });
  }
});

describe('branch closure machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});
