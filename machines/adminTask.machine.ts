import { assign } from 'xstate';
import { errorOf } from './adminErrors.ts';
import { adminMachineSetup } from './adminMachine.ts';
import type { Feedback } from './feedback.ts';
import { placeholder } from './placeholder.ts';
import { machineTypes } from './machine-types.ts';

// What is asked and answered is opaque to the machine: each view knows its own (`useAdminTask` types them).
export type AdminTaskContext = {
  input: unknown;
  output: unknown;
  error: Feedback | null;
};

export type AdminTaskEvent =
  { type: 'task.ask'; input: unknown } | { type: 'task.confirm' } | { type: 'task.dismiss' };

/**
 * One change an operator makes that needs no form of its own (resend a door code, unblock, reopen, export,
 * erase, save a price grid): asked, confirmed, run once. While it runs nothing can ask again, so a double click
 * never sends it twice; the answer is kept for the view (`done`) until dismissed. `done` is reported to the
 * console (`completed`) so the page behind reloads.
 */
export const adminTaskMachine = adminMachineSetup({
  types: machineTypes<AdminTaskContext, AdminTaskEvent>(),
  calls: { run: placeholder<unknown, unknown>('run') },
  reports: 'completed',
  fallback: 'generic',
}).createMachine({
  id: 'adminTask',
  context: { input: null, output: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'task.ask': {
          target: 'confirming',
          actions: assign({ input: ({ event }) => event.input, output: null, error: null }),
        },
      },
    },
    confirming: {
      on: {
        // The question's details may still change (a reason typed) before it is confirmed.
        'task.ask': { actions: assign({ input: ({ event }) => event.input, error: null }) },
        'task.confirm': 'running',
        'task.dismiss': { target: 'idle', actions: assign({ input: null, error: null }) },
      },
    },
    running: {
      invoke: {
        id: 'run',
        src: 'run',
        input: ({ context }: { context: AdminTaskContext }) => context.input,
        onDone: { target: 'done', actions: [assign({ output: ({ event }) => event.output }), 'completed'] },
        onError: [
          {
            guard: { type: 'isSessionEnd', params: errorOf },
            target: 'idle',
            actions: ['sessionEnded', assign({ input: null })],
          },
          {
            target: 'confirming',
            actions: { type: 'failed', params: errorOf },
          },
        ],
      },
    },
    done: {
      on: {
        'task.dismiss': { target: 'idle', actions: assign({ input: null, output: null }) },
        'task.ask': {
          target: 'confirming',
          actions: assign({ input: ({ event }) => event.input, output: null, error: null }),
        },
      },
    },
  },
});
