import { assign, setup } from 'xstate';
import { placeholder } from './placeholder.ts';
import { failureFeedback, type Feedback } from './feedback.ts';
import { machineTypes } from './machine-types.ts';
import type { Booking } from './myBookings.selectors.ts';

/**
 * What the deletion would cancel (issue 30): each upcoming confirmed booking and what its cancellation refunds
 * now, from the member's list of bookings; null when the list could not be read (the dialog then says only that
 * upcoming bookings are cancelled and refunded by the policy).
 */
export type AccountDeletionContext = { error: Feedback | null; upcoming: Booking[] | null };
export type AccountDeletionEvent =
  { type: 'deletion.open' } | { type: 'deletion.cancel' } | { type: 'deletion.confirm' };

/** The bookings a deletion cancels: confirmed and not started (the server's `is_cancelable`), soonest first. */
export function cancelledByDeletion(bookings: readonly Booking[]): Booking[] {
  return bookings
    .filter((booking) => booking.is_cancelable)
    .sort((a, b) => Date.parse(a.time_slot_data.start_time) - Date.parse(b.time_slot_data.start_time));
}

/**
 * Deleting the account (docs/decisions.md, 'Client'): a confirmation modal that first reads what the deletion
 * would cancel and refund; on success the user is logged out (`accountDeleted`, provided by the app) and the
 * modal closes and resets.
 */
export const accountDeletionMachine = setup({
  types: machineTypes<AccountDeletionContext, AccountDeletionEvent>(),
  actors: {
    loadUpcoming: placeholder<Booking[]>('loadUpcoming'),
    deleteAccount: placeholder<void>('deleteAccount'),
  },
  actions: {
    accountDeleted: () => {},
    reset: assign({ error: null }),
  },
}).createMachine({
  id: 'accountDeletion',
  context: { error: null, upcoming: null },
  initial: 'closed',
  states: {
    closed: {
      on: { 'deletion.open': { target: 'loading', actions: ['reset', assign({ upcoming: null })] } },
    },
    loading: {
      invoke: {
        id: 'loadUpcoming',
        src: 'loadUpcoming',
        onDone: {
          target: 'confirming',
          actions: assign(({ event }) => ({ upcoming: cancelledByDeletion(event.output) })),
        },
        // Not read: the dialog still asks, with the general sentence.
        onError: { target: 'confirming' },
      },
      on: { 'deletion.cancel': { target: 'closed', actions: 'reset' } },
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
