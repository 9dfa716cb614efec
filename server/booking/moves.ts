import { documentLinksOf } from './document-links.ts';
import { SESSION_ID_PLACEHOLDER } from '../adapters/payments/provider.ts';
import * as checkoutRepository from './checkout/repository.ts';
import type { FulfilmentDependencies } from './checkout/fulfilment.ts';
import { dateFromInstant, instantFromDate, type Clock } from '../kernel/clock.ts';
import type { Db } from '../db/database.ts';
import { insertOutboxMessage } from '../kernel/outbox.ts';
import { runTransaction } from '../kernel/transactions.ts';
import type { BookingMovesTable } from '../db/schema.ts';
import type { Insertable } from 'kysely';
import { AppError, type ErrorCode } from '../kernel/errors.ts';
import { moveRefusal, type MoveRefusal } from './move-rules.ts';
import type { Locale } from '../kernel/i18n.ts';
import { issueLockCodes, releaseLockCodes } from '../doors/index.ts';
import { recodeGuestsOf } from './guests.ts';
import { findMessageContext } from '../notifications/index.ts';
import { rescheduleRecodedAccessCodes } from './access-codes.ts';
import { isConflict } from '../kernel/database-errors.ts';
import { bookingMovedMessage, moveRefundedMessage } from './move-message.ts';
import { openCheckoutOverHolds, PROVIDER_CALL_HOLD_MINUTES } from './held-checkout.ts';
import {
  memberActor,
  refundFromBookingPayments,
  refundThroughProvider,
  sessionPaymentSource,
  systemActor,
} from './ledger.ts';
import { findSessionPayment } from './ledger-repository.ts';
import { centsToEuros, discountedCents, formatMoney, sameAmount } from '../kernel/money.ts';
import * as movesRepository from './moves-repository.ts';
import { highestThreshold, withinBestRefundTier } from './refunds.ts';
import * as repository from './repository.ts';
import { describeSlotTime } from '../kernel/time-format.ts';
import type { components } from '../../openapi/schema.gen.ts';

// Moving a booking to another slot of its branch (docs/decisions.md, "Moving a booking"). The booking keeps its
// id and changes its slot in place, so its door code, its door-code message and its calendar event follow it.
// A cheaper slot refunds the difference, a dearer one is held like a new booking until the difference is paid.

type MoveDependencies = FulfilmentDependencies & { db: Db; clock: Clock; checkoutExpiryMinutes: number };

export type MoveBookingInput = {
  userId: string;
  bookingId: number;
  slotId: number;
  expectedDifferenceEur: number;
  locale: Locale;
};

type MoveBookingResponse = components['schemas']['MoveBookingResponse'];

/** The first step of a move: its answer (moved at once, or a repeated request), or a hold awaiting its checkout. */
/** Who moves a booking, by which rules: the member (who may pay or be refunded a difference) or an operator. */
/** The error of each refusal of a target slot (its own slot was refused before, by the caller's own error). */
const REFUSAL_ERRORS = {
  current: 'move_same_slot',
  started: 'slot_started',
  closed: 'slot_unavailable',
  taken: 'slot_unavailable',
  price_differs: 'move_price_differs',
} as const satisfies Record<MoveRefusal, ErrorCode>;

export type MoveRules = { by: 'member'; userId: string; expectedDifferenceEur: number } | { by: 'operator' };

export type MoveRequest = { bookingId: number; slotId: number; rules: MoveRules };

type SlotTime = { start_time: Date; end_time: Date };

/**
 * The first step of a move: its answer (moved at once, or a repeated request) with where the booking was and, when
 * this request moved it, where it went; or a hold awaiting its checkout.
 */
type MoveStep =
  | { answer: MoveBookingResponse; from: SlotTime & { slot_id: number }; to?: SlotTime & { id: number } }
  | {
      dearer: {
        holdId: number;
        slot: repository.SlotForBookingRow;
        difference: number;
        moveFigures: Omit<Insertable<BookingMovesTable>, 'seq' | 'state'>;
        fromSlotId: number;
        email: string | null | undefined;
      };
    };

