import type { ReactNode } from 'react';
import { createMyBookingsActors } from '../../machines/myBookings.actors.ts';
import { myBookingsMachine } from '../../machines/myBookings.machine.ts';
import { createFlowBinding } from '../app/binding.tsx';

/** My bookings' binding (machines/myBookings.machine.ts): the lists, the door codes and cancelling. */
const myBookings = createFlowBinding(myBookingsMachine, (runtime) =>
  myBookingsMachine.provide({ actors: createMyBookingsActors(runtime.api) }),
);

export const useMyBookingsSelector = myBookings.useSelector;
export const useMyBookingsSend = myBookings.useSend;

export function MyBookingsProvider({ children }: { children: ReactNode }) {
  return (
    <myBookings.Provider input={undefined} ports={{}}>
      {children}
    </myBookings.Provider>
  );
}
