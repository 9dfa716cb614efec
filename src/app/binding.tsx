import { createActorContext, useActorRef, useSelector } from '@xstate/react';
import { useCallback, useState, type ComponentType, type ReactNode } from 'react';
import type { AnyStateMachine, EventFrom, InputFrom, SnapshotFrom } from 'xstate';
import { useRuntime } from './context.tsx';
import type { Runtime } from './runtime.ts';

// SnapshotFrom of a generic machine stays unresolved; a machine's snapshot has can().
type MachineSnapshotOf<TMachine extends AnyStateMachine> = { can: (event: EventFrom<TMachine>) => boolean };

/**
 * What the page gives a flow when it starts: its machine's `input` and the flow's `ports` (opening the login,
 * closing a tab). Each is optional where the flow takes none (a machine without input, a flow without ports).
 */
export type FlowStart<TMachine extends AnyStateMachine, TPorts> = (undefined extends InputFrom<TMachine>
  ? { input?: InputFrom<TMachine> }
  : { input: InputFrom<TMachine> }) &
  (Record<never, never> extends TPorts ? { ports?: TPorts } : { ports: TPorts });

/**
 * A flow's binding to React, made the one way every flow is (ARCHITECTURE.md, `src/<feature>/`): an actor
 * context over the flow's machine. `Provider` runs the machine for the components under it, provided once from
 * the runtime by `provide` (its actors over the API client, its actions, the session bridge), and `withProvider`
 * makes a flow's entry component run it; components read and drive the flow with `useFlow` (the state and
 * `send`), or read one value with `useSelector` and what the machine takes now with `useCan`.
 */
export function createFlowBinding<TMachine extends AnyStateMachine, TPorts = Record<never, never>>(
  machine: TMachine,
  provide: (runtime: Runtime, ports: TPorts) => TMachine,
) {
  const context = createActorContext(machine);

  /** `ports` are read when the flow starts; a flow without ports is given none. */
  function FlowProvider({
    input,
    ports,
    children,
  }: {
    input?: InputFrom<TMachine>;
    ports?: TPorts;
    children: ReactNode;
  }) {
    const runtime = useRuntime();
    const [logic] = useState(() => provide(runtime, ports ?? ({} as TPorts)));
    return (
      <context.Provider logic={logic} options={{ input, inspect: runtime.inspect }}>
        {children}
      </context.Provider>
    );
  }
  // FlowStart says which of input and ports this flow needs; the provider reads them alike.
  const Provider = FlowProvider as (
    props: FlowStart<TMachine, TPorts> & { children: ReactNode },
  ) => ReactNode;

  /**
   * `Component` as the flow's entry: it renders inside its own `Provider`, started from its props by `start`
   * (left out for a flow that needs nothing from the page).
   */
  function withProvider<TProps extends object>(
    Component: ComponentType<TProps>,
    ...[start]: Record<never, never> extends FlowStart<TMachine, TPorts>
      ? [start?: (props: TProps) => FlowStart<TMachine, TPorts>]
      : [start: (props: TProps) => FlowStart<TMachine, TPorts>]
  ) {
    return function FlowEntry(props: TProps) {
      return (
        <FlowProvider {...start?.(props)}>
          <Component {...props} />
        </FlowProvider>
      );
    };
  }

  function useSend() {
    const actor = context.useActorRef();
    return useCallback((event: EventFrom<TMachine>) => actor.send(event), [actor]);
  }

  /** The flow's state (every change re-renders) and `send`. */
  function useFlow() {
    return [context.useSelector((state: SnapshotFrom<TMachine>) => state), useSend()] as const;
  }

  return {
    Provider,
    withProvider,
    useFlow,
    useSelector: context.useSelector,
    useSend,
    /** Whether the machine takes `event` now: what enables a button. */
    useCan: (event: EventFrom<TMachine>) =>
      context.useSelector((state) => (state as MachineSnapshotOf<TMachine>).can(event)),
  };
}

/**
 * A flow a component runs as many times as it needs, each run its own actor (a console page's lists and its
 * one-off changes, several on one page, none shared with the components under it): the same binding as
 * `createFlowBinding` without an actor context. `useFlow(ports, input)` starts the machine, provided once from the
 * runtime and `ports` by `provide`, and answers its state and `send`.
 */
export function createLocalFlowBinding<TMachine extends AnyStateMachine, TPorts>(
  machine: TMachine,
  provide: (runtime: Runtime, ports: TPorts) => TMachine,
) {
  function useFlow(
    ports: TPorts,
    ...[input]: undefined extends InputFrom<TMachine>
      ? [input?: InputFrom<TMachine>]
      : [input: InputFrom<TMachine>]
  ) {
    const runtime = useRuntime();
    const [logic] = useState(() => provide(runtime, ports));
    const actor = useActorRef(logic, { input, inspect: runtime.inspect });
    const state = useSelector(actor, (snapshot: SnapshotFrom<TMachine>) => snapshot);
    const send = useCallback((event: EventFrom<TMachine>) => actor.send(event), [actor]);
    return [state, send] as const;
  }
  return { machine, useFlow };
}
