import { fromPromise, type NonReducibleUnknown } from 'xstate';

/**
 * An actor a machine declares for its types and its graph; the app provides the real one over the API client
 * (`<flow>.actors.ts`) and tests provide scripted ones, both with `.provide()`. Run unprovided, it fails.
 */
export function placeholder<TOutput, TInput = NonReducibleUnknown>(name: string) {
  return fromPromise<TOutput, TInput>(() =>
    Promise.reject(new Error(`the ${name} actor must be provided with .provide()`)),
  );
}
