import type { Temporal } from 'temporal-polyfill';
import { recordAudit, type Actor } from '../../kernel/audit.ts';
import { dateFromInstant, instantFromDate, type Clock } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../kernel/errors.ts';
import { translate, type Message } from '../../kernel/i18n.ts';
import { centsToEuros, formatMoney } from '../../kernel/money.ts';
import {
  cancelLiveBookings,
  policyRefundCents,
  refundOfMode,
  refundsOf,
  creditRatioOfMode,
  type CancellationDependencies,
  type OperatorRefundMode,
  type RefundOf,
} from '../cancellation.ts';
import { operatorActor } from '../ledger.ts';
import { refundRatio } from '../refunds.ts';
import * as repository from '../repository.ts';

// An operator's cancellation (the console's POST /admin/bookings/{id}/cancel): a confirmed (or held) booking that
// has not ended, refunded by the policy, in full, not at all, or by an amount up to what the gym holds of it. The
// same cancellation as the member's (cancellation.ts), as an operator with the refund they chose. The booking row
// is locked, so a member cancelling at the same moment either finds it cancelled (and refunds nothing) or makes
// this one a 409. Audited with the reason. A staff member's refund above the staff ceiling is asked of an owner
// first (console/use-cases/request-cancellation.ts); the owner's approval runs this same use case.

export type OperatorRefundChoice =
  { mode: OperatorRefundMode } | { mode: 'amount'; amountCents: number | null };

export type CancelBookingInput = {
  actor: Actor;
  bookingId: number;
  refund: OperatorRefundChoice;
  reason: string;
  /**
   * The instant whose refund policy applies: now, unless an owner approves a cancellation a staff member asked for
   * earlier (console/use-cases/decide-refund-approval.ts), so waiting for an owner never costs the member.
   */
  policyAt?: Temporal.Instant;
};

export type CancelBookingDependencies = CancellationDependencies & { clock: Clock };

const amountRequired: Message = /*i18n*/ {
  id: 'validation.refundAmountRequired',
  message: '«refund.amount_eur» é obrigatório quando «refund.mode» é «amount»',
};

/** An amount refund names its amount: 422 `validation_failed` on `refund.amount_eur` otherwise. */
function checkRefundChoice(refund: OperatorRefundChoice): void {
  if (refund.mode === 'amount' && refund.amountCents === null) {
    throw new AppError(
      'validation_failed',
      { problems: (locale) => translate(locale, amountRequired) },
      { fields: [{ field: 'refund.amount_eur', problem: 'required' }] },
    );
  }
}

/**
 * The booking, locked, when an operator may cancel it at `at`: a confirmed booking or a hold that has not ended
 * (404 `booking_not_found`, 409 `booking_not_cancelable` otherwise).
 */
export async function lockCancelableBooking(
  trx: Db,
  bookingId: number,
  at: Date,
): Promise<repository.BookingToCancelRow> {
  const [row] = await repository.lockBookings(trx, [bookingId]);
  if (!row) throw new AppError('booking_not_found');
  const ended = row.end_time <= at;
  const live = row.status === 'confirmed' || row.status === 'pending';
  if (!live || ended) throw new AppError('booking_not_cancelable');
  return row;
}

/** The operator's refund of a booking: by its policy (read at `policyAt`, else now), all it holds, none, an amount. */
function refundOfChoice(refund: OperatorRefundChoice, policyAt?: Temporal.Instant): RefundOf {
  return (booking, policyCents, held) => {
    if (refund.mode === 'amount') {
      if (refund.amountCents! > held) {
        throw new AppError('refund_exceeds_paid', { paid: (locale) => formatMoney(locale, held) });
      }
      return refund.amountCents!;
    }
    if (refund.mode === 'policy' && policyAt) return policyRefundCents(booking, held, policyAt);
    return refundOfMode(refund.mode)(booking, policyCents, held);
  };
}

/**
 * What `cancelBooking` would refund of `row` (locked by the caller with `lockCancelableBooking`) if it ran `at`:
 * nothing for a hold, else the refund chosen, refused as the cancellation would refuse it. What a staff
 * cancellation is compared with the staff ceiling by (console/use-cases/request-cancellation.ts).
 */
export async function cancellationRefundCents(
  trx: Db,
  row: repository.BookingToCancelRow,
  refund: OperatorRefundChoice,
  at: Temporal.Instant,
): Promise<number> {
  checkRefundChoice(refund);
  if (row.status !== 'confirmed') return 0;
  const [cents] = await refundsOf(trx, [row], refundOfChoice(refund), at);
  return cents!;
}

export async function cancelBooking(
  trx: Db,
  deps: CancelBookingDependencies,
  input: CancelBookingInput,
): Promise<{ refundedCents: number }> {
  const { refund, policyAt } = input;
  checkRefundChoice(refund);
  const at = deps.clock.now();
  const atDate = dateFromInstant(at);
  const row = await lockCancelableBooking(trx, input.bookingId, atDate);
  // What credit paid comes back as the refund says; by the policy of `policyAt` when the refund was asked earlier.
  const creditRatio =
    creditRatioOfMode(refund.mode) ??
    (policyAt
      ? refundRatio({ refundRatios: row.refund_ratios, start: instantFromDate(row.start_time) }, policyAt)
      : undefined);
  const [canceled] = await cancelLiveBookings(trx, deps, {
    bookingIds: [row.id],
    refundOf: refundOfChoice(refund, policyAt),
    creditRatio,
    canceledBy: input.actor.email ?? 'cli',
    cause: { purpose: 'operator', actor: operatorActor(input.actor), reason: input.reason },
    notice: 'operator',
    at,
  });
  const refundedCents = canceled?.refundCents ?? 0;
  await recordAudit(
    trx,
    input.actor,
    {
      action: 'booking.cancel',
      entityType: 'booking',
      entityId: row.id,
      reason: input.reason,
      before: { status: row.status },
      after: {
        status: row.status === 'pending' ? 'expired' : 'canceled',
        refund_mode: refund.mode,
        refunded_eur: centsToEuros(refundedCents),
      },
    },
    atDate,
  );
  return { refundedCents };
}
