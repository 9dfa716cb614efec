import {
  PaymentProviderError,
  type MultibancoVoucher,
  type PaymentMethodKind,
  type PaymentProvider,
  type ProviderSession,
} from '../../adapters/payments/provider.ts';
import { AppError } from '../../kernel/errors.ts';
import type { AccessCodeScheduler } from '../access-codes.ts';
import type { GuestCodeScheduler } from '../guest-codes.ts';
import { queueCancellationNotices, type NoticeDependencies } from '../cancellation-notices.ts';
import { bookingConfirmationMessage } from '../confirmation-message.ts';
import { voucherMessage } from '../voucher-message.ts';
import { instantFromDate } from '../../kernel/clock.ts';
import type { CompanyDetails } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { insertOutboxMessage } from '../../kernel/outbox.ts';
import type { TransactionRetryLog } from '../../kernel/transactions.ts';
import { issueLockCodes, type LockDependencies } from '../../doors/index.ts';
import { messageAddressee, messageBookingTimes, findMessageContext } from '../../notifications/index.ts';
import {
  recordSessionPayment,
  refundThroughProvider,
  sessionPaymentSource,
  systemActor,
  type DocumentRecorder,
} from '../ledger.ts';
import { findSessionPayment, sharesOfEntry } from '../ledger-repository.ts';
import { applyMoveSessionOutcome } from '../moves.ts';
import { findMoveBySession, lockBookingToMove, peekMoveBySession } from '../moves-repository.ts';
import * as repository from './repository.ts';
import { applyPackOutcome } from '../wallet/purchase.ts';
import { applyVoucherOutcome } from '../wallet/vouchers.ts';

// What a paid, expired or failed checkout does to its bookings. Every function runs in the caller's
// transaction, with the session's row locked, so each change happens exactly once.

export type FulfilmentDependencies = LockDependencies &
  NoticeDependencies & {
    payments: PaymentProvider;
    /** The seller named on the receipt in the confirmation e-mail. */
    company: CompanyDetails;
    /**
     * Schedules each confirmed booking's door-code message on the durable queue, in the confirming transaction.
     * Required so no wiring can forget it; `null` only where no message must ever go out (unit tests of rules).
     */
    accessCodes: AccessCodeScheduler | null;
    /** Times a guest's door-code message (issue 31); absent where none must go out. */
    guestCodes?: GuestCodeScheduler | null;
    /** Records each new ledger row's tax document in the row's transaction (the invoicing module). */
    documents: DocumentRecorder | null;
    /** Where a transaction run again after a deadlock is reported (runTransaction); not reported when absent. */
    log?: TransactionRetryLog | null;
  };

/** The refund of a booking paid after its hold was released: one per booking, ever. */
export function latePaymentRefundKey(bookingId: number): string {
  return `late-payment-refund-${bookingId}`;
}

