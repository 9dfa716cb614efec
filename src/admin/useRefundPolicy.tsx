import type { ReactNode } from 'react';
import type { RefundRatios } from '../../machines/adminConsole.actors.ts';
import { createAdminRefundPolicyActors } from '../../machines/adminRefundPolicy.actors.ts';
import { adminRefundPolicyMachine } from '../../machines/adminRefundPolicy.machine.ts';
import { createFlowBinding } from '../app/binding.tsx';
import { useAdmin } from './context.tsx';
import type { AdminRuntime } from './runtime.ts';

/** The refund policy editor's binding (machines/adminRefundPolicy.machine.ts), over the console's own client. */
const refundPolicy = createFlowBinding(adminRefundPolicyMachine, (_runtime, ports: { admin: AdminRuntime }) =>
  adminRefundPolicyMachine.provide({
    actors: createAdminRefundPolicyActors(ports.admin.api),
    actions: { sessionEnded: ports.admin.sessionEnded },
  }),
);

export const useRefundPolicySelector = refundPolicy.useSelector;
export const useRefundPolicySend = refundPolicy.useSend;
export const useRefundPolicyCan = refundPolicy.useCan;

export function RefundPolicyProvider({ ratios, children }: { ratios: RefundRatios; children: ReactNode }) {
  const admin = useAdmin();
  return (
    <refundPolicy.Provider input={{ ratios }} ports={{ admin }}>
      {children}
    </refundPolicy.Provider>
  );
}
