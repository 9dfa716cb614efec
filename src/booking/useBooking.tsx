import { createBookingActors } from '../../machines/booking.actors.ts';
import { bookingMachine } from '../../machines/booking.machine.ts';
import { sessionChanges } from '../../machines/session.changes.ts';
import { createFlowBinding } from '../app/binding.tsx';

/** The booking flow's binding (machines/booking.machine.ts): one branch's calendar, slots, coupon and payment. */
export const bookingFlow = createFlowBinding(bookingMachine, (runtime, ports: { openLogin: () => void }) =>
  bookingMachine.provide({
    actors: { ...createBookingActors(runtime.api), sessionChanges: sessionChanges(runtime.session) },
    actions: { requestLogin: ports.openLogin },
  }),
);
