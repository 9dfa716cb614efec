import { createBookingActors } from '../../machines/booking.actors.ts';
import { bookingMachine } from '../../machines/booking.machine.ts';
import { creditCoverMachine } from '../../machines/creditCover.machine.ts';
import { sessionChanges } from '../../machines/session.changes.ts';
import { createFlowBinding } from '../app/binding.tsx';

/**
 * The booking flow's binding (machines/booking.machine.ts): one branch's calendar, slots, coupon and payment, and
 * the member's credit against the basket (its cover child, machines/creditCover.machine.ts).
 */
export const bookingFlow = createFlowBinding(bookingMachine, (runtime, ports: { openLogin: () => void }) => {
  const { previewCreditCover, ...actors } = createBookingActors(runtime.api);
  return bookingMachine.provide({
    actors: {
      ...actors,
      sessionChanges: sessionChanges(runtime.session),
      creditCover: creditCoverMachine.provide({ actors: { previewCreditCover } }),
    },
    actions: { requestLogin: ports.openLogin },
  });
});
