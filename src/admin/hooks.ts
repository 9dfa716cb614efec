import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useEffectEvent, useMemo, useRef } from 'react';
import { fromPromise } from 'xstate';
import { createAdminConsoleActors } from '../../machines/adminConsole.actors.ts';
import { adminDraftMachine, type DraftFields } from '../../machines/adminDraft.machine.ts';
import { adminQueryMachine } from '../../machines/adminQuery.machine.ts';
import { adminTaskMachine } from '../../machines/adminTask.machine.ts';
import { createLocalFlowBinding } from '../app/binding.tsx';
import { useAdmin } from './context.tsx';

export function useConsoleActors() {
  const { api } = useAdmin();
  return useMemo(() => createAdminConsoleActors(api), [api]);
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
/** The place of a list read by cursor (the bookings): after one page's `next`, or before one's `previous`. */
type Place = { after: string; before: string };
type CursorCallName = { [K in CallName]: ParamsOf<K> extends Place ? K : never }[CallName];

/** The list machine's binding: its load is the console's call a page names. */
const queryFlow = createLocalFlowBinding(
  adminQueryMachine,
  (_runtime, ports: { load: (params: unknown) => Promise<unknown>; sessionEnded: () => void }) =>
    adminQueryMachine.provide({
      actors: { load: fromPromise<unknown, unknown>(({ input }) => ports.load(input)) },
      actions: { sessionEnded: ports.sessionEnded },
    }),
);

/** The one-change machine's binding: what it runs, and what the page does once it ran. */
const taskFlow = createLocalFlowBinding(
  adminTaskMachine,
  (
    _runtime,
    ports: {
      run: (input: unknown) => Promise<unknown>;
      completed: (output: unknown) => void;
      sessionEnded: () => void;
    },
  ) =>
    adminTaskMachine.provide({
      actors: { run: fromPromise<unknown, unknown>(({ input }) => ports.run(input)) },
      actions: {
        sessionEnded: ports.sessionEnded,
        completed: ({ context }) => ports.completed(context.output),
      },
    }),
);

function callOf(actors: ConsoleCalls, name: CallName) {
  return actors[name] as (params: unknown) => Promise<unknown>;
}

/** A list or page of the console: the list machine loading the console's call `name` with `params`. */
export function useAdminQuery<K extends CallName>(name: K, ...[params]: ParamsArgument<K>) {
  const { sessionEnded } = useAdmin();
  const actors = useConsoleActors();
  const [state, send] = queryFlow.useFlow({ load: callOf(actors, name), sessionEnded }, { params });
  return {
    state,
    data: state.context.data as DataOf<K> | null,
    params: state.context.params as ParamsOf<K>,
    change: (next: ParamsOf<K>) => send({ type: 'query.change', params: next }),
    reload: () => send({ type: 'query.reload' }),
  };
}

type Filters = Record<string, unknown>;

/** `filters` as the page's address keeps them: only what differs from the page's defaults. */
function addressOf(filters: Filters, defaults: Filters): Filters {
  const search: Filters = {};
  for (const key of Object.keys(defaults))
    search[key] = filters[key] === defaults[key] ? undefined : filters[key];
  return search;
}

/** The page's filters from its address (its route's `validateSearch`), the page's defaults for what is absent. */
function filtersOf<P extends Filters>(search: Filters, defaults: P): P {
  const filters: Filters = {};
  for (const key of Object.keys(defaults)) filters[key] = search[key] ?? defaults[key];
  return filters as P;
}

/**
 * A list or page whose filters live in the address (issue 28, item 1), so reload, Back and a copied link show the
 * same view: the query machine starts from the address and follows it (Back, Forward, a link), and a change made
 * on the page goes to the machine at once (what is typed shows as typed) and into the address with `navigate`.
 * A filter replaces the history entry (typing does not fill Back with every letter); `{ push: true }` (a page
 * turned) adds one, so Back turns it back (docs/decisions.md, issue 28 item 1).
 */
export function useSearchQuery<K extends CallName>(name: K, defaults: ParamsOf<K> & Filters) {
  const navigate = useNavigate();
  const search: Filters = useSearch({ strict: false });
  const fromAddress = filtersOf(search, defaults);
  const query = useAdminQuery(name, ...([fromAddress] as ParamsArgument<K>));
  const addressKey = JSON.stringify(fromAddress);
  // The addresses this page wrote that the router has not shown yet: they are the page's own changes coming
  // back (a quick typist's earlier letters among them), not a move in the history to follow.
  const written = useRef<string[]>([]);
  const follow = useEffectEvent(() => {
    const own = written.current.indexOf(addressKey);
    if (own >= 0) {
      written.current.splice(0, own + 1);
      return;
    }
    written.current = [];
    if (addressKey !== JSON.stringify(filtersOf(query.params as Filters, defaults)))
      query.change(fromAddress);
  });
  useEffect(() => follow(), [addressKey]);
  const change = (next: ParamsOf<K>, { push = false } = {}) => {
    query.change(next);
    const key = JSON.stringify(filtersOf(next as Filters, defaults));
    if (key === addressKey) return;
    written.current.push(key);
    void navigate({
      to: '.',
      search: (previous: Filters) => ({ ...previous, ...addressOf(next as Filters, defaults) }),
      replace: !push,
      resetScroll: push,
    });
  };
  return { ...query, change };
}

/**
 * A searched list, a page at a time, its filters and page (`firstPage` when it is the first) in the address
 * (`useSearchQuery`): changing a filter (`filter`) goes back to the first page; `goTo` turns the page.
 */
function useTurnedQuery<K extends CallName, P extends Partial<ParamsOf<K>>>(
  name: K,
  defaults: ParamsOf<K> & Filters,
  firstPage: P,
) {
  const query = useSearchQuery(name, defaults);
  return {
    ...query,
    filter: (patch: Partial<ParamsOf<K>>) => query.change({ ...query.params, ...firstPage, ...patch }),
    goTo: (page: P) => query.change({ ...query.params, ...firstPage, ...page }, { push: true }),
  };
}

/** A searched list by page numbers (`useTurnedQuery`): `goTo` a page. */
export function usePagedQuery<K extends PagedCallName>(name: K, defaults: ParamsOf<K> & Filters) {
  const query = useTurnedQuery(name, defaults, { page: 1 } as Partial<ParamsOf<K>> & { page: number });
  return {
    ...query,
    goTo: (page: number) => query.goTo({ page } as Partial<ParamsOf<K>> & { page: number }),
  };
}

/**
 * A searched list read by cursor (`useTurnedQuery`; docs/decisions.md, issue 33): `goTo` the page after a
 * cursor (`{ after }`, older) or before one (`{ before }`, newer).
 */
export function useCursorQuery<K extends CursorCallName>(name: K, defaults: ParamsOf<K> & Filters) {
  const firstPage = { after: '', before: '' } as Partial<ParamsOf<K>> & Place;
  const query = useTurnedQuery(name, defaults, firstPage);
  return {
    ...query,
    goTo: (place: { after: string } | { before: string }) => query.goTo({ ...firstPage, ...place }),
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
  const [state, send] = taskFlow.useFlow({
    run: run as (input: unknown) => Promise<unknown>,
    completed: onCompleted as (output: unknown) => void,
    sessionEnded,
  });
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

/** The form-values machine's binding: nothing to provide, its values start from the form's first ones. */
const draftFlow = createLocalFlowBinding(adminDraftMachine, () => adminDraftMachine);

/**
 * A console form's values while the operator types (machines/adminDraft.machine.ts): the values, `change` (merge
 * a patch) and `reset` (start again from given values).
 */
export function useDraft<T extends DraftFields>(initial: T) {
  // The machine reads its input once, when it starts.
  const [state, send] = draftFlow.useFlow(undefined, { fields: initial });
  return {
    fields: state.context.fields as T,
    change: (patch: Partial<T>) => send({ type: 'draft.change', patch }),
    reset: (fields: T) => send({ type: 'draft.reset', fields }),
  };
}
