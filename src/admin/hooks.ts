import { useMachine } from '@xstate/react';
import { useMemo, useState } from 'react';
import { fromPromise } from 'xstate';
import { createAdminConsoleActors } from '../../machines/adminConsole.actors.ts';
import { adminQueryMachine } from '../../machines/adminQuery.machine.ts';
import { adminTaskMachine } from '../../machines/adminTask.machine.ts';
import { useRuntime } from '../app/context.tsx';
import { useAdmin } from './context.tsx';

export function useConsoleActors() {
  const { api } = useAdmin();
  const runtime = useRuntime();
  return useMemo(() => createAdminConsoleActors(api, runtime.api), [api, runtime.api]);
}

/** The console's calls (machines/adminConsole.actors.ts), by name: what a page loads or changes. */
type ConsoleCalls = ReturnType<typeof createAdminConsoleActors>;
type CallName = keyof ConsoleCalls;
type ParamsOf<K extends CallName> = Parameters<ConsoleCalls[K]>[0];
type DataOf<K extends CallName> = Awaited<ReturnType<ConsoleCalls[K]>>;
/** A call's parameters, left out for a call that takes none. */
type ParamsArgument<K extends CallName> =
  ParamsOf<K> extends undefined ? [params?: undefined] : [params: ParamsOf<K>];
type PagedCallName = { [K in CallName]: ParamsOf<K> extends { page: number } ? K : never }[CallName];

function callOf(actors: ConsoleCalls, name: CallName) {
  return actors[name] as (params: unknown) => Promise<unknown>;
}

/** A list or page of the console: the list machine loading the console's call `name` with `params`. */
export function useAdminQuery<K extends CallName>(name: K, ...[params]: ParamsArgument<K>) {
  const { sessionEnded } = useAdmin();
  const actors = useConsoleActors();
  const [machine] = useState(() =>
    adminQueryMachine.provide({
      actors: {
        load: fromPromise<unknown, unknown>(({ input }) => callOf(actors, name)(input)),
      },
      actions: { sessionEnded },
    }),
  );
  const [state, send] = useMachine(machine, { input: { params } });
  return {
    state,
    data: state.context.data as DataOf<K> | null,
    params: state.context.params as ParamsOf<K>,
    change: (next: ParamsOf<K>) => send({ type: 'query.change', params: next }),
    reload: () => send({ type: 'query.reload' }),
  };
}

/**
 * A searched list, a page at a time: changing a filter (`filter`) goes back to the first page; `goTo` turns the
 * page.
 */
export function usePagedQuery<K extends PagedCallName>(name: K, params: ParamsOf<K>) {
  const query = useAdminQuery(name, ...([params] as ParamsArgument<K>));
  return {
    ...query,
    filter: (patch: Partial<ParamsOf<K>>) => query.change({ ...query.params, page: 1, ...patch }),
    goTo: (page: number) => query.change({ ...query.params, page }),
  };
}

type Task<TInput, TOutput> = ReturnType<typeof useTask<TInput, TOutput>>;

/**
 * One change that needs no form of its own: ask, confirm, run once (the action machine). It runs the console's
 * call `name`, or `run` where a change is more than one call (a report's download).
 */
export function useAdminTask<K extends CallName>(
  name: K,
  onCompleted?: (output: DataOf<K>) => void,
): Task<ParamsOf<K>, DataOf<K>>;
export function useAdminTask<TInput, TOutput>(
  run: (input: TInput) => Promise<TOutput>,
  onCompleted?: (output: TOutput) => void,
): Task<TInput, TOutput>;
export function useAdminTask(
  call: CallName | ((input: unknown) => Promise<unknown>),
  onCompleted: (output: unknown) => void = () => {},
) {
  const actors = useConsoleActors();
  return useTask(typeof call === 'function' ? call : callOf(actors, call), onCompleted);
}

function useTask<TInput, TOutput>(
  run: (input: TInput) => Promise<TOutput>,
  onCompleted: (output: TOutput) => void,
) {
  const { sessionEnded } = useAdmin();
  const [machine] = useState(() =>
    adminTaskMachine.provide({
      actors: { run: fromPromise<unknown, unknown>(({ input }) => run(input as TInput)) },
      actions: {
        sessionEnded,
        completed: ({ context }) => onCompleted(context.output as TOutput),
      },
    }),
  );
  const [state, send] = useMachine(machine);
  return {
    state,
    input: state.context.input as TInput | null,
    output: state.context.output as TOutput | null,
    ask: (input: TInput) => send({ type: 'task.ask', input }),
    confirm: () => send({ type: 'task.confirm' }),
    dismiss: () => send({ type: 'task.dismiss' }),
    /** Ask and confirm at once: for changes whose button is the confirmation. */
    run: (input: TInput) => {
      send({ type: 'task.ask', input });
      send({ type: 'task.confirm' });
    },
  };
}

/** The branches for the filters and forms (id, name, time zone). */
export function useBranchOptions() {
  const query = useAdminQuery('branches');
  const branches = query.data ?? [];
  return {
    branches,
    options: branches.map((branch) => ({ value: String(branch.id), label: branch.name })),
    zoneOf: (id: number | null) => branches.find((branch) => branch.id === id)?.time_zone ?? 'UTC',
  };
}
