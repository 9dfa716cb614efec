import { ApiError } from './api.ts';

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
