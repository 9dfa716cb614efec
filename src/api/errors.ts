import { ApiError } from '../../machines/api.ts';

export { ApiError };

/**
 * Spec 8's rule for showing a failure: 500 and above give the generic message; otherwise the server's
 * `detail` when there is one, else the caller's fallback text.
 */
export function errorMessage(error: unknown, fallback: string, genericMessage: string): string {
  if (error instanceof ApiError) {
    if (error.status >= 500) return genericMessage;
    if (error.detail) return error.detail;
  }
  return fallback;
}
