import { useSelector } from '@xstate/react';
import { createContext, use, useSyncExternalStore } from 'react';
import { activeBranches } from '../../machines/branches.ts';
import type { Runtime } from './runtime.ts';

export const RuntimeContext = createContext<Runtime | null>(null);

export function useRuntime(): Runtime {
  const runtime = use(RuntimeContext);
  if (!runtime) throw new Error('useRuntime needs the RuntimeContext provider');
  return runtime;
}

export function useLoggedIn(): boolean {
  return useSelector(useRuntime().session, (state) => state.matches('loggedIn'));
}

export function useBranches() {
  const { startup } = useRuntime();
  const branches = useSelector(startup, (state) => state.context.branches);
  const ready = useSelector(startup, (state) => !state.matches('starting'));
  return { branches, active: activeBranches(branches), ready };
}

export function useIsLoading(): boolean {
  const { loader } = useRuntime();
  return useSyncExternalStore(loader.subscribe, loader.isLoading, () => false);
}
