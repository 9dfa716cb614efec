import { fromPromise } from 'xstate';
import { expectData, type ApiClient } from './api.ts';
import type { AdminCancelOutcome, AdminCancelRequest } from './adminCancel.machine.ts';

export function createAdminCancelActors(api: ApiClient) {
  return {
    // 202: a staff refund above the ceiling, sent to the owners for approval (nothing cancelled yet).
    cancelBooking: fromPromise<AdminCancelOutcome, AdminCancelRequest>(async ({ input }) => {
      const answer = await expectData(
        api.POST('/admin/bookings/{booking_id}/cancel', {
          params: { path: { booking_id: input.bookingId } },
          body: {
            refund:
              input.refund.mode === 'amount'
                ? { mode: 'amount', amount_eur: input.refund.amount_cents / 100 }
                : { mode: input.refund.mode },
            reason: input.reason,
          },
        }),
      );
      // The booking's page (200) or the request for the owners (202), which names who asked.
      return 'requested_by' in answer ? 'sent-for-approval' : 'cancelled';
    }),
  };
}