/** The booking takes its new slot: its door code follows (the old one released like a cancellation's). */
async function completeMove(
  trx: Db,
  deps: FulfilmentDependencies,
  booking: movesRepository.BookingToMoveRow,
  slot: { id: number; start_time: Date; end_time: Date; base_price_cents: number; final_price_cents: number },
  move: { seq: number; differenceCents: number },
  now: Date,
): Promise<void> {
  await movesRepository.moveBookingToSlot(trx, booking.id, slot);
  if (booking.lock_code_id !== null) {
    await releaseLockCodes(trx, deps, [booking.lock_code_id], now);
    await rescheduleRecodedAccessCodes(trx, deps.accessCodes, [booking.lock_code_id], now);
  }
  const moved = {
    id: booking.id,
    user_id: booking.user_id,
    branch_id: booking.branch_id,
    start_time: slot.start_time,
    end_time: slot.end_time,
  };
  await issueLockCodes(trx, deps, [moved], now);
  // The guests' codes follow the booking to its new time (issue 31): fresh codes, the old ones revoked.
  await recodeGuestsOf(trx, deps, moved, now);
  const lockCodeId = await movesRepository.findBookingLockCode(trx, booking.id);
  if (lockCodeId !== null) {
    await deps.accessCodes?.reschedule(trx, {
      id: booking.id,
      start: slot.start_time,
      lockCodeId,
      moveSeq: move.seq,
    });
  }
  await writeMovedEmail(trx, deps, booking, slot, move, now);
}

/** The updated-booking e-mail of a move (the member's own or an operator's): same calendar UID, next SEQUENCE. */
async function writeMovedEmail(
  trx: Db,
  deps: Pick<FulfilmentDependencies, 'organizer' | 'publicUrl'> & {
    documents?: FulfilmentDependencies['documents'];
  },
  booking: Pick<movesRepository.BookingToMoveRow, 'id' | 'user_id' | 'branch_id' | 'start_time' | 'end_time'>,
  slot: { start_time: Date; end_time: Date },
  move: { seq: number; differenceCents: number },
  now: Date,
): Promise<void> {
  if (booking.user_id === null) return;
  const context = await findMessageContext(trx, booking.user_id, booking.branch_id);
  if (!context?.email) return;
  const [revised] = await repository.reviseCalendarEvents(trx, [booking.id]);
  const message = bookingMovedMessage({
    locale: context.locale,
    firstName: context.first_name,
    branch: { name: context.branch_name, location: context.location, timeZone: context.time_zone },
    bookingId: booking.id,
    from: { start: instantFromDate(booking.start_time), end: instantFromDate(booking.end_time) },
    to: { start: instantFromDate(slot.start_time), end: instantFromDate(slot.end_time) },
    differenceCents: move.differenceCents,
    sequence: revised!.calendar_sequence,
    organizer: deps.organizer,
    attendeeEmail: context.email,
    publicUrl: deps.publicUrl,
    now: instantFromDate(now),
    documentUrls: await documentLinksOf(trx, deps.documents, [booking.id], now),
  });
  await insertOutboxMessage(trx, {
    channel: 'email',
    recipient: context.email,
    locale: context.locale,
    kind: 'booking_moved',
    subject: message.subject,
    text_body: message.text,
    html_body: message.html,
    attachments: JSON.stringify(message.attachments),
    dedupe_key: `booking_moved:${booking.id}:${move.seq}`,
    created_at: now,
    next_attempt_at: now,
  });
}

function movedResponse(move: { difference_cents: number; state: string }, refundedCents: number | null) {
  return {
    status: 'moved' as const,
    price_difference_eur: centsToEuros(move.difference_cents),
    refunded_eur: refundedCents === null ? null : centsToEuros(refundedCents),
    checkout_session: null,
  };
}

/**
 * What a move's checkout session did: paid while its hold still holds the slot and the booking is still
 * confirmed → the move completes; paid too late (the hold ended, the booking was cancelled or moved otherwise)
 * → the difference is refunded whole and the member told so; expired or failed → the hold ends, nothing moves.
 * Runs in the fulfilment's transaction with the session's row locked, so it happens once.
 */
