import { fromPromise } from 'xstate';
import { expectData, type ApiClient } from './api.ts';
import { createBookingActors } from './booking.actors.ts';
import type { MoveAnswer, MoveRequest } from './move.machine.ts';
import { createMyBookingsActors } from './myBookings.actors.ts';

/** The move flow's calls over the typed client: the booking flow's slot calls, My bookings' list, the move. */
export function createMoveActors(api: ApiClient) {
  const booking = createBookingActors(api);
  return {
    loadBookings: createMyBookingsActors(api).loadBookings,
    loadLocalTime: booking.loadLocalTime,
    loadSlots: booking.loadSlots,
    moveBooking: fromPromise<MoveAnswer, MoveRequest>(async ({ input }) => {
      const { booking_id, ...body } = input;
      const data = await expectData(
        api.POST('/bookings/{booking_id}/move', { params: { path: { booking_id } }, body }),
      );
      return {
        status: data.status,
        refundedEur: data.refunded_eur,
        clientSecret: data.checkout_session?.clientSecret ?? null,
      };
    }),
  };
}
