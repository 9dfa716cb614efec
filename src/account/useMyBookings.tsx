import { createMyBookingsActors } from '../../machines/myBookings.actors.ts';
import { myBookingsMachine, type BookAgainSlot } from '../../machines/myBookings.machine.ts';
import { createFlowBinding } from '../app/binding.tsx';

/**
 * My bookings' binding (machines/myBookings.machine.ts): the lists, the door codes, cancelling, and "Book again",
 * which opens the booking flow through the page's `openBooking`.
 */
export const myBookingsFlow = createFlowBinding(
  myBookingsMachine,
  (runtime, ports: { openBooking: (slot: BookAgainSlot) => void }) =>
    myBookingsMachine.provide({
      actors: createMyBookingsActors(runtime.api),
      actions: { openBooking: (_, params) => ports.openBooking(params.slot) },
    }),
);
