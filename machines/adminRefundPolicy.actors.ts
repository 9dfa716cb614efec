import { fromPromise } from 'xstate';
import type { RefundRatios } from './adminConsole.actors.ts';
import { expectData, type ApiClient } from './api.ts';

/** The refund policy editor's call: PUT /admin/refund-policy, answering the policy as stored. */
export function createAdminRefundPolicyActors(api: ApiClient) {
  return {
    saveRefundPolicy: fromPromise<RefundRatios, RefundRatios>(({ input }) =>
      expectData(
        api.PUT('/admin/refund-policy', {
          body: {
            thresholds: Object.entries(input).map(([hours, ratio]) => ({ hours: Number(hours), ratio })),
          },
        }),
      ),
    ),
  };
}
