import { recordAudit } from '../../kernel/audit.ts';
import { dateFromInstant } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import {
  cancelBooking,
  cancellationRefundCents,
  lockCancelableBooking,
  type CancelBookingDependencies,
  type CancelBookingInput,
} from '../../booking/index.ts';
import { isConflict } from '../../kernel/database-errors.ts';
import { AppError } from '../../kernel/errors.ts';
import { centsToEuros } from '../../kernel/money.ts';
import {
  readStaffRefundCeiling,
  tellOwnersOfRequest,
  type ApprovalNoticeDependencies,
} from '../refund-approvals.ts';
import { findPendingOfBooking, insertRefundApproval } from '../refund-approvals-repository.ts';

// An operator's cancellation from the console (POST /admin/bookings/{id}/cancel), with the staff ceiling (issue
// 32, item 2): an owner, or a staff member whose refund is at most the ceiling, cancels through the one cancel use
// case. A staff member's refund above it changes nothing of the booking, its door code, the member or the money:
// it becomes a request for an owner (one pending per booking, else 409 `refund_approval_pending`), audited, and
// the owners are told by e-mail. The refund compared is the one the cancellation would make now, computed as it
// computes it, under the booking's lock.

export type RequestCancellationInput = CancelBookingInput & {
  /** Whether the staff ceiling applies: staff yes, owners no. */
  ceilingApplies: boolean;
};

export type CancellationOutcome =
  { kind: 'canceled'; refundedCents: number } | { kind: 'approval'; approvalId: number };

export async function requestCancellation(
  trx: Db,
  deps: CancelBookingDependencies & ApprovalNoticeDependencies,
  input: RequestCancellationInput,
): Promise<CancellationOutcome> {
  const cancel = async (): Promise<CancellationOutcome> => ({
    kind: 'canceled',
    ...(await cancelBooking(trx, deps, input)),
  });
  if (!input.ceilingApplies) return cancel();
  const at = deps.clock.now();
  const now = dateFromInstant(at);
  const { refund } = input;
  const row = await lockCancelableBooking(trx, input.bookingId, now);
  const refundCents = await cancellationRefundCents(trx, row, refund, at);
  const ceilingCents = await readStaffRefundCeiling(trx);
  if (refund.mode === 'none' || refundCents <= ceilingCents) return cancel();
  if (await findPendingOfBooking(trx, row.id)) throw new AppError('refund_approval_pending');
  let approvalId: number;
  try {
    approvalId = await insertRefundApproval(trx, {
      booking_id: row.id,
      refund_mode: refund.mode,
      amount_cents: refund.mode === 'amount' ? refund.amountCents : null,
      refund_cents: refundCents,
      reason: input.reason,
      requested_at: now,
      requested_by: input.actor.operatorId,
      requested_by_email: input.actor.email ?? 'cli',
    });
  } catch (error) {
    // Another request for the booking was made since the check (the partial unique index refused this one).
    if (isConflict(error)) throw new AppError('refund_approval_pending');
    throw error;
  }
  await recordAudit(
    trx,
    input.actor,
    {
      action: 'refund_approval.request',
      entityType: 'refund_approval',
      entityId: approvalId,
      reason: input.reason,
      after: {
        status: 'pending',
        booking_id: row.id,
        refund_mode: refund.mode,
        refund_eur: centsToEuros(refundCents),
        ceiling_eur: centsToEuros(ceilingCents),
      },
    },
    now,
  );
  await tellOwnersOfRequest(trx, deps, { id: approvalId, ceilingCents, now });
  return { kind: 'approval', approvalId };
}