export async function applyMoveSessionOutcome(
  trx: Db,
  deps: FulfilmentDependencies,
  move: movesRepository.MoveRow,
  session: { id: string; paymentIntentId: string | null },
  outcome: 'paid' | 'awaiting_payment' | 'failed' | 'expired',
  now: Date,
): Promise<void> {
  if (outcome === 'awaiting_payment') return;
  if (outcome !== 'paid') {
    if (move.state === 'awaiting_payment') {
      await movesRepository.settleMove(trx, move.id, 'expired', now);
      if (move.hold_booking_id !== null) await movesRepository.endHold(trx, move.hold_booking_id);
    }
    return;
  }
  if (move.state === 'completed' || move.state === 'refunded') return;
  const booking = (await movesRepository.lockBookingToMove(trx, move.booking_id))!;
  const hold =
    move.hold_booking_id === null ? undefined : await movesRepository.lockHold(trx, move.hold_booking_id);
  const holdLive =
    move.state === 'awaiting_payment' &&
    hold?.status === 'pending' &&
    hold.hold_expires_at !== null &&
    hold.hold_expires_at > now;
  if (holdLive && booking.status === 'confirmed' && booking.slot_id === move.from_slot_id) {
    const [slot] = await repository.findSlotsForBooking(trx, [move.to_slot_id]);
    await movesRepository.endHold(trx, hold.id);
    await completeMove(
      trx,
      deps,
      booking,
      {
        id: slot!.id,
        start_time: slot!.start_time,
        end_time: slot!.end_time,
        base_price_cents: move.to_base_price_cents,
        final_price_cents: move.to_price_cents,
      },
      { seq: move.seq, differenceCents: move.difference_cents },
      now,
    );
    await movesRepository.settleMove(trx, move.id, 'completed', now);
    return;
  }
  // Too late: the slot may be someone else's now. The whole difference goes back, once.
  if (hold) await movesRepository.endHold(trx, hold.id);
  const payment = await findSessionPayment(trx, session.id);
  if (payment) {
    await refundThroughProvider(trx, deps, {
      bookingId: booking.id,
      amountCents: payment.amount_cents,
      idempotencyKey: `move-late-payment-refund-${booking.id}-${move.seq}`,
      payment: sessionPaymentSource(payment, session),
      cause: { purpose: 'move_late_payment', actor: systemActor() },
      metadata: { booking_id: String(booking.id), reason: 'move_paid_after_hold_released' },
      at: now,
    });
  }
  await movesRepository.settleMove(trx, move.id, 'refunded', now);
  if (booking.user_id === null) return;
  const context = await findMessageContext(trx, booking.user_id, booking.branch_id);
  if (!context?.email) return;
  const message = moveRefundedMessage({
    locale: context.locale,
    firstName: context.first_name,
    branch: { name: context.branch_name, location: context.location, timeZone: context.time_zone },
    from: { start: instantFromDate(booking.start_time), end: instantFromDate(booking.end_time) },
    differenceCents: move.difference_cents,
    publicUrl: deps.publicUrl,
  });
  await insertOutboxMessage(trx, {
    channel: 'email',
    recipient: context.email,
    locale: context.locale,
    kind: 'booking_move_refunded',
    subject: message.subject,
    text_body: message.text,
    html_body: message.html,
    attachments: JSON.stringify(message.attachments),
    dedupe_key: `booking_move_refunded:${booking.id}:${move.seq}`,
    created_at: now,
    next_attempt_at: now,
  });
}

/** Ends the holds of moves that can no longer complete (their bookings were cancelled), in the cancelling transaction. */
export async function abandonMovesOf(trx: Db, bookingIds: readonly number[], now: Date): Promise<void> {
  for (const move of await movesRepository.listAwaitingMovesOf(trx, bookingIds)) {
    await movesRepository.settleMove(trx, move.id, 'expired', now);
    if (move.hold_booking_id !== null) await movesRepository.endHold(trx, move.hold_booking_id);
  }
}

