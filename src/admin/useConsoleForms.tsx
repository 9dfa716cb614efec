import type { ComponentType, ReactNode } from 'react';
import { createAdminCouponActors } from '../../machines/adminCoupon.actors.ts';
import { adminCouponMachine } from '../../machines/adminCoupon.machine.ts';
import { createAdminOperatorActors } from '../../machines/adminOperator.actors.ts';
import { adminOperatorMachine } from '../../machines/adminOperator.machine.ts';
import { createFlowBinding } from '../app/binding.tsx';
import { useAdmin } from './context.tsx';
import type { AdminRuntime } from './runtime.ts';

/** What a console form's flow is given: the console (its client, its session) and what to do once it made a record. */
type FormPorts = { admin: AdminRuntime; created: () => void };

/** The provider of a form's flow: `created` runs once it made a record (the page reloads its list). */
function formProvider(Provider: ComponentType<{ input: undefined; ports: FormPorts; children: ReactNode }>) {
  return function FormProvider({ created, children }: { created: () => void; children: ReactNode }) {
    const admin = useAdmin();
    return (
      <Provider input={undefined} ports={{ admin, created }}>
        {children}
      </Provider>
    );
  };
}

/** The new-operator form's binding (machines/adminOperator.machine.ts), over the console's own client. */
const newOperator = createFlowBinding(adminOperatorMachine, (_runtime, ports: FormPorts) =>
  adminOperatorMachine.provide({
    actors: createAdminOperatorActors(ports.admin.api),
    actions: { sessionEnded: ports.admin.sessionEnded, created: ports.created },
  }),
);

export const NewOperatorProvider = formProvider(newOperator.Provider);
export const useNewOperatorSelector = newOperator.useSelector;
export const useNewOperatorSend = newOperator.useSend;

/** The new-coupon form's binding (machines/adminCoupon.machine.ts), over the console's own client. */
const newCoupon = createFlowBinding(adminCouponMachine, (_runtime, ports: FormPorts) =>
  adminCouponMachine.provide({
    actors: createAdminCouponActors(ports.admin.api),
    actions: { sessionEnded: ports.admin.sessionEnded, created: ports.created },
  }),
);

export const NewCouponProvider = formProvider(newCoupon.Provider);
export const useNewCouponSelector = newCoupon.useSelector;
export const useNewCouponSend = newCoupon.useSend;
