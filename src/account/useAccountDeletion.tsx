import type { ReactNode } from 'react';
import { createAccountDeletionActors } from '../../machines/accountDeletion.actors.ts';
import { accountDeletionMachine } from '../../machines/accountDeletion.machine.ts';
import { createFlowBinding } from '../app/binding.tsx';

/** The account deletion's binding (machines/accountDeletion.machine.ts). */
const accountDeletion = createFlowBinding(
  accountDeletionMachine,
  (runtime, ports: { accountDeleted: () => void }) =>
    accountDeletionMachine.provide({
      actors: createAccountDeletionActors(runtime.api),
      actions: { accountDeleted: ports.accountDeleted },
    }),
);

export const useAccountDeletionSelector = accountDeletion.useSelector;
export const useAccountDeletionSend = accountDeletion.useSend;

export function AccountDeletionProvider({
  accountDeleted,
  children,
}: {
  accountDeleted: () => void;
  children: ReactNode;
}) {
  return (
    <accountDeletion.Provider input={undefined} ports={{ accountDeleted }}>
      {children}
    </accountDeletion.Provider>
  );
}
