/**
 * The `types` of a machine's `setup()`: its context, its events and, when it is started with one, its input,
 * given as type arguments (XState reads only their types; the value is never used).
 */
export function machineTypes<TContext, TEvent>(): { context: TContext; events: TEvent };
export function machineTypes<TContext, TEvent, TInput>(): {
  context: TContext;
  events: TEvent;
  input: TInput;
};
export function machineTypes() {
  return {};
}