export function createMoveService(
  deps: MoveDependencies & {
    checkoutReturnUrl(locale: string, sessionId: string, bookingDate: string | null): string;
  },
) {
  const { db, clock } = deps;

  /** A repeated request: the same answer, nothing done twice. Undefined when it is a new request. */
  async function replay(
    trx: Db,
    booking: movesRepository.BookingToMoveRow,
    input: Pick<MoveBookingInput, 'slotId' | 'expectedDifferenceEur'>,
    now: Date,
  ): Promise<MoveBookingResponse | undefined> {
    const latest = await movesRepository.findLatestMove(trx, booking.id);
    if (!latest || latest.to_slot_id !== input.slotId) return undefined;
    if (latest.state === 'completed' && booking.slot_id === input.slotId) {
      if (!sameAmount(input.expectedDifferenceEur, latest.difference_cents)) return undefined;
      const refunded = latest.difference_cents < 0 ? -latest.difference_cents : null;
      return movedResponse(latest, refunded);
    }
    if (latest.state === 'awaiting_payment' && latest.checkout_session_id !== null) {
      const session = await checkoutRepository.findSession(trx, latest.checkout_session_id);
      const hold =
        latest.hold_booking_id === null
          ? undefined
          : await movesRepository.lockHold(trx, latest.hold_booking_id);
      const open =
        session?.status === 'open' &&
        session.expires_at > now &&
        hold?.status === 'pending' &&
        session.client_secret !== null;
      if (!open || !sameAmount(input.expectedDifferenceEur, latest.difference_cents)) return undefined;
      return {
        status: 'awaiting_payment',
        price_difference_eur: centsToEuros(latest.difference_cents),
        refunded_eur: null,
        checkout_session: { clientSecret: session.client_secret! },
      };
    }
    return undefined;
  }

  async function insertHold(
    trx: Db,
    row: Parameters<typeof repository.insertBookings>[1][number],
  ): Promise<number> {
    try {
      const [id] = await repository.insertBookings(trx, [row]);
      return id!;
    } catch (error) {
      // A deadlock says nothing about the slot: it escapes, and moveBooking's transaction is run again.
      if (isConflict(error)) throw new AppError('slot_unavailable');
      throw error;
    }
  }

  async function moveInPlace(trx: Db, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      // A deadlock says nothing about the slot: it escapes, and moveBooking's transaction is run again.
      if (isConflict(error)) throw new AppError('slot_unavailable');
      throw error;
    }
  }

  /**
   * The one set of rules of moving a booking, in the caller's transaction (a member's request, or the console's
   * audited change): the booking locked (its door code first), the slot checked and locked, and then moved at once
   * (an equal or cheaper slot, the difference refunded) or, for a member's dearer slot, held for the checkout of
   * the difference. A member moves their own paid booking while it is in the best refund tier and may pay or be
   * refunded a difference; an operator moves any confirmed booking until its start, to a slot of the same price.
   */
  async function moveStep(trx: Db, request: MoveRequest): Promise<MoveStep> {
    const { rules } = request;
    const now = clock.now();
    const nowDate = dateFromInstant(now);
    const booking = await movesRepository.lockBookingToMove(trx, request.bookingId);
    if (!booking || (rules.by === 'member' && booking.user_id !== rules.userId)) {
      throw new AppError('booking_not_found');
    }
    if (rules.by === 'member') {
      const replayed = await replay(
        trx,
        booking,
        { slotId: request.slotId, expectedDifferenceEur: rules.expectedDifferenceEur },
        nowDate,
      );
      if (replayed) return { answer: replayed, from: booking };
      if (
        booking.status !== 'confirmed' ||
        booking.paid_at === null ||
        !withinBestRefundTier(
          { refundRatios: booking.refund_ratios, start: instantFromDate(booking.start_time) },
          now,
        )
      ) {
        throw new AppError('booking_not_movable', { hours: highestThreshold(booking.refund_ratios) });
      }
      // Its credit was spent on this slot's price and scope: it is cancelled (credit back) and booked again.
      if (booking.credit_cents > 0) throw new AppError('booking_paid_with_credit');
    } else if (booking.status !== 'confirmed' || booking.start_time <= nowDate) {
      throw new AppError('booking_not_cancelable');
    }
    // Its own slot is no move: it would release and reissue the door code and tell the member of nothing.
    if (booking.slot_id === request.slotId) {
      throw new AppError(rules.by === 'member' ? 'move_target_invalid' : 'move_same_slot');
    }
    // The slot is locked before its price is read, as a booking's are: a move queued behind a price change is
    // priced at the new price (price_difference_changed for a client showing the old one), never at a stale one.
    await repository.lockSlots(trx, [request.slotId]);
    const [slot] = await repository.findSlotsForBooking(trx, [request.slotId]);
    if (!slot) throw new AppError('slot_not_found');
    if (slot.branch_id !== booking.branch_id) {
      throw new AppError(rules.by === 'member' ? 'move_target_invalid' : 'slots_of_several_branches');
    }
    if (!slot.active_with_smart_lock) throw new AppError('branch_not_bookable');
    // The closure is read after the slot's lock, as a booking's is: a move racing a closure is moved and then
    // cancelled by it, or refused. A taken slot is the exclusion constraint's to refuse, when the move inserts.
    const closed = await repository.anySlotClosed(trx, [slot.id]);
    const refusal = moveRefusal(booking, { ...slot, closed, taken: false }, nowDate, rules.by);
    if (refusal) throw new AppError(REFUSAL_ERRORS[refusal]);
    await repository.releaseStaleHoldsOfSlots(trx, [slot.id], nowDate);
    // A move of this booking still waiting for its payment gives way to this one: its hold ends, and a
    // payment that still arrives for it is refunded.
    await abandonMovesOf(trx, [booking.id], nowDate);
    if (rules.by === 'member') {
      // The member's own hold of this slot that no move ever recorded: a move of theirs cut off between its
      // hold and its checkout (a database cut, a crash), which would refuse this retry until it expired. This
      // move takes its place; had that move still been running, it hears move_in_progress when it comes to
      // record its checkout.
      await movesRepository.deleteUnrecordedHoldsOf(trx, rules.userId, slot.id);
    }

    // The booking's coupon discounts the new slot at the same rate (no new redemption: it is one booking).
    const toPrice =
      booking.coupon_discount === null
        ? slot.price_cents
        : discountedCents(slot.price_cents, booking.coupon_discount);
    const difference = toPrice - booking.final_price_cents;
    // The console moves at the same price (moveRefusal saw to it): the member pays and is refunded nothing.
    if (rules.by === 'member' && !sameAmount(rules.expectedDifferenceEur, difference)) {
      throw new AppError(
        'price_difference_changed',
        { difference: (locale) => formatMoney(locale, difference) },
        { price_difference_eur: centsToEuros(difference) },
      );
    }
    const moveFigures = {
      booking_id: booking.id,
      from_slot_id: booking.slot_id,
      to_slot_id: slot.id,
      from_price_cents: booking.final_price_cents,
      to_base_price_cents: slot.price_cents,
      to_price_cents: toPrice,
      difference_cents: difference,
    };

    if (difference <= 0) {
      const seq = await movesRepository.nextMoveSeq(trx, booking.id);
      await moveInPlace(trx, () =>
        completeMove(
          trx,
          deps,
          booking,
          {
            id: slot.id,
            start_time: slot.start_time,
            end_time: slot.end_time,
            base_price_cents: slot.price_cents,
            final_price_cents: toPrice,
          },
          { seq, differenceCents: difference },
          nowDate,
        ),
      );
      // The move is recorded before the refund, so the refund's parts see this move's figures.
      await movesRepository.insertMove(trx, {
        ...moveFigures,
        seq,
        state: 'completed',
        settled_at: nowDate,
      });
      const refunded =
        difference < 0
          ? await refundFromBookingPayments(
              trx,
              deps,
              booking.id,
              -difference,
              `move-refund-${booking.id}-${seq}`,
              {
                purpose: 'move_to_cheaper_slot',
                // Only a member's move changes the price; an operator's keeps it.
                actor: rules.by === 'member' ? memberActor(rules.userId) : systemActor('move'),
                providerReason: 'moved_to_cheaper_slot',
              },
              nowDate,
            )
          : null;
      return {
        answer: movedResponse({ difference_cents: difference, state: 'completed' }, refunded),
        from: booking,
        to: slot,
      };
    }

    // Dearer: the new slot is held like a new booking's, first while the provider opens the checkout of the
    // difference, then for as long as that checkout.
    const holdMinutes = Math.min(PROVIDER_CALL_HOLD_MINUTES, deps.checkoutExpiryMinutes);
    const holdId = await insertHold(trx, {
      user_id: booking.user_id,
      slot_id: slot.id,
      branch_id: slot.branch_id,
      start_time: slot.start_time,
      end_time: slot.end_time,
      status: 'pending',
      hold_expires_at: dateFromInstant(now.add({ minutes: holdMinutes })),
      base_price_cents: slot.price_cents,
      final_price_cents: toPrice,
      coupon_id: null,
      refund_ratios: JSON.stringify(booking.refund_ratios),
    });
    const user =
      booking.user_id === null ? undefined : await repository.findBookingUser(trx, booking.user_id);
    return {
      dearer: { holdId, slot, difference, moveFigures, fromSlotId: booking.slot_id, email: user?.email },
    };
  }

  return {
    moveStep,
    /**
     * `POST /bookings/{booking_id}/move`: see the contract. An equal or cheaper slot moves in one transaction
     * (a refund's provider call inside it, since the move and its refund stand or fall together). A dearer one
     * goes as a new booking's checkout does (held-checkout.ts): a short transaction holds the new slot, the
     * provider opens the checkout of the difference outside any transaction, and a second short transaction
     * records the move while the hold and the booking are still as they were; the old booking is kept as it
     * is until the difference is paid.
     */
    async moveBooking(input: MoveBookingInput): Promise<MoveBookingResponse> {
      const now = clock.now();
      // Run again after a deadlock, a cheaper move's refund is safe: its provider call is keyed by the booking and
      // the move's sequence number, and a try that rolled back recorded no move, so the next one keys it alike.
      const retried = { name: 'moveBooking', log: deps.log };
      const outcome = await runTransaction(db, retried, (trx) =>
        moveStep(trx, {
          bookingId: input.bookingId,
          slotId: input.slotId,
          rules: { by: 'member', userId: input.userId, expectedDifferenceEur: input.expectedDifferenceEur },
        }),
      );
      if ('answer' in outcome) return outcome.answer;

      const { holdId, slot, difference, moveFigures, fromSlotId, email } = outcome.dearer;
      const session = await openCheckoutOverHolds(
        deps,
        [holdId],
        () =>
          deps.payments.createCheckoutSession({
            amountCents: difference,
            currency: 'eur',
            lineItems: [
              {
                name: `${slot.branch_name}: ${describeSlotTime(
                  input.locale,
                  slot.time_zone,
                  instantFromDate(slot.start_time),
                  instantFromDate(slot.end_time),
                )}`,
                amountCents: difference,
              },
            ],
            customerEmail: email ?? null,
            locale: input.locale,
            expiresAt: now.add({ minutes: deps.checkoutExpiryMinutes }),
            returnUrl: deps.checkoutReturnUrl(input.locale, SESSION_ID_PLACEHOLDER, slot.local_date),
            // The hold's id is new for every attempt, so a retried attempt never meets an older one's session.
            idempotencyKey: `move-checkout-${holdId}`,
            // A move's difference is paid at once (card, MB WAY): its hold cannot wait days for a voucher.
            multibanco: false,
            metadata: {
              booking_id: String(input.bookingId),
              hold_booking_id: String(holdId),
              user_id: input.userId,
            },
          }),
        async (trx, opened) => {
          // Cancelled, moved, or given another move's checkout while the provider answered: another request
          // won the booking's row first, and this move is void. Its hold goes (the member never had it, so it
          // leaves no expired booking behind) and the caller hears why: never that payments are down.
          const booking = (await movesRepository.lockBookingToMove(trx, input.bookingId))!;
          const moved = booking.status === 'confirmed' && booking.slot_id !== fromSlotId;
          const racer =
            booking.status === 'confirmed' && !moved
              ? (await movesRepository.listAwaitingMovesOf(trx, [booking.id])).length > 0
              : false;
          if (booking.status !== 'confirmed' || moved || racer) {
            await repository.deleteUnattachedHolds(trx, [holdId]);
            return booking.status === 'confirmed'
              ? new AppError('move_in_progress')
              : new AppError('booking_not_movable', { hours: highestThreshold(booking.refund_ratios) });
          }
          await repository.insertCheckoutSession(trx, {
            id: opened.id,
            provider: deps.payments.name,
            user_id: input.userId,
            amount_cents: difference,
            client_secret: opened.clientSecret,
            locale: input.locale,
            booking_date: slot.local_date,
            expires_at: dateFromInstant(opened.expiresAt),
          });
          await movesRepository.setHoldExpiry(trx, holdId, dateFromInstant(opened.expiresAt));
          await movesRepository.insertMove(trx, {
            ...moveFigures,
            seq: await movesRepository.nextMoveSeq(trx, booking.id),
            state: 'awaiting_payment',
            hold_booking_id: holdId,
            checkout_session_id: opened.id,
          });
          return true;
        },
        // Only another request of this booking's ends a move's hold this soon (deleteUnrecordedHoldsOf).
        { holdsEnded: () => new AppError('move_in_progress') },
      );
      return {
        status: 'awaiting_payment',
        price_difference_eur: centsToEuros(difference),
        refunded_eur: null,
        checkout_session: { clientSecret: session.clientSecret ?? '' },
      };
    },
  };
}

export type MoveService = ReturnType<typeof createMoveService>;
