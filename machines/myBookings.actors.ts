import { fromPromise } from 'xstate';
import { expectData, expectOk, type ApiClient } from './api.ts';
import type { CancelRequest } from './myBookings.machine.ts';
import type { Booking } from './myBookings.selectors.ts';

export function createMyBookingsActors(api: ApiClient) {
  return {
    loadBookings: fromPromise<Booking[]>(() => expectData(api.GET('/bookings/my-bookings'))),
    cancelBookings: fromPromise<void, CancelRequest>(({ input }) =>
      expectOk(api.POST('/bookings/cancel-bookings', { body: input })),
    ),
    resendCode: fromPromise<void, { booking_id: number }>(({ input }) =>
      expectOk(api.POST('/bookings/resend-code', { body: input })),
    ),
  };
}
