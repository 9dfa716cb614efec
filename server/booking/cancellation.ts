import type { Temporal } from 'temporal-polyfill';
import type { Actor } from '../kernel/audit.ts';
import { dateFromInstant, instantFromDate, type Clock } from '../kernel/clock.ts';
import type { Db } from '../db/database.ts';
import { releaseLockCodes, type LockDependencies } from '../doors/index.ts';
import { rescheduleRecodedAccessCodes, type AccessCodeScheduler } from './access-codes.ts';
import type { CancellationReason } from './cancellation-message.ts';
import { queueCancellationNotices, type NoticeDependencies } from './cancellation-notices.ts';
import { totalsOfBookings } from './ledger-repository.ts';
import {
  bookingMoney,
  operatorActor,
  refundFromBookingPayments,
  type LedgerDependencies,
  type RefundCause,
} from './ledger.ts';
import { releaseGuestCodesOf } from './guests.ts';
import { abandonMovesOf } from './moves.ts';
import { moneyPartCents, refundableCents, refundRatio } from './refunds.ts';
import { returnCredit } from './wallet/credit.ts';
import * as repository from './repository.ts';

// The one cancellation of bookings, whoever asks: the member (service.ts, cancelBookings), an operator
// (use-cases/cancel-booking.ts), a closure (use-cases/close-branch.ts), a block (cancelFutureBookingsOfMembers), an
// account's deletion. Each caller locks the bookings and says which may end and with what refund; from there the
// steps are the same: the booking cancelled, its refund paid once ever, its moves abandoned, its door code freed,
// the member told.

export type CancellationDependencies = LedgerDependencies &
  LockDependencies &
  NoticeDependencies & {
    /** Re-times the door-code messages of bookings whose code changed; null where none must go out. */
    accessCodes: AccessCodeScheduler | null;
  };

export type CancelBookingsResult = { canceledBookingIds: number[]; refundedCents: number };

/** What the payment provider's refund metadata says of each cancellation. */
const REFUND_REASONS = {
  member: 'canceled_by_client',
  account_deleted: 'account_deleted',
  operator: 'canceled_by_operator',
  closure: 'canceled_by_operator',
  blocked: 'canceled_by_operator',
} as const;

/** The refund of a cancelled booking: one per booking, ever, whoever asks and however often. */
function cancellationRefundKey(bookingId: number): string {
  return `cancel-refund-${bookingId}`;
}

/**
 * Cancels the locked bookings, refunds each its amount (once, ever), frees their door codes and tells the
 * member (e-mail with the calendar's cancel event; SMS when one was due within 24 hours). Each refund is a row
 * of the ledger with its `cause` (why, who, what they said).
 */
export async function cancelAndRefund(
  trx: Db,
  deps: CancellationDependencies,
  toCancel: readonly { row: repository.BookingToCancelRow; refundCents: number; creditRatio?: number }[],
  at: Date,
  reason: Exclude<CancellationReason, 'late_payment'>,
  cause: RefundCause,
  /** What the member is told of why (an operator's cancellation or closure reason). */
  note: string | null = null,
): Promise<CancelBookingsResult> {
  let refundedCents = 0;
  for (const { row, refundCents, creditRatio } of toCancel) {
    await repository.cancelBooking(trx, row.id, at);
    // What credit paid of it goes back to its lots, at the policy's ratio unless the caller says otherwise.
    if (row.credit_cents > 0) {
      const ratio =
        creditRatio ??
        refundRatio(
          { refundRatios: row.refund_ratios, start: instantFromDate(row.start_time) },
          instantFromDate(at),
        );
      await returnCredit(trx, row.id, ratio, cause.actor, at, cause.reason ?? null);
    }
    // From each payment of the booking (a move's paid difference, then its own checkout), once ever.
    refundedCents +=
      refundCents === 0
        ? 0
        : await refundFromBookingPayments(
            trx,
            deps,
            row.id,
            refundCents,
            cancellationRefundKey(row.id),
            { ...cause, providerReason: REFUND_REASONS[reason] },
            at,
          );
  }
  await abandonMovesOf(
    trx,
    toCancel.map(({ row }) => row.id),
    at,
  );
  const releasedCodes = toCancel.flatMap(({ row }) => (row.lock_code_id === null ? [] : [row.lock_code_id]));
  await releaseLockCodes(trx, deps, releasedCodes, at);
  // Their guests' codes too (issue 31): a guest's code serves only a confirmed booking.
  await releaseGuestCodesOf(
    trx,
    deps,
    toCancel.map(({ row }) => row.id),
    at,
    { tellGuests: reason !== 'account_deleted' },
  );
  await rescheduleRecodedAccessCodes(trx, deps.accessCodes, releasedCodes, at);
  await queueCancellationNotices(
    trx,
    deps,
    toCancel.map(({ row }) => row.id),
    reason,
    at,
    note,
  );
  return { canceledBookingIds: toCancel.map(({ row }) => row.id), refundedCents };
}

/**
 * What the refund policy gives back for a booking cancelled `at`: its share of the price, at most what the gym
 * still `held` of what was paid (the ledger's payments less its refunds).
 */
