import { fromPromise } from 'xstate';
import { expectOk, type ApiClient } from './api.ts';
import type { AdminCancelRequest } from './adminCancel.machine.ts';

export function createAdminCancelActors(api: ApiClient) {
  return {
    cancelBooking: fromPromise<void, AdminCancelRequest>(({ input }) =>
      expectOk(
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
      ),
    ),
  };
}
