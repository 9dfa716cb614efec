import { createActorContext } from '@xstate/react';
import { useCallback, useState, type ReactNode } from 'react';
import type { AnyStateMachine, EventFrom, InputFrom } from 'xstate';
import { useRuntime } from './context.tsx';
import type { Runtime } from './runtime.ts';

// SnapshotFrom of a generic machine stays unresolved; a machine's snapshot has can().
type MachineSnapshotOf<TMachine extends AnyStateMachine> = { can: (event: EventFrom<TMachine>) => boolean };

/**
 * A flow's binding to React, made the one way every flow is (ARCHITECTURE.md, `src/<feature>/`): an actor
 * context over the flow's machine. `Provider` runs the machine for the components under it, provided once from
 * the runtime by `provide` (its actors over the API client, its actions, the session bridge); components read
 * the flow with `useSelector` (and `useCan` for what the machine takes now) and change it with `useSend`.
 */
export function createFlowBinding<TMachine extends AnyStateMachine, TPorts = Record<never, never>>(
  machine: TMachine,
  provide: (runtime: Runtime, ports: TPorts) => TMachine,
) {
  const context = createActorContext(machine);

  /** `ports` are what the page gives the flow (opening the login, closing a tab); read when the flow starts. */
  function Provider({
    input,
    ports,
    children,
  }: {
    input: InputFrom<TMachine>;
    ports: TPorts;
    children: ReactNode;
  }) {
    const runtime = useRuntime();
    const [logic] = useState(() => provide(runtime, ports));
    return (
      <context.Provider logic={logic} options={{ input }}>
        {children}
      </context.Provider>
    );
  }

  return {
    Provider,
    useSelector: context.useSelector,
    useSend: () => {
      const actor = context.useActorRef();
      return useCallback((event: EventFrom<TMachine>) => actor.send(event), [actor]);
    },
    /** Whether the machine takes `event` now: what enables a button. */
    useCan: (event: EventFrom<TMachine>) =>
      context.useSelector((state) => (state as MachineSnapshotOf<TMachine>).can(event)),
  };
}
