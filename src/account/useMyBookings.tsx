import { createMyBookingsActors } from '../../machines/myBookings.actors.ts';
import { myBookingsMachine } from '../../machines/myBookings.machine.ts';
import { createFlowBinding } from '../app/binding.tsx';

/** My bookings' binding (machines/myBookings.machine.ts): the lists, the door codes and cancelling. */
export const myBookingsFlow = createFlowBinding(myBookingsMachine, (runtime) =>
  myBookingsMachine.provide({ actors: createMyBookingsActors(runtime.api) }),
);
