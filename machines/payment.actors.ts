import { fromPromise } from 'xstate';
import { expectData, type ApiClient } from './api.ts';
import type { SessionStatus } from './payment.machine.ts';

/** The payment-return call over the typed client (docs/decisions.md, 'Contract and API'). */
export function createPaymentActors(api: ApiClient) {
  return {
    checkStatus: fromPromise<SessionStatus, { sessionId: string }>(({ input }) =>
      expectData(
        api.GET('/checkout/session-status', { params: { query: { stripe_session_id: input.sessionId } } }),
      ),
    ),
  };
}