async function writeConfirmationEmail(
  trx: Db,
  deps: FulfilmentDependencies,
  bookings: readonly repository.FulfilledBookingRow[],
  now: Date,
): Promise<void> {
  const first = bookings[0];
  if (!first?.user_id) return;
  const context = await findMessageContext(trx, first.user_id, first.branch_id);
  if (!context?.email) return;
  const details = new Map(
    (
      await repository.findReceiptDetails(
        trx,
        bookings.map((booking) => booking.id),
      )
    ).map((row) => [row.id, row]),
  );
  const rows = [...details.values()];
  const couponed = rows.find((row) => row.coupon_code !== null);
  const sessions = [...new Set(rows.flatMap((row) => row.checkout_session_id ?? []))];
  // What was paid is the ledger's: the payment's amount and VAT, and each booking's share of it.
  const payment = sessions.length === 1 ? await findSessionPayment(trx, sessions[0]!) : undefined;
  const shares = payment ? await sharesOfEntry(trx, payment.id) : new Map<number, number>();
  const message = bookingConfirmationMessage({
    ...messageAddressee(context),
    slots: bookings.map((booking) => ({
      ...messageBookingTimes(booking),
      basePriceCents: details.get(booking.id)?.base_price_cents ?? booking.final_price_cents,
      finalPriceCents: shares.get(booking.id) ?? booking.final_price_cents,
      sequence: booking.calendar_sequence,
    })),
    receipt: {
      company: deps.company,
      customer: {
        firstName: context.first_name,
        lastName: rows[0]?.last_name ?? '',
        taxId: rows[0]?.tax_id ?? null,
      },
      coupon: couponed ? { code: couponed.coupon_code!, discount: Number(couponed.coupon_discount) } : null,
      payment: payment
        ? {
            reference: payment.checkout_session_id,
            amountCents: payment.amount_cents,
            vatCents: payment.vat_cents,
            vatRate: Number(payment.vat_rate),
          }
        : null,
      documentUrl: payment ? ((await deps.documents?.linkOf(trx, payment.id)) ?? null) : null,
    },
    organizer: deps.organizer,
    attendeeEmail: context.email,
    publicUrl: deps.publicUrl,
    now: instantFromDate(now),
  });
  const ids = bookings.map((booking) => booking.id).sort((a, b) => a - b);
  await insertOutboxMessage(trx, {
    channel: 'email',
    recipient: context.email,
    locale: context.locale,
    kind: 'booking_confirmed',
    subject: message.subject,
    text_body: message.text,
    html_body: message.html,
    attachments: JSON.stringify(message.attachments),
    dedupe_key: `booking_confirmed:${ids.join(',')}`,
    // The app's clock, not the database's: the worker picks up what is due by the same clock.
    created_at: now,
    next_attempt_at: now,
  });
}

/**
 * Confirms the pending bookings of a paid session (or of a free booking), issues their lock codes, schedules their
 * door-code messages and writes the confirmation e-mail to the outbox. Bookings confirmed before are left alone, so a second call does nothing.
 */
export async function confirmBookings(
  trx: Db,
  deps: FulfilmentDependencies,
  target: { sessionId: string } | { bookingIds: readonly number[] },
  now: Date,
): Promise<number[]> {
  await repository.lockSlotsOfPendingBookings(trx, target);
  const confirmed = await repository.confirmPendingBookings(trx, target, now);
  if (confirmed.length === 0) return [];
  await issueLockCodes(trx, deps, confirmed, now);
  await deps.accessCodes?.schedule(
    trx,
    confirmed.map((booking) => ({ id: booking.id, start: booking.start_time })),
  );
  await writeConfirmationEmail(trx, deps, confirmed, now);
  return confirmed.map((booking) => booking.id);
}

/**
 * A refund the provider must make now. When it cannot be reached the caller hears 503 and the transaction rolls
 * back, so the event is not recorded and the provider's retry does it all again (the idempotency key makes a
 * refund that did go through happen once).
 */
export async function refundOrUnavailable(
  deps: Pick<FulfilmentDependencies, 'payments'>,
  input: Parameters<PaymentProvider['refund']>[0],
): ReturnType<PaymentProvider['refund']> {
  try {
    return await deps.payments.refund(input);
  } catch (error) {
    if (error instanceof PaymentProviderError) {
      const unavailable = new AppError('payment_provider_unavailable');
      unavailable.cause = error;
      throw unavailable;
    }
    throw error;
  }
}

/** Pays back bookings whose payment arrived after their holds were released (the slot may be someone else's). */
async function refundLatePayments(
  trx: Db,
  deps: FulfilmentDependencies,
  session: { id: string; paymentIntentId: string | null },
  now: Date,
): Promise<void> {
  const late = await repository.markLatePaidBookings(trx, session.id, now);
  const payment = late.length === 0 ? undefined : await findSessionPayment(trx, session.id);
  const shares = payment ? await sharesOfEntry(trx, payment.id) : new Map<number, number>();
  const refunded: number[] = [];
  for (const booking of late) {
    // Each gets back its share of the payment, which the ledger recorded just before.
    const share = shares.get(booking.id);
    if (!payment || !share) continue;
    const cents = await refundThroughProvider(trx, deps, {
      bookingId: booking.id,
      amountCents: share,
      idempotencyKey: latePaymentRefundKey(booking.id),
      payment: sessionPaymentSource(payment, session),
      cause: { purpose: 'late_payment', actor: systemActor() },
      metadata: { booking_id: String(booking.id), reason: 'paid_after_hold_released' },
      at: now,
    });
    if (cents > 0) refunded.push(booking.id);
  }
  await queueCancellationNotices(trx, deps, refunded, 'late_payment', now);
}

