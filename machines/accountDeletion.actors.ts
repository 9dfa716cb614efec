import { fromPromise } from 'xstate';
import { expectData, expectOk, type ApiClient } from './api.ts';
import type { Booking } from './myBookings.selectors.ts';

export function createAccountDeletionActors(api: ApiClient) {
  return {
    // The member's bookings as My bookings reads them: every upcoming one (the history is not needed, one at least).
    loadUpcoming: fromPromise<Booking[]>(() =>
      expectData(api.GET('/bookings/my-bookings', { params: { query: { history_limit: 1 } } })),
    ),
    deleteAccount: fromPromise<void>(() => expectOk(api.DELETE('/auth/delete-account'))),
  };
}
