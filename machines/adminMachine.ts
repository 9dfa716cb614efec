import { setup, type EventObject, type NonReducibleUnknown, type UnknownActorLogic } from 'xstate';
import { adminFailure, failureActions } from './adminErrors.ts';
import type { Feedback, FeedbackKey } from './feedback.ts';

/** A machine's own guards: each a question about its context (and the event). */
type OwnGuards<TContext, TEvent, TGuard extends string> = Record<
  TGuard,
  (args: { context: TContext; event: TEvent }) => boolean
>;

/**
 * The `setup()` of a console machine (a list, a task, a form): its types, its calls (placeholders the console
 * provides with `.provide()`, over its own client), and what every console machine declares for a failed call
 * (see `adminFailure`, `failedBackTo`): the guards `isSessionEnd` and `isForbidden`, the action `sessionEnded`
 * (the console provides it: the login opens) and the action `failed`, which keeps the failure to show (the
 * server's sentence, else `fallback`).
 * `reports` names the action that tells the page a call is done (it reloads what it shows); the page provides
 * it. `guards` are the machine's own.
 */
export function adminMachineSetup<
  TContext extends { error: Feedback | null },
  TEvent extends EventObject,
  TCalls extends Record<string, UnknownActorLogic>,
  TInput = NonReducibleUnknown,
  TReport extends string = never,
  TGuard extends string = never,
>(machine: {
  types: { context: TContext; events: TEvent; input?: TInput };
  calls: TCalls;
  fallback: FeedbackKey;
  reports?: TReport;
  guards?: OwnGuards<TContext, TEvent, TGuard>;
}) {
  const report = {} as Record<TReport, () => void>;
  if (machine.reports !== undefined) report[machine.reports] = () => {};
  return setup<
    TContext,
    TEvent,
    TCalls,
    Record<never, string>,
    { sessionEnded: undefined; failed: { error: unknown } } & Record<TReport, undefined>,
    { isSessionEnd: { error: unknown }; isForbidden: { error: unknown } } & Record<TGuard, undefined>,
    never,
    string,
    TInput
  >({
    types: machine.types,
    actors: machine.calls as { [K in keyof TCalls]: K extends keyof TCalls ? TCalls[K] : never },
    actions: { ...failureActions<TContext, TEvent>(machine.fallback), ...report },
    guards: {
      ...(machine.guards ?? ({} as OwnGuards<TContext, TEvent, TGuard>)),
      isSessionEnd: (_, params: { error: unknown }) => adminFailure(params.error) === 'session',
      isForbidden: (_, params: { error: unknown }) => adminFailure(params.error) === 'forbidden',
    },
  });
}
