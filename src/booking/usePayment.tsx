import type { ReactNode } from 'react';
import { createPaymentActors } from '../../machines/payment.actors.ts';
import { paymentMachine } from '../../machines/payment.machine.ts';
import { sessionChanges } from '../../machines/session.changes.ts';
import { createFlowBinding } from '../app/binding.tsx';

/** The payment result's binding (machines/payment.machine.ts): the return from the checkout. */
const payment = createFlowBinding(paymentMachine, (runtime, ports: { openLogin: () => void }) =>
  paymentMachine.provide({
    actors: { ...createPaymentActors(runtime.api), sessionChanges: sessionChanges(runtime.session) },
    actions: { requestLogin: ports.openLogin },
  }),
);

export const usePaymentSelector = payment.useSelector;
export const usePaymentSend = payment.useSend;

export function PaymentProvider({
  sessionId,
  openLogin,
  children,
}: {
  sessionId: string;
  openLogin: () => void;
  children: ReactNode;
}) {
  return (
    <payment.Provider input={{ sessionId }} ports={{ openLogin }}>
      {children}
    </payment.Provider>
  );
}
