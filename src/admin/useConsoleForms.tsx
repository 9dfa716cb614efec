import type { ReactNode } from 'react';
import type { AnyActorLogic, AnyStateMachine, InputFrom } from 'xstate';
import { createAdminCouponActors } from '../../machines/adminCoupon.actors.ts';
import { adminCouponMachine } from '../../machines/adminCoupon.machine.ts';
import { createAdminOperatorActors } from '../../machines/adminOperator.actors.ts';
import { adminOperatorMachine } from '../../machines/adminOperator.machine.ts';
import type { ApiClient } from '../../machines/api.ts';
import { createFlowBinding } from '../app/binding.tsx';
import { useAdmin } from './context.tsx';
import type { AdminRuntime } from './runtime.ts';

/** What a console form's flow is given: the console (its client, its session) and what to do once it made a record. */
type FormPorts = { admin: AdminRuntime; created: () => void };

/**
 * The binding of a console form that makes a record (a flow with no input, its calls over the console's own
 * client, `sessionEnded` and `created` actions): its provider takes `created` (the page reloads its list).
 */
function createFormBinding<TMachine extends AnyStateMachine>(
  machine: TMachine,
  actorsOf: (api: ApiClient) => Record<string, AnyActorLogic>,
) {
  const binding = createFlowBinding(
    machine,
    (_runtime, ports: FormPorts) =>
      machine.provide({
        actors: actorsOf(ports.admin.api),
        actions: { sessionEnded: ports.admin.sessionEnded, created: ports.created },
      }) as TMachine,
  );
  function Provider({ created, children }: { created: () => void; children: ReactNode }) {
    const admin = useAdmin();
    return (
      <binding.Provider input={undefined as InputFrom<TMachine>} ports={{ admin, created }}>
        {children}
      </binding.Provider>
    );
  }
  return { Provider, useSelector: binding.useSelector, useSend: binding.useSend };
}

/** The new-operator form (machines/adminOperator.machine.ts). */
const newOperator = createFormBinding(adminOperatorMachine, createAdminOperatorActors);
export const NewOperatorProvider = newOperator.Provider;
export const useNewOperatorSelector = newOperator.useSelector;
export const useNewOperatorSend = newOperator.useSend;

/** The new-coupon form (machines/adminCoupon.machine.ts). */
const newCoupon = createFormBinding(adminCouponMachine, createAdminCouponActors);
export const NewCouponProvider = newCoupon.Provider;
export const useNewCouponSelector = newCoupon.useSelector;
export const useNewCouponSend = newCoupon.useSend;
