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

/** A list or page of the console: the list machine with `load` provided. */
export function useAdminQuery<TParams, TData>(load: (params: TParams) => Promise<TData>, params: TParams) {
  const { sessionEnded } = useAdmin();
  const [machine] = useState(() =>
    adminQueryMachine.provide({
      actors: { load: fromPromise<unknown, unknown>(({ input }) => load(input as TParams)) },
      actions: { sessionEnded },
    }),
  );
  const [state, send] = useMachine(machine, { input: { params } });
  return {
    state,
    data: state.context.data as TData | null,
    params: state.context.params as TParams,
    change: (next: TParams) => send({ type: 'query.change', params: next }),
    reload: () => send({ type: 'query.reload' }),
  };
}

/**
 * A searched list, a page at a time: changing a filter (`filter`) goes back to the first page; `goTo` turns the
 * page.
 */
export function usePagedQuery<TParams extends { page: number }, TData>(
  load: (params: TParams) => Promise<TData>,
  params: TParams,
) {
  const query = useAdminQuery(load, params);
  return {
    ...query,
    filter: (patch: Partial<TParams>) => query.change({ ...query.params, page: 1, ...patch }),
    goTo: (page: number) => query.change({ ...query.params, page }),
  };
}

/** One change that needs no form of its own: ask, confirm, run once (the action machine). */
export function useAdminTask<TInput, TOutput>(
  run: (input: TInput) => Promise<TOutput>,
  onCompleted: (output: TOutput) => void = () => {},
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
  const actors = useConsoleActors();
  const query = useAdminQuery(actors.branches, undefined);
  const branches = query.data ?? [];
  return {
    branches,
    options: branches.map((branch) => ({ value: String(branch.id), label: branch.name })),
    zoneOf: (id: number | null) => branches.find((branch) => branch.id === id)?.time_zone ?? 'UTC',
  };
}
