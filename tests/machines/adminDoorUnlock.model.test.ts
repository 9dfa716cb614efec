import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import {
  adminDoorUnlockMachine,
  isUnlockReady,
  type AdminDoorUnlockRequest,
} from '../../machines/adminDoorUnlock.machine.ts';
import { ApiError } from '../../machines/api.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';

type Event = EventFrom<typeof adminDoorUnlockMachine>;
type Snapshot = SnapshotFrom<typeof adminDoorUnlockMachine>;

const input = { branchId: 3, deviceId: 'virtual-door-3' };
// A reason or a blank one, presses, the door's answers: opened, offline, not confirmed, an ended session.
const EVENTS = [
  { type: 'reason.change', value: 'Member stuck outside' },
  { type: 'reason.change', value: '   ' },
  { type: 'unlock.submit' },
  { type: 'xstate.done.actor.unlockDoor' },
  { type: 'xstate.error.actor.unlockDoor', error: new ApiError('door_offline', 'The door is offline.') },
  { type: 'xstate.error.actor.unlockDoor', error: new ApiError('unauthorized', 'Session ended.') },
] as unknown as Event[];

const coverage = coverageOf(adminDoorUnlockMachine);
afterAll(() => coverage.save());

describe('door unlock machine, model-based', () => {
  const paths = generatePaths(adminDoorUnlockMachine, {
    events: EVENTS,
    input,
    serializeState: (state) =>
      `${JSON.stringify(state.value)} ${state.context.reason.trim() !== ''} error:${state.context.error !== null}`,
    maxStatesForSimplePaths: 0,
  });
  for (const path of paths) {
    it.concurrent(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      const requests: AdminDoorUnlockRequest[] = [];
      let opened = 0;
      let sessionEnds = 0;
      let previous: Snapshot | null = null;
      await replayPath(adminDoorUnlockMachine, path, {
        scripted: ['unlockDoor'],
        input,
        coverage,
        provide: { actions: { opened: () => (opened += 1), sessionEnded: () => (sessionEnds += 1) } },
        onCall: (_, request) => requests.push(request as AdminDoorUnlockRequest),
        check: (snapshot, step) => {
          const type = step.event.type as string;
          if (type === 'unlock.submit' && previous?.matches('editing')) {
            // Never sent without a reason; sent with the reason trimmed and an id of its own.
            expect(snapshot.matches('unlocking')).toBe(isUnlockReady(previous.context));
            if (snapshot.matches('unlocking')) {
              const request = requests.at(-1)!;
              expect(request).toMatchObject({ branchId: 3, deviceId: 'virtual-door-3' });
              expect(request.reason).toBe(previous.context.reason.trim());
              expect(request.requestId).toMatch(/^[0-9a-f-]{36}$/);
              // Each press is a new attempt: no two presses share an id.
              expect(new Set(requests.map((sent) => sent.requestId)).size).toBe(requests.length);
            }
          }
          // At most one opening is ever under way.
          expect(Object.keys(snapshot.children).length).toBe(snapshot.matches('unlocking') ? 1 : 0);
          if (type === 'xstate.done.actor.unlockDoor') expect(opened).toBeGreaterThan(0);
          if (type === 'xstate.error.actor.unlockDoor') {
            const code = (step.event as unknown as { error: ApiError }).error.code;
            if (code === 'unauthorized') expect(sessionEnds).toBeGreaterThan(0);
            else expect(snapshot.context.error).toEqual({ text: 'The door is offline.' });
            // The reason is kept for another press.
            expect(snapshot.context.reason).toBe(previous?.context.reason);
          }
          if (type === 'unlock.again' && previous?.matches('opened'))
            expect(snapshot.context.reason).toBe('');
          previous = snapshot;
        },
      });
    });
  }
});

describe('door unlock machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});
