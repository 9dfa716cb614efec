import type { ReactNode } from 'react';
import { createAdminOperatorActors } from '../../machines/adminOperator.actors.ts';
import { adminOperatorMachine } from '../../machines/adminOperator.machine.ts';
import { createFlowBinding } from '../app/binding.tsx';
import { useAdmin } from './context.tsx';
import type { AdminRuntime } from './runtime.ts';

/** The new-operator form's binding (machines/adminOperator.machine.ts), over the console's own client. */
const newOperator = createFlowBinding(
  adminOperatorMachine,
  (_runtime, ports: { admin: AdminRuntime; created: () => void }) =>
    adminOperatorMachine.provide({
      actors: createAdminOperatorActors(ports.admin.api),
      actions: { sessionEnded: ports.admin.sessionEnded, created: ports.created },
    }),
);

export const useNewOperatorSelector = newOperator.useSelector;
export const useNewOperatorSend = newOperator.useSend;
export const useNewOperatorCan = newOperator.useCan;

/** `created` runs once an operator is made (the page reloads its list). */
export function NewOperatorProvider({ created, children }: { created: () => void; children: ReactNode }) {
  const admin = useAdmin();
  return (
    <newOperator.Provider input={undefined} ports={{ admin, created }}>
      {children}
    </newOperator.Provider>
  );
}
