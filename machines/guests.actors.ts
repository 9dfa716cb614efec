import { fromPromise } from 'xstate';
import { expectData, expectOk, type ApiClient } from './api.ts';
import type { Guest, NewGuest } from './guests.machine.ts';

/** A booking's guests over the typed client (issue 31). */
export function createGuestsActors(api: ApiClient) {
  const path = (bookingId: number) => ({ params: { path: { booking_id: bookingId } } });
  return {
    listGuests: fromPromise<Guest[], { bookingId: number }>(({ input }) =>
      expectData(api.GET('/bookings/{booking_id}/guests', path(input.bookingId))),
    ),
    addGuest: fromPromise<Guest, { bookingId: number; guest: NewGuest }>(({ input }) =>
      expectData(api.POST('/bookings/{booking_id}/guests', { ...path(input.bookingId), body: input.guest })),
    ),
    removeGuest: fromPromise<void, { bookingId: number; guestId: number }>(({ input }) =>
      expectOk(
        api.DELETE('/bookings/{booking_id}/guests/{guest_id}', {
          params: { path: { booking_id: input.bookingId, guest_id: input.guestId } },
        }),
      ),
    ),
  };
}
