import { assign, setup } from 'xstate';
import { placeholder } from './placeholder.ts';
import { failureFeedback, type Feedback } from './feedback.ts';
import { machineTypes } from './machine-types.ts';

export type AccountDeletionContext = { error: Feedback | null };
export type AccountDeletionEvent =
  { type: 'deletion.open' } | { type: 'deletion.cancel' } | { type: 'deletion.confirm' };

/**
 * Deleting the account (docs/decisions.md, 'Client'): a confirmation modal; on success the user
 * is logged out (`accountDeleted`, provided by the app) and the modal closes and resets.
 */
export const accountDeletionMachine = setup({
  types: machineTypes<AccountDeletionContext, AccountDeletionEvent>(),
  actors: {
    deleteAccount: placeholder<void>('deleteAccount'),
  },
  actions: {
    accountDeleted: () => {},
    reset: assign({ error: null }),
  },
}).createMachine({
  id: 'accountDeletion',
  context: { error: null },
  initial: 'closed',
  states: {
    closed: {
      on: { 'deletion.open': { target: 'confirming', actions: 'reset' } },
    },
    confirming: {
      on: {
        'deletion.cancel': { target: 'closed', actions: 'reset' },
        'deletion.confirm': { target: 'deleting', actions: 'reset' },
      },
    },
    deleting: {
      invoke: {
        id: 'deleteAccount',
        src: 'deleteAccount',
        onDone: { target: 'closed', actions: ['reset', 'accountDeleted'] },
        onError: {
          target: 'confirming',
          actions: assign(({ event }) => ({
            error: failureFeedback(event.error, 'failed-to-delete-account'),
          })),
        },
      },
    },
  },
});