export function policyRefundCents(
  row: {
    final_price_cents: number;
    credit_cents: number;
    refund_ratios: Record<string, number>;
    start_time: Date;
  },
  held: number,
  at: Temporal.Instant,
): number {
  const policy = refundableCents(
    {
      finalPriceCents: moneyPartCents(row),
      refundRatios: row.refund_ratios,
      start: instantFromDate(row.start_time),
    },
    at,
  );
  return Math.min(held, policy);
}

/** How an operator refunds what they cancel: by the booking's policy, all the gym holds of it, or nothing. */
export type OperatorRefundMode = 'policy' | 'full' | 'none';

/** The refund of `mode`, of a booking whose policy gives `policyCents` and of which the gym holds `held`. */
export function refundOfMode(mode: OperatorRefundMode) {
  return (_row: repository.BookingToCancelRow, policyCents: number, held: number) =>
    mode === 'full' ? held : mode === 'none' ? 0 : policyCents;
}

/** What comes back of what credit paid, by `mode`: all, none, or the policy's ratio (undefined: the policy's). */
export function creditRatioOfMode(mode: OperatorRefundMode | 'amount'): number | undefined {
  return mode === 'full' ? 1 : mode === 'none' ? 0 : undefined;
}

/** Gives each booking's refund, from what its policy gives `at` and what the gym holds of what was paid. */
export type RefundOf = (row: repository.BookingToCancelRow, policyCents: number, held: number) => number;

/**
 * The refund `refundOf` gives each of the confirmed `rows` cancelled `at`, in their order: what cancelling them
 * refunds, and what an approval of a cancellation is asked for (console/use-cases/request-cancellation.ts).
 */
export async function refundsOf(
  trx: Db,
  rows: readonly repository.BookingToCancelRow[],
  refundOf: RefundOf,
  at: Temporal.Instant,
): Promise<number[]> {
  const totals = await totalsOfBookings(
    trx,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const held = bookingMoney({ ...row, paid_at: null }, totals.get(row.id)).heldCents;
    return refundOf(row, policyRefundCents(row, held, at), held);
  });
}

/**
 * Cancels those of `bookingIds` still live, in `trx`, as an operator or a closure does: pending holds are released
 * (expired), confirmed bookings cancelled with the refund `refundOf` gives each (never more than the gym holds of
 * what was paid). Marks who cancelled and why. Answers what was cancelled and refunded.
 */
export async function cancelLiveBookings(
  trx: Db,
  deps: CancellationDependencies,
  request: {
    bookingIds: readonly number[];
    refundOf: RefundOf;
    /** What comes back of what credit paid (1 all, 0 none); the policy's ratio when absent. */
    creditRatio?: number;
    canceledBy: string;
    cause: RefundCause & { reason: string };
    /** Who ended them, for the member's message: an operator and a closure tell the reason, a block does not. */
    notice: 'operator' | 'closure' | 'blocked';
    at: Temporal.Instant;
  },
): Promise<{ bookingId: number; refundCents: number }[]> {
  const rows = await repository.lockBookings(trx, request.bookingIds);
  await repository.expirePendingBookings(
    trx,
    rows.filter((row) => row.status === 'pending').map((row) => row.id),
  );
  const confirmed = rows.filter((row) => row.status === 'confirmed');
  const refunds = await refundsOf(trx, confirmed, request.refundOf, request.at);
  const toCancel = confirmed.map((row, index) => ({
    row,
    refundCents: refunds[index]!,
    creditRatio: request.creditRatio,
  }));
  // The member is told by the cancellation's own notice (docs/decisions.md, 'Messages about a booking').
  await cancelAndRefund(
    trx,
    deps,
    toCancel,
    dateFromInstant(request.at),
    request.notice,
    request.cause,
    request.notice === 'blocked' ? null : request.cause.reason,
  );
  await repository.markCanceledBy(
    trx,
    toCancel.map(({ row }) => row.id),
    request.canceledBy,
    request.cause.reason,
  );
  return toCancel.map(({ row, refundCents }) => ({ bookingId: row.id, refundCents }));
}

/**
 * A block's cancellation (the accounts module's port, CancelFutureBookings): the members' live bookings that have
 * not started, refunded as `refundMode` says, as the operator who blocked them. Answers the bookings cancelled.
 */
export async function cancelFutureBookingsOfMembers(
  trx: Db,
  deps: CancellationDependencies & { clock: Clock },
  request: { memberIds: readonly string[]; refundMode: OperatorRefundMode; reason: string; actor: Actor },
): Promise<number[]> {
  const at = deps.clock.now();
  const atDate = dateFromInstant(at);
  const ids = await repository.lockLiveBookingsInPeriod(trx, {
    userIds: request.memberIds,
    from: atDate,
    until: null,
    now: atDate,
  });
  // Only bookings that have not started: a member inside the gym now keeps the session.
  const future = (await repository.lockBookings(trx, ids))
    .filter((row) => row.start_time > atDate)
    .map((row) => row.id);
  const canceled = await cancelLiveBookings(trx, deps, {
    bookingIds: future,
    refundOf: refundOfMode(request.refundMode),
    creditRatio: creditRatioOfMode(request.refundMode),
    canceledBy: request.actor.email ?? 'cli',
    cause: { purpose: 'operator', actor: operatorActor(request.actor), reason: request.reason },
    // The block's reason is the operators' record, not a message to the member.
    notice: 'blocked',
    at,
  });
  return canceled.map((item) => item.bookingId);
}
