import { recordAudit, type Actor } from '../../kernel/audit.ts';
import { dateFromInstant, instantFromDate, type Clock } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import {
  cancelBooking,
  type CancelBookingDependencies,
  type OperatorRefundChoice,
} from '../../booking/index.ts';
import { AppError } from '../../kernel/errors.ts';
import { translate, type Message } from '../../kernel/i18n.ts';
import { centsToEuros } from '../../kernel/money.ts';
import {
  decideRefundApproval,
  lockRefundApproval,
  type RefundApprovalRow,
} from '../refund-approvals-repository.ts';

// An owner's decision on a staff member's refund above the ceiling (issue 32, item 2), for the console (POST
// /admin/refund-approvals/{id}/approve|refuse) and the CLI (`approvals approve|refuse`). Each takes the request's
// row lock (SELECT ... FOR UPDATE) first, so two owners deciding at once decide once: the second finds it decided
// (409 `refund_approval_decided`). Approving runs the one cancel use case in the same transaction, as the owner,
// with the refund as it was asked for (its policy read when it was asked: waiting for an owner never costs the
// member), and only then is the member told, by the cancellation's own message. A booking cancelled or ended
// meanwhile closes the request with nothing refunded.

export type ApprovalDecision =
  { status: 'approved'; refundedCents: number } | { status: 'refused' } | { status: 'closed' };

const reasonRequired: Message = /*i18n*/ {
  id: 'validation.refusalReasonRequired',
  message: 'diga porque recusa o pedido («reason»)',
};

/** The request, locked, while it waits for an owner: 404 and 409 otherwise. */
async function lockPending(trx: Db, approvalId: number): Promise<RefundApprovalRow> {
  const row = await lockRefundApproval(trx, approvalId);
  if (!row) throw new AppError('refund_approval_not_found');
  if (row.status !== 'pending') throw new AppError('refund_approval_decided');
  return row;
}

/** The refund the staff member chose, as the cancel use case takes it. */
function choiceOf(row: RefundApprovalRow): OperatorRefundChoice {
  return row.refund_mode === 'amount'
    ? { mode: 'amount', amountCents: row.amount_cents }
    : { mode: row.refund_mode };
}

export async function approveRefund(
  trx: Db,
  deps: CancelBookingDependencies,
  input: { actor: Actor; approvalId: number },
): Promise<ApprovalDecision> {
  const row = await lockPending(trx, input.approvalId);
  const now = dateFromInstant(deps.clock.now());
  const decided = { at: now, by: input.actor.operatorId, byEmail: input.actor.email ?? 'cli' };
  const audit = (status: 'approved' | 'closed', refundedCents: number) =>
    recordAudit(
      trx,
      input.actor,
      {
        action: status === 'approved' ? 'refund_approval.approve' : 'refund_approval.close',
        entityType: 'refund_approval',
        entityId: row.id,
        before: { status: 'pending' },
        after: { status, booking_id: row.booking_id, refunded_eur: centsToEuros(refundedCents) },
      },
      now,
    );
  let refundedCents: number;
  try {
    ({ refundedCents } = await cancelBooking(trx, deps, {
      actor: input.actor,
      bookingId: row.booking_id,
      refund: choiceOf(row),
      reason: row.reason,
      policyAt: instantFromDate(row.requested_at),
    }));
  } catch (error) {
    // Refused before it wrote anything: the booking was cancelled (by the member, an owner, a closure) or ended.
    if (!(error instanceof AppError && error.code === 'booking_not_cancelable')) throw error;
    await decideRefundApproval(trx, row.id, {
      ...decided,
      status: 'closed',
      reason: null,
      refundedCents: null,
    });
    await audit('closed', 0);
    return { status: 'closed' };
  }
  await decideRefundApproval(trx, row.id, { ...decided, status: 'approved', reason: null, refundedCents });
  await audit('approved', refundedCents);
  return { status: 'approved', refundedCents };
}

export async function refuseRefund(
  trx: Db,
  deps: { clock: Clock },
  input: { actor: Actor; approvalId: number; reason: string },
): Promise<ApprovalDecision> {
  const reason = input.reason.trim();
  if (reason === '') {
    throw new AppError(
      'validation_failed',
      { problems: (locale) => translate(locale, reasonRequired) },
      { fields: [{ field: 'reason', problem: 'required' }] },
    );
  }
  const row = await lockPending(trx, input.approvalId);
  const now = dateFromInstant(deps.clock.now());
  await decideRefundApproval(trx, row.id, {
    status: 'refused',
    at: now,
    by: input.actor.operatorId,
    byEmail: input.actor.email ?? 'cli',
    reason,
    refundedCents: null,
  });
  await recordAudit(
    trx,
    input.actor,
    {
      action: 'refund_approval.refuse',
      entityType: 'refund_approval',
      entityId: row.id,
      reason,
      before: { status: 'pending' },
      after: { status: 'refused', booking_id: row.booking_id },
    },
    now,
  );
  return { status: 'refused' };
}
