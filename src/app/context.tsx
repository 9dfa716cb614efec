import { createContext, use, useCallback, useDeferredValue, useSyncExternalStore } from 'react';
import { activeBranches } from '../../machines/branches.ts';
import type { Runtime } from './runtime.ts';

export const RuntimeContext = createContext<Runtime | null>(null);

export function useRuntime(): Runtime {
  const runtime = use(RuntimeContext);
  if (!runtime) throw new Error('useRuntime needs the RuntimeContext provider');
  return runtime;
}

/** What the app's long-lived actors (the runtime's session and startup) give a component to read. */
type ReadableActor<TSnapshot> = {
  getSnapshot(): TSnapshot;
  subscribe(observer: { next: () => void; error: () => void }): { unsubscribe(): void };
};

/**
 * `useSelector` of @xstate/react for the runtime's actors, read by the page frame and the landing. That module
 * imports XState itself, which the landing adopts its page without (src/app/static-runtime.ts); the selections
 * here are plain values or references the actor keeps, so React's own store hook compares them as they are.
 */
export function useActorSelector<TSnapshot, TSelected>(
  actor: ReadableActor<TSnapshot>,
  selector: (snapshot: TSnapshot) => TSelected,
): TSelected {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const subscription = actor.subscribe({ next: onChange, error: onChange });
      return () => subscription.unsubscribe();
    },
    [actor],
  );
  const select = () => {
    const snapshot = actor.getSnapshot() as TSnapshot & { status?: string; error?: unknown };
    if (snapshot.status === 'error') throw snapshot.error;
    return selector(snapshot);
  };
  return useSyncExternalStore(subscribe, select, select);
}

export function useLoggedIn(): boolean {
  return useActorSelector(useRuntime().session, (state) => state.matches('loggedIn'));
}

export function useBranches() {
  const { startup } = useRuntime();
  // The branches arrive once, after the page is on screen, and change most of it (the branches, the prices, the
  // booking modal). A store's change is rendered at once, in one task the browser cannot interrupt; deferred, the
  // pages render them in the background, giving the browser back its thread every few milliseconds (issue 33).
  const branches = useDeferredValue(useActorSelector(startup, (state) => state.context.branches));
  const ready = useDeferredValue(useActorSelector(startup, (state) => !state.matches('starting')));
  return { branches, active: activeBranches(branches), ready };
}

export function useIsLoading(): boolean {
  const { loader } = useRuntime();
  return useSyncExternalStore(loader.subscribe, loader.isLoading, () => false);
}
