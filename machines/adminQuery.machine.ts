import { assign } from 'xstate';
import { errorOf } from './adminErrors.ts';
import { adminMachineSetup } from './adminMachine.ts';
import type { Feedback } from './feedback.ts';
import { placeholder } from './placeholder.ts';
import { machineTypes } from './machine-types.ts';

// Filters and answers are opaque to the machine: each view knows its own (`useAdminQuery` types them).
export type AdminQueryContext = {
  params: unknown;
  data: unknown;
  error: Feedback | null;
};

export type AdminQueryEvent = { type: 'query.change'; params: unknown } | { type: 'query.reload' };

/**
 * Every list and page of the console reads through one of these: load with the current filters, show the
 * answer, load again when a filter changes or on demand. A new filter while a load runs drops the old load
 * (its answer would show results for filters no longer on screen). The last answer stays on screen while the
 * next one loads. A refusal by role is `forbidden` (the view says the operator's role cannot see it); an
 * ended session is reported to the console (`sessionEnded`) and the login opens.
 */
export const adminQueryMachine = adminMachineSetup({
  types: machineTypes<AdminQueryContext, AdminQueryEvent, { params: unknown }>(),
  calls: { load: placeholder<unknown, unknown>('load') },
  fallback: 'generic',
}).createMachine({
  id: 'adminQuery',
  context: ({ input }) => ({ params: input.params, data: null, error: null }),
  initial: 'loading',
  on: {
    'query.change': {
      target: '.loading',
      reenter: true,
      actions: assign({ params: ({ event }) => event.params }),
    },
  },
  states: {
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }: { context: AdminQueryContext }) => context.params,
        onDone: { target: 'loaded', actions: assign({ data: ({ event }) => event.output, error: null }) },
        onError: [
          {
            guard: { type: 'isSessionEnd', params: errorOf },
            target: 'failed',
            actions: 'sessionEnded',
          },
          {
            guard: { type: 'isForbidden', params: errorOf },
            target: 'forbidden',
            actions: assign({ data: null }),
          },
          {
            target: 'failed',
            actions: { type: 'failed', params: errorOf },
          },
        ],
      },
    },
    loaded: { on: { 'query.reload': 'loading' } },
    failed: { on: { 'query.reload': 'loading' } },
    forbidden: {},
  },
});
