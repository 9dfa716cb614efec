import type { ReactNode } from 'react';
import { createBookingActors } from '../../machines/booking.actors.ts';
import { bookingMachine } from '../../machines/booking.machine.ts';
import type { Branch } from '../../machines/branches.ts';
import { sessionChanges } from '../../machines/session.changes.ts';
import { temporal } from '../../machines/temporal.ts';
import { createFlowBinding } from '../app/binding.tsx';

/** The booking flow's binding (machines/booking.machine.ts): one branch's calendar, slots, coupon and payment. */
const booking = createFlowBinding(bookingMachine, (runtime, ports: { openLogin: () => void }) =>
  bookingMachine.provide({
    actors: { ...createBookingActors(runtime.api), sessionChanges: sessionChanges(runtime.session) },
    actions: { requestLogin: ports.openLogin },
  }),
);

export const useBookingSelector = booking.useSelector;
export const useBookingSend = booking.useSend;
export const useBookingCan = booking.useCan;

export function BookingProvider({
  branch,
  loggedIn,
  openLogin,
  children,
}: {
  branch: Branch;
  loggedIn: boolean;
  openLogin: () => void;
  children: ReactNode;
}) {
  return (
    <booking.Provider
      input={{
        branchId: branch.id,
        loggedIn,
        fallbackToday: temporal().Now.plainDateISO(branch.time_zone).toString(),
      }}
      ports={{ openLogin }}
    >
      {children}
    </booking.Provider>
  );
}