/** A Multibanco hold ends this long before the first slot starts, if its voucher is still unpaid then. */
export const MULTIBANCO_RELEASE_HOURS_BEFORE_START = 48;
/** How long an MB WAY payer has to approve on the phone once the checkout completed; Stripe's limit is shorter. */
export const MB_WAY_APPROVAL_MINUTES = 10;

/**
 * A checkout completed without its money (a Multibanco voucher, an MB WAY request on the payer's phone): its
 * pending bookings keep their slots until the money arrives or fails. A voucher holds them until it expires or
 * 48 hours before the first start, whichever comes first (released at once when that moment has passed); MB WAY
 * until the approval window closes. Nothing else happens: no door code, no ledger row, no invoice.
 */
async function holdUntilPaid(
  trx: Db,
  deps: FulfilmentDependencies,
  stored: repository.CheckoutSessionRow,
  method: PaymentMethodKind | null,
  voucher: MultibancoVoucher | null,
  now: Date,
): Promise<void> {
  let until: Date;
  if (method === 'multibanco' && voucher) {
    const firstStart = await repository.firstStartOfPendingBookings(trx, stored.id);
    if (!firstStart) return;
    const latest = firstStart.getTime() - MULTIBANCO_RELEASE_HOURS_BEFORE_START * 60 * 60 * 1000;
    until = new Date(Math.min(voucher.expiresAt.epochMilliseconds, latest));
  } else if (method === 'mb_way' && stored.status === 'open') {
    // Once, when the checkout completes: a later reading of the session must not stretch the window again.
    until = new Date(Math.max(stored.expires_at.getTime(), now.getTime() + MB_WAY_APPROVAL_MINUTES * 60_000));
  } else {
    return;
  }
  if (until <= now) {
    await repository.releasePendingBookingsOfSession(trx, stored.id);
    return;
  }
  await repository.holdPendingBookingsOfSessionUntil(trx, stored.id, until, now);
  if (method === 'multibanco' && voucher) await writeVoucherEmail(trx, deps, stored, voucher, until, now);
}

/** The voucher by e-mail, once per session (its dedupe key), in the member's language and the branch's zone. */
async function writeVoucherEmail(
  trx: Db,
  deps: FulfilmentDependencies,
  stored: repository.CheckoutSessionRow,
  voucher: MultibancoVoucher,
  until: Date,
  now: Date,
): Promise<void> {
  const held = await repository.listSessionBookings(trx, stored.id);
  const first = held[0];
  if (!stored.user_id || !first) return;
  const context = await findMessageContext(
    trx,
    stored.user_id,
    await repository.branchOfBooking(trx, first.id),
  );
  if (!context?.email) return;
  const message = voucherMessage({
    locale: context.locale,
    firstName: context.first_name,
    timeZone: first.time_zone,
    entity: voucher.entity,
    reference: voucher.reference,
    amountCents: stored.amount_cents,
    heldUntil: instantFromDate(until),
    voucherUrl: voucher.url,
    slots: held
      .filter((booking) => booking.status === 'pending')
      .map((booking) => ({
        branchName: booking.branch_name,
        start: instantFromDate(booking.start_time),
        end: instantFromDate(booking.end_time),
      })),
    publicUrl: deps.publicUrl,
  });
  await insertOutboxMessage(trx, {
    channel: 'email',
    recipient: context.email,
    locale: context.locale,
    kind: 'payment_voucher',
    subject: message.subject,
    text_body: message.text,
    html_body: message.html,
    dedupe_key: `payment_voucher:${stored.id}`,
    created_at: now,
    next_attempt_at: now,
  });
}

export type SessionOutcome = 'paid' | 'awaiting_payment' | 'failed' | 'expired';

/**
 * Brings the stored session and its bookings in line with what the provider says happened. `failed` is Stripe's
 * async_payment_failed: the session is complete but will never be paid.
 */
