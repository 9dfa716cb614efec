import { assign, setup } from 'xstate';
import { hasErrorCode } from './api.ts';
import { failureFeedback, type Feedback } from './feedback.ts';
import { placeholder } from './placeholder.ts';
import { machineTypes } from './machine-types.ts';

export type AdminSetupContext = {
  setupToken: string;
  password: string;
  confirmPassword: string;
  error: Feedback | null;
};

export type AdminSetupEvent =
  { type: 'field.change'; field: 'password' | 'confirmPassword'; value: string } | { type: 'setup.submit' };

/**
 * Choosing the password from the one-time link `operator add` printed. Two different passwords make no call;
 * a link already used or expired is a state of its own (the operator needs a new link, not another attempt).
 */
export const adminSetupMachine = setup({
  types: machineTypes<AdminSetupContext, AdminSetupEvent, { setupToken: string }>(),
  actors: {
    setPassword: placeholder<void, { setupToken: string; password: string }>('setPassword'),
  },
  guards: {
    isFilled: ({ context }) => context.password !== '',
    passwordsDiffer: ({ context }) => context.password !== context.confirmPassword,
  },
}).createMachine({
  id: 'adminSetup',
  context: ({ input }) => ({ setupToken: input.setupToken, password: '', confirmPassword: '', error: null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'field.change': {
          actions: assign(({ event }) => ({ [event.field]: event.value, error: null })),
        },
        'setup.submit': [
          {
            guard: 'passwordsDiffer',
            actions: assign({ error: { key: 'passwords-do-not-match' } as Feedback }),
          },
          { guard: 'isFilled', target: 'saving' },
        ],
      },
    },
    saving: {
      invoke: {
        id: 'setPassword',
        src: 'setPassword',
        input: ({ context }) => ({ setupToken: context.setupToken, password: context.password }),
        onDone: { target: 'done', actions: assign({ password: '', confirmPassword: '' }) },
        onError: [
          {
            guard: ({ event }) => hasErrorCode(event.error, 'invalid_setup_token'),
            target: 'linkInvalid',
          },
          {
            target: 'editing',
            actions: assign({ error: ({ event }) => failureFeedback(event.error, 'generic') }),
          },
        ],
      },
    },
    done: { type: 'final' },
    linkInvalid: { type: 'final' },
  },
});
