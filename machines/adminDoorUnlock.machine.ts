import { assign } from 'xstate';
import { failedBackTo } from './adminErrors.ts';
import { adminMachineSetup } from './adminMachine.ts';
import type { Feedback } from './feedback.ts';
import { machineTypes } from './machine-types.ts';
import { placeholder } from './placeholder.ts';

export type AdminDoorUnlockInput = { branchId: number; deviceId: string };

export type AdminDoorUnlockContext = AdminDoorUnlockInput & {
  reason: string;
  /** The id of the press being sent: one per 'Open now', kept while its call runs (a resent call is a replay). */
  requestId: string | null;
  error: Feedback | null;
};

export type AdminDoorUnlockEvent =
  { type: 'reason.change'; value: string } | { type: 'unlock.submit' } | { type: 'unlock.again' };

export type AdminDoorUnlockRequest = AdminDoorUnlockInput & { reason: string; requestId: string };

/** A reason is required (it goes to the audit log with the attempt). */
export function isUnlockReady(context: Pick<AdminDoorUnlockContext, 'reason'>): boolean {
  return context.reason.trim() !== '';
}

/**
 * 'Open now' on a door (issue 32, item 1): the operator states why, presses once, and waits for the door's
 * answer. Each press is one attempt with an id of its own (the server answers a replayed id with the first
 * attempt, never a second opening); while it runs nothing else can be sent; a refusal (offline, not confirmed)
 * is shown with the reason kept, and pressing again is a new attempt. Opened, the page reloads (`opened`).
 */
export const adminDoorUnlockMachine = adminMachineSetup({
  types: machineTypes<AdminDoorUnlockContext, AdminDoorUnlockEvent, AdminDoorUnlockInput>(),
  calls: { unlockDoor: placeholder<void, AdminDoorUnlockRequest>('unlockDoor') },
  reports: 'opened',
  fallback: 'generic',
  guards: { isReady: ({ context }) => isUnlockReady(context) },
}).createMachine({
  id: 'adminDoorUnlock',
  context: ({ input }) => ({ ...input, reason: '', requestId: null, error: null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'reason.change': { actions: assign({ reason: ({ event }) => event.value, error: null }) },
        'unlock.submit': {
          guard: 'isReady',
          target: 'unlocking',
          actions: assign({ requestId: () => globalThis.crypto.randomUUID(), error: null }),
        },
      },
    },
    unlocking: {
      invoke: {
        id: 'unlockDoor',
        src: 'unlockDoor',
        input: ({ context }) => ({
          branchId: context.branchId,
          deviceId: context.deviceId,
          reason: context.reason.trim(),
          requestId: context.requestId ?? '',
        }),
        onDone: { target: 'opened', actions: 'opened' },
        onError: failedBackTo('editing'),
      },
    },
    // The dialog says so and closes; another opening is another dialog, another flow.
    opened: { type: 'final' },
  },
});
