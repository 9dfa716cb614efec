import { createAccountDeletionActors } from '../../machines/accountDeletion.actors.ts';
import { accountDeletionMachine } from '../../machines/accountDeletion.machine.ts';
import { createFlowBinding } from '../app/binding.tsx';

/** The account deletion's binding (machines/accountDeletion.machine.ts). */
export const accountDeletionFlow = createFlowBinding(
  accountDeletionMachine,
  (runtime, ports: { accountDeleted: () => void }) =>
    accountDeletionMachine.provide({
      actors: createAccountDeletionActors(runtime.api),
      actions: { accountDeleted: ports.accountDeleted },
    }),
);
