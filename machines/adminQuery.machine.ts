import { assign, setup } from 'xstate';
import { adminFailure } from './adminErrors.ts';
import { failureFeedback, type Feedback } from './feedback.ts';
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
export const adminQueryMachine = setup({
  types: machineTypes<AdminQueryContext, AdminQueryEvent, { params: unknown }>(),
  actors: {
    load: placeholder<unknown, unknown>('load'),
  },
  actions: {
    sessionEnded: () => {},
  },
  guards: {
    isSessionEnd: (_, params: { error: unknown }) => adminFailure(params.error) === 'session',
    isForbidden: (_, params: { error: unknown }) => adminFailure(params.error) === 'forbidden',
  },
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
            guard: { type: 'isSessionEnd', params: ({ event }) => ({ error: event.error }) },
            target: 'failed',
            actions: 'sessionEnded',
          },
          {
            guard: { type: 'isForbidden', params: ({ event }) => ({ error: event.error }) },
            target: 'forbidden',
            actions: assign({ data: null }),
          },
          {
            target: 'failed',
            actions: assign({ error: ({ event }) => failureFeedback(event.error, 'generic') }),
          },
        ],
      },
    },
    loaded: { on: { 'query.reload': 'loading' } },
    failed: { on: { 'query.reload': 'loading' } },
    forbidden: {},
  },
});
