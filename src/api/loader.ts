/**
 * The global loader's state: how many requests are in flight. `isLoading` is false at start, true
 * while at least one request runs, false again when the last one settles.
 */
export type LoaderStore = {
  begin(): void;
  end(): void;
  isLoading: () => boolean;
  subscribe: (listener: () => void) => () => void;
};

export function createLoaderStore(): LoaderStore {
  let inFlight = 0;
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());
  return {
    begin() {
      inFlight += 1;
      if (inFlight === 1) notify();
    },
    end() {
      inFlight = Math.max(0, inFlight - 1);
      if (inFlight === 0) notify();
    },
    isLoading: () => inFlight > 0,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
