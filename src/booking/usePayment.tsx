import { createPaymentActors } from '../../machines/payment.actors.ts';
import { paymentMachine } from '../../machines/payment.machine.ts';
import { sessionChanges } from '../../machines/session.changes.ts';
import { createFlowBinding } from '../app/binding.tsx';

/** The payment result's binding (machines/payment.machine.ts): the return from the checkout. */
export const paymentFlow = createFlowBinding(paymentMachine, (runtime, ports: { openLogin: () => void }) =>
  paymentMachine.provide({
    actors: { ...createPaymentActors(runtime.api), sessionChanges: sessionChanges(runtime.session) },
    actions: { requestLogin: ports.openLogin },
  }),
);
