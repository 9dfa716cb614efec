import { assign, type EventObject } from 'xstate';
import { ApiError } from './api.ts';
import { failureFeedback, type Feedback, type FeedbackKey } from './feedback.ts';

/**
 * How a console view reads a failed call: `unauthorized` ends the operator's session (the login opens), a
 * refusal by role (`operator_forbidden`: a staff operator asking for what only an owner may see) is a state of the view,
 * anything else is shown as the server's sentence or the generic one.
 */
export type AdminFailure = 'session' | 'forbidden' | 'other';

export function adminFailure(error: unknown): AdminFailure {
  if (!(error instanceof ApiError)) return 'other';
  if (error.code === 'unauthorized') return 'session';
  if (error.code === 'operator_forbidden') return 'forbidden';
  return 'other';
}

/** The failed call's error, as the console machines' `isSessionEnd` guard and `failed` action take it. */
export const errorOf = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

/**
 * Where a console step goes when its call fails: back to `target`, either reporting the operator's ended session
 * (`sessionEnded`: the login opens) or handing the failure to the machine's `failed` action, which keeps it to show
 * (both declared by `adminMachineSetup`).
 */
export function failedBackTo<T extends string>(target: T) {
  return [
    { guard: { type: 'isSessionEnd' as const, params: errorOf }, target, actions: 'sessionEnded' as const },
    { target, actions: { type: 'failed' as const, params: errorOf } },
  ];
}

/**
 * The actions a console form declares for its failures (what `failedBackTo` names): `sessionEnded`, which the
 * console provides, and `failed`, which keeps the failure to show (the server's sentence, else `fallback`).
 */
export function failureActions<TContext extends { error: Feedback | null }, TEvent extends EventObject>(
  fallback: FeedbackKey,
) {
  return {
    sessionEnded: () => {},
    failed: assign<TContext, TEvent, { error: unknown }, TEvent, never>(
      (_, params) => ({ error: failureFeedback(params.error, fallback) }) as Partial<TContext>,
    ),
  };
}