export async function applySessionOutcome(
  trx: Db,
  deps: FulfilmentDependencies,
  session: Pick<ProviderSession, 'id' | 'paymentIntentId' | 'card' | 'paymentMethod' | 'voucher'>,
  outcome: SessionOutcome,
  now: Date,
): Promise<'applied' | 'unknown_session'> {
  // A move's checkout pays a difference: what it does to bookings is the move's own (server/booking/moves.ts).
  // Its booking (door code, then row) is locked before the session and the move, in the order a cancellation of
  // the booking takes them, so the two never wait for each other in a circle.
  const moved = await peekMoveBySession(trx, session.id);
  if (moved) await lockBookingToMove(trx, moved.booking_id);
  const stored = await repository.lockSession(trx, session.id);
  if (!stored) return 'unknown_session';
  // A pack's checkout sells credit, not slots (issue 31): its outcome is the wallet's.
  if (stored.credit_pack_id !== null) {
    await applyPackOutcome(trx, deps, stored, session, outcome, now);
    return 'applied';
  }
  if (stored.gift_voucher_id !== null) {
    await applyVoucherOutcome(trx, deps, stored, session, outcome, now);
    return 'applied';
  }
  const move = await findMoveBySession(trx, stored.id);
  const paymentIntentId = session.paymentIntentId ?? stored.payment_intent_id;
  const alreadyPaid = stored.status === 'complete' && stored.payment_status === 'paid';

  if (outcome === 'paid') {
    if (!alreadyPaid) {
      await repository.markSessionPaid(trx, stored, session, paymentIntentId, now);
      // The money arrived: its ledger row is written here, with the session's row locked, so once, and before the
      // confirmation, whose receipt states it. Its shares refer to the session's bookings, so their slots are
      // locked first, the one order every writer of a live booking takes (slots, then bookings).
      if (!move) await repository.lockSlotsOfPendingBookings(trx, { sessionId: stored.id });
      // Money for a voucher (or an MB WAY approval) whose hold ran out, swept or not yet: the slots were released
      // at that moment (48 hours before the start at the latest), so these bookings are refunded, not confirmed.
      if (!move && stored.status === 'complete')
        await repository.releaseDueHoldsOfSession(trx, stored.id, now);
      await recordSessionPayment(trx, deps, {
        sessionId: stored.id,
        provider: stored.provider,
        currency: stored.currency,
        userId: stored.user_id,
        paymentIntentId,
        amountCents: stored.amount_cents,
        movedBookingId: move?.booking_id ?? null,
        at: now,
      });
      if (!move) await confirmBookings(trx, deps, { sessionId: stored.id }, now);
    }
    if (move) await applyMoveSessionOutcome(trx, deps, move, { id: stored.id, paymentIntentId }, 'paid', now);
    else await refundLatePayments(trx, deps, { id: stored.id, paymentIntentId }, now);
    return 'applied';
  }
  // A paid session is final: a late `expired` or a stray `failed` never releases a paid slot.
  if (alreadyPaid) return 'applied';

  if (outcome === 'awaiting_payment') {
    const { method, voucher } = await repository.markSessionAwaitingPayment(
      trx,
      stored,
      session,
      paymentIntentId,
      now,
    );
    if (!move) await holdUntilPaid(trx, deps, stored, method, voucher, now);
    return 'applied';
  }
  if (outcome === 'expired' && stored.status === 'open') {
    await repository.updateSession(trx, stored.id, { status: 'expired' });
  }
  if (move) await applyMoveSessionOutcome(trx, deps, move, { id: stored.id, paymentIntentId }, outcome, now);
  else await repository.releasePendingBookingsOfSession(trx, stored.id);
  return 'applied';
}

/** What a provider session's state means for its bookings. */
export function outcomeOfSession(
  session: Pick<ProviderSession, 'status' | 'paymentStatus'>,
): SessionOutcome | null {
  if (session.status === 'complete') return session.paymentStatus === 'unpaid' ? 'awaiting_payment' : 'paid';
  if (session.status === 'expired') return 'expired';
  return null;
}
