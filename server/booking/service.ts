import { createHash } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { SESSION_ID_PLACEHOLDER } from '../adapters/payments/provider.ts';
import {
  arrivalKitFor,
  findBranch,
  formatEpochInZone,
  listSlotsOfDay,
  readRefundRatios,
} from '../catalog/index.ts';
import { dateFromInstant, instantFromDate, type Clock } from '../kernel/clock.ts';
import { lockUsableCoupon } from './coupons/service.ts';
import { insertRedemptions } from './coupons/repository.ts';
import { confirmBookings, type FulfilmentDependencies } from './checkout/fulfilment.ts';
import type { Db } from '../db/database.ts';
import { runTransaction } from '../kernel/transactions.ts';
import { AppError } from '../kernel/errors.ts';
import type { Locale } from '../kernel/i18n.ts';
import type { Actor } from '../kernel/audit.ts';
import { cancelAndRefund, type CancelBookingsResult } from './cancellation.ts';
import { memberActor, moneyOfBookings, operatorActor } from './ledger.ts';
import { createMoveService } from './moves.ts';
import { openCheckoutOverHolds, PROVIDER_CALL_HOLD_MINUTES, providerUnavailable } from './held-checkout.ts';
import { isConflict } from '../kernel/database-errors.ts';
import { centsToEuros, formatMoney, sameAmount } from '../kernel/money.ts';
import { priceSlots } from './pricing.ts';
import { moneyPartCents, refundableCents, withinBestRefundTier } from './refunds.ts';
import { lockCreditPlan, spendCredit } from './wallet/credit.ts';
import { creditByIndex, type SlotToCover } from './wallet/scope.ts';
import * as repository from './repository.ts';
import { awaitingPaymentOf } from './checkout/awaiting-payment.ts';
import { previewWeeklySeries, requireWeeklyPattern } from './weekly-series.ts';
import { createGuestService, forgetGuestsOfMember } from './guests.ts';
import * as checkoutRepository from './checkout/repository.ts';
import type { CheckoutSessionRow } from './checkout/repository.ts';
import { describeSlotTime } from '../kernel/time-format.ts';
import type { components } from '../../openapi/schema.gen.ts';

export type BookingServiceDependencies = FulfilmentDependencies & {
  db: Db;
  clock: Clock;
  /** How long a checkout stays open and its pending bookings hold their slots. */
  checkoutExpiryMinutes: number;
  /** Multibanco is offered when the first slot starts at least this many days (of 24 hours) later; 3 if unset. */
  multibancoMinDaysAhead?: number;
};

/** A booking's `awaiting_payment`, present while its checkout's money is awaited and its slot still held. */
function awaitingOf(
  row: {
    checkout_session_id: string | null;
    status: string;
    hold_expires_at: Date | null;
    time_zone: string;
  },
  sessions: Map<string, CheckoutSessionRow>,
  now: Date,
): { awaiting_payment?: Schemas['AwaitingPayment'] } {
  const session = row.checkout_session_id ? sessions.get(row.checkout_session_id) : undefined;
  const awaiting = session ? awaitingPaymentOf(session, [row], now) : undefined;
  return awaiting ? { awaiting_payment: awaiting } : {};
}

/** MULTIBANCO_MIN_DAYS_AHEAD's default (server/config.ts). */
export const DEFAULT_MULTIBANCO_MIN_DAYS_AHEAD = 3;

/** Whether a checkout of slots starting at `firstStart` may offer Multibanco, whose money arrives days later. */
export function multibancoAllowed(firstStart: Date, now: Temporal.Instant, minDaysAhead: number): boolean {
  return firstStart.getTime() - now.epochMilliseconds >= minDaysAhead * 24 * 60 * 60 * 1000;
}

export type CreateBookingInput = {
  userId: string;
  slotIds: readonly number[];
  couponId: number | null;
  expectedTotalEur: number;
  /** The request's language: the checkout page's and the return URL's. */
  locale: Locale;
  /** The slots are the weeks of one weekly series (issue 31): checked, and tied together by a series. */
  weeklySeries?: boolean;
  /** The member's credit pays the slots it covers; `expectedTotalEur` is then what is left (issue 31). */
  useCredit?: boolean;
};

/** Priced slots as the credit plan takes them: by index, each with its zone, times and price after any coupon. */
export function slotsToCover(
  priced: readonly { slotId: number; finalPriceCents: number }[],
  slotById: ReadonlyMap<number, repository.SlotForBookingRow>,
): SlotToCover[] {
  return priced.map((price, index) => {
    const slot = slotById.get(price.slotId)!;
    return {
      index,
      branchId: slot.branch_id,
      timeZone: slot.time_zone,
      start: slot.start_time,
      end: slot.end_time,
      priceCents: price.finalPriceCents,
    };
  });
}

type Schemas = components['schemas'];

export type { CancelBookingsResult };

/** How many bookings of the history one page of my bookings holds, unless the caller asks for another size. */
export const MY_BOOKINGS_HISTORY_PAGE = 20;

export type MyBookingsPage = {
  historyBefore?: string | null;
  historyLimit?: number;
  /** The language of the arrival kits given with door codes; Portuguese if unset. */
  locale?: Locale;
};

/**
 * '<start epoch ms>.<id>', as listMyBookings hands it out (the contract's pattern refuses anything else with
 * validation_failed). An id past the column's range compares like its largest value: nothing lies beyond it.
 */
function parseHistoryCursor(text: string): repository.HistoryCursor {
  const [startMs = '0', id = '0'] = text.split('.');
  return { startTime: new Date(Number(startMs)), id: Math.min(Number(id), 2_147_483_647) };
}

export type CancelBookingsInput = {
  userId: string;
  items: readonly { bookingId: number; expectedRefundEur: number }[];
};

/** The lock code is readable from this long before the start until the end. */
const LOCK_CODE_READABLE_BEFORE = Temporal.Duration.from({ minutes: 30 });

/** The same bookings always give the same key; new bookings (new ids) always a new one. */
function checkoutIdempotencyKey(bookingIds: readonly number[]): string {
  const digest = createHash('sha256')
    .update([...bookingIds].sort((a, b) => a - b).join(','))
    .digest('hex');
  return `booking-checkout-${digest.slice(0, 40)}`;
}

/** Where the checkout returns to, and where an unpaid booking is paid again: the product with the session id. */
export function checkoutReturnUrl(
  publicUrl: string,
  locale: string,
  sessionId: string,
  bookingDate: string | null,
): string {
  const date = bookingDate ? `&booking_date=${bookingDate}` : '';
  return `${publicUrl}/${locale}?stripe_session_id=${sessionId}${date}`;
}

/** The operator's list of bookings (`npm run admin -- bookings list`). */
export async function listBookingRecords(db: Db, filter: repository.BookingFilter) {
  return repository.listBookingRecords(db, filter);
}

/**
 * The locked bookings a cancellation ends, each with its refund: those cancelled before are skipped (done);
 * any other not confirmed or already started refuses the whole call (409). `refundOf` gets the policy's refund
 * now and answers the refund to make (or throws).
 */
function cancelableWithRefunds(
  rows: readonly repository.BookingToCancelRow[],
  now: Temporal.Instant,
  refundOf: (row: repository.BookingToCancelRow, policyCents: number) => number,
): { row: repository.BookingToCancelRow; refundCents: number }[] {
  return rows
    .filter((row) => row.status !== 'canceled')
    .map((row) => {
      const start = instantFromDate(row.start_time);
      if (row.status !== 'confirmed' || Temporal.Instant.compare(start, now) <= 0) {
        throw new AppError('booking_not_cancelable');
      }
      const policyCents = refundableCents(
        { finalPriceCents: moneyPartCents(row), refundRatios: row.refund_ratios, start },
        now,
      );
      return { row, refundCents: refundOf(row, policyCents) };
    });
}

/**
 * The member who books or buys (a pack, issue 31), their account row shared-locked in `trx`: an account open,
 * not blocked, e-mail and phone verified; else the refusal the member hears.
 */
export async function requireBuyer(
  trx: Db,
  userId: string,
  contact: { email: string },
): Promise<repository.BookingUserRow> {
  const user = await repository.findBookingUser(trx, userId, { forShare: true });
  if (!user || user.deleted_at !== null) throw new AppError('booking_account_closed');
  if (await repository.isContactBlocked(trx, user.email, user.phone_number)) {
    // Whom to ask is part of the answer: "contact us" with no contact leaves the member nowhere.
    throw new AppError('booking_client_blocked', { email: contact.email });
  }
  if (user.email_verified_at === null || user.phone_verified_at === null) {
    throw new AppError('booking_requires_verification');
  }
  return user;
}

export function createBookingService(deps: BookingServiceDependencies) {
  const { db, clock } = deps;

  const requireBookingUser = (trx: Db, userId: string) => requireBuyer(trx, userId, deps.contact);

  async function requireBookableSlots(
    trx: Db,
    slotIds: readonly number[],
    now: Temporal.Instant,
  ): Promise<repository.SlotForBookingRow[]> {
    const slots = await repository.findSlotsForBooking(trx, slotIds);
    if (slots.length !== slotIds.length) throw new AppError('slot_not_found');
    if (new Set(slots.map((slot) => slot.branch_id)).size > 1)
      throw new AppError('slots_of_several_branches');
    if (!slots.every((slot) => slot.active_with_smart_lock)) throw new AppError('branch_not_bookable');
    if (slots.some((slot) => slot.start_time.getTime() <= now.epochMilliseconds))
      throw new AppError('slot_started');
    return slots;
  }

  async function insertHolds(
    trx: Db,
    rows: Parameters<typeof repository.insertBookings>[1],
  ): Promise<number[]> {
    try {
      return await repository.insertBookings(trx, rows);
    } catch (error) {
      // The database refused a slot that has a live booking: the transaction is rolled back and nothing changes.
      // A deadlock says nothing about the slots: it escapes, and the whole transaction is run again.
      if (isConflict(error)) throw new AppError('slot_unavailable');
      throw error;
    }
  }

  async function openCheckout(
    input: CreateBookingInput,
    user: repository.BookingUserRow,
    slots: repository.SlotForBookingRow[],
    bookingIds: number[],
    priced: ReturnType<typeof priceSlots>,
    credit: ReadonlyMap<number, number>,
    dueCents: number,
    now: Temporal.Instant,
  ) {
    const slotById = new Map(slots.map((slot) => [slot.id, slot]));
    const first = slots[0]!;
    return deps.payments.createCheckoutSession({
      amountCents: dueCents,
      currency: 'eur',
      // Each slot at what is left to pay of it; those credit paid whole are not on the bill.
      lineItems: priced.slots.flatMap((slot, index) => {
        const row = slotById.get(slot.slotId)!;
        const when = describeSlotTime(
          input.locale,
          row.time_zone,
          instantFromDate(row.start_time),
          instantFromDate(row.end_time),
        );
        const amountCents = slot.finalPriceCents - (credit.get(index) ?? 0);
        return amountCents > 0 ? [{ name: `${row.branch_name}: ${when}`, amountCents }] : [];
      }),
      customerEmail: user.email,
      locale: input.locale,
      expiresAt: now.add({ minutes: deps.checkoutExpiryMinutes }),
      returnUrl: checkoutReturnUrl(deps.publicUrl, input.locale, SESSION_ID_PLACEHOLDER, first.local_date),
      idempotencyKey: checkoutIdempotencyKey(bookingIds),
      metadata: { booking_ids: bookingIds.join(','), user_id: user.id },
      multibanco: offersMultibanco(slots, now),
    });
  }

  function offersMultibanco(slots: readonly repository.SlotForBookingRow[], now: Temporal.Instant): boolean {
    const firstStart = Math.min(...slots.map((slot) => slot.start_time.getTime()));
    return multibancoAllowed(
      new Date(firstStart),
      now,
      deps.multibancoMinDaysAhead ?? DEFAULT_MULTIBANCO_MIN_DAYS_AHEAD,
    );
  }

  const moves = createMoveService({
    ...deps,
    checkoutReturnUrl: (locale, sessionId, bookingDate) =>
      checkoutReturnUrl(deps.publicUrl, locale, sessionId, bookingDate),
  });

  return {
    /** A booking's guests, each with a door code of their own (issue 31, guests.ts). */
    guests: createGuestService(deps),

    moveBooking: (...args: Parameters<typeof moves.moveBooking>) => moves.moveBooking(...args),

    /**
     * Moves a booking in the caller's transaction by the one set of moving rules (moves.ts, `moveStep`): the
     * console's move, as an operator (same price, until the start).
     */
    async moveAsOperator(trx: Db, bookingId: number, slotId: number) {
      const step = await moves.moveStep(trx, { bookingId, slotId, rules: { by: 'operator' } });
      // Same price: an operator's move is never the dearer kind that waits for a checkout.
      if (!('answer' in step) || !step.to) throw new Error('an operator move did not move the booking');
      return { from: step.from, to: step.to };
    },

    /**
     * `POST /bookings/`, in three steps so that no database connection or lock waits on the payment provider:
     * 1. one short transaction checks the user and the slots, releases stale holds of these slots, holds them with
     *    pending bookings (the database refuses a slot someone else holds: 409 slot_unavailable), prices them (409
     *    price_changed when the client's total differs), snapshots the refund policy and redeems the coupon. The
     *    hold lasts PROVIDER_CALL_HOLD, so a process that dies before step 3 leaves a hold the expiry sweep ends
     *    within minutes. A total of 0 confirms here, without a checkout.
     * 2. the provider opens the checkout session, outside any transaction (its calls are bounded: timeout, one
     *    retry). When it fails, the holds are removed at once and the caller hears 503.
     * 3. a second short transaction records the session and attaches it to the holds, which then last as long as
     *    the session. Holds that ended meanwhile (swept, their slot booked by someone else) are never revived: the
     *    session stays unknown here, no one ever gets its secret, and a payment of it would be refunded.
     */
    async createBooking(input: CreateBookingInput): Promise<Schemas['CreateBookingResponse']> {
      const slotIds = [...new Set(input.slotIds)];
      if (slotIds.length === 0) throw new AppError('slot_not_found');
      const now = clock.now();
      const nowDate = dateFromInstant(now);
      const held = await runTransaction(db, { name: 'createBooking', log: deps.log }, async (trx) => {
        const user = await requireBookingUser(trx, input.userId);
        // The slots' locks before their rows are read: a price change holding them (or committed) is then seen,
        // so the hold is priced at the slot's price when it is written, never at one read before the change.
        await repository.lockSlots(trx, slotIds);
        const slots = await requireBookableSlots(trx, slotIds, now);
        const slotById = new Map(slots.map((slot) => [slot.id, slot]));
        const weekly = input.weeklySeries ? requireWeeklyPattern(slots) : null;
        // After the slots' locks: a closure being made waits for them, or is committed and seen here.
        if (await repository.anySlotClosed(trx, slotIds)) throw new AppError('slot_unavailable');
        await repository.releaseStaleHoldsOfSlots(trx, slotIds, nowDate);

        const coupon =
          input.couponId === null ? null : await lockUsableCoupon(trx, input.couponId, user.id, now);
        const priced = priceSlots(
          slots.map((slot) => ({ id: slot.id, startTime: slot.start_time, priceCents: slot.price_cents })),
          coupon,
        );
        // The member's credit pays what it covers (issue 31), its lots locked until this transaction ends.
        const spends = input.useCredit
          ? await lockCreditPlan(trx, user.id, slotsToCover(priced.slots, slotById), nowDate)
          : [];
        const credit = creditByIndex(spends);
        const dueCents = priced.totalCents - [...credit.values()].reduce((sum, cents) => sum + cents, 0);
        if (!sameAmount(input.expectedTotalEur, dueCents)) {
          throw new AppError('price_changed', { total: (locale) => formatMoney(locale, dueCents) });
        }

        const refundRatios = JSON.stringify(await readRefundRatios(trx));
        const holdMinutes = Math.min(PROVIDER_CALL_HOLD_MINUTES, deps.checkoutExpiryMinutes);
        const holdExpiresAt = dateFromInstant(now.add({ minutes: holdMinutes }));
        const seriesId =
          weekly === null
            ? null
            : await repository.insertBookingSeries(trx, {
                branch_id: slots[0]!.branch_id,
                iso_weekday: weekly.isoWeekday,
                local_time: weekly.localTime,
              });
        const bookingIds = await insertHolds(
          trx,
          priced.slots.map((price, index) => {
            const slot = slotById.get(price.slotId)!;
            return {
              user_id: user.id,
              slot_id: slot.id,
              branch_id: slot.branch_id,
              start_time: slot.start_time,
              end_time: slot.end_time,
              status: 'pending' as const,
              hold_expires_at: holdExpiresAt,
              base_price_cents: price.basePriceCents,
              final_price_cents: price.finalPriceCents,
              coupon_id: price.couponId,
              refund_ratios: refundRatios,
              series_id: seriesId,
              credit_cents: credit.get(index) ?? 0,
            };
          }),
        );
        await spendCredit(trx, spends, bookingIds, memberActor(user.id), nowDate);
        // insertBookings answers ids in start order, the order priced.slots has.
        await insertRedemptions(
          trx,
          priced.slots.flatMap((price, index) =>
            price.couponId === null
              ? []
              : [{ couponId: price.couponId, userId: user.id, bookingId: bookingIds[index]! }],
          ),
        );
        // Nothing left to pay (free, or credit paid it all): confirmed here, without a checkout.
        if (dueCents === 0) await confirmBookings(trx, deps, { bookingIds }, nowDate);
        return { user, slots, priced, bookingIds, dueCents, credit };
      });
      const { user, slots, priced, bookingIds, dueCents, credit } = held;
      if (dueCents === 0) return { checkout_session: { clientSecret: null } };

      const session = await openCheckoutOverHolds(
        deps,
        bookingIds,
        () => openCheckout(input, user, slots, bookingIds, priced, credit, dueCents, now),
        async (trx, opened) => {
          await repository.insertCheckoutSession(trx, {
            id: opened.id,
            provider: deps.payments.name,
            user_id: user.id,
            amount_cents: dueCents,
            client_secret: opened.clientSecret,
            locale: input.locale,
            booking_date: slots[0]!.local_date,
            expires_at: dateFromInstant(opened.expiresAt),
            multibanco_allowed: offersMultibanco(slots, now),
          });
          // The hold lasts exactly as long as the session the provider opened.
          await repository.attachCheckoutSession(
            trx,
            bookingIds,
            opened.id,
            dateFromInstant(opened.expiresAt),
          );
          return true;
        },
        {
          // Holds removed by another request of the member's (a move of another booking onto the slot, which
          // takes the member's own unrecorded holds): the slot is theirs no more. Holds that merely ran out while
          // the provider answered stay a 503.
          holdsEnded: (how) =>
            how === 'removed'
              ? new AppError('slot_unavailable')
              : providerUnavailable(new Error('the holds ended before the payment provider answered')),
          // Holds an account deletion ended: it waits for the first step's lock on the account, then ends them.
          whyEnded: async (trx) => {
            const account = await repository.findBookingUser(trx, input.userId);
            if (!account || account.deleted_at !== null) throw new AppError('booking_account_closed');
            // Holds released before their time was up (a closure of their period, an operator's cancellation;
            // both expire a hold, which keeps its hold_expires_at): the slot was taken from the member, as a
            // taken or closed slot is in the first step, and the provider was fine; 409, not 503. The rows
            // are already this transaction's (openCheckoutOverHolds locked them). Found by
            // tests/server/ledger-workload.test.ts.
            const now = dateFromInstant(clock.now());
            const holds = await repository.lockBookings(trx, bookingIds);
            if (
              holds.some(
                (hold) =>
                  hold.status === 'expired' && hold.hold_expires_at !== null && hold.hold_expires_at > now,
              )
            ) {
              throw new AppError('slot_unavailable');
            }
          },
        },
      );
      return { checkout_session: { clientSecret: session.clientSecret } };
    },

    /**
     * `GET /bookings/my-bookings`, as spec section 3 describes each booking. Without a cursor: every upcoming
     * booking and the newest `historyLimit` of the rest (started, cancelled, expired); with one, only the history
     * older than it. `nextCursor` is set when older history remains. Sorted by start time.
     */
    async listMyBookingsPage(
      userId: string,
      { historyBefore = null, historyLimit = MY_BOOKINGS_HISTORY_PAGE, locale = 'pt' }: MyBookingsPage = {},
    ): Promise<{ bookings: Schemas['Booking'][]; nextCursor: string | null }> {
      const now = clock.now();
      const nowDate = dateFromInstant(now);
      const nowMs = now.epochMilliseconds;
      const before = historyBefore === null ? null : parseHistoryCursor(historyBefore);
      const [upcoming, history] = await Promise.all([
        before ? [] : repository.listUpcomingUserBookings(db, userId, nowDate),
        repository.listUserBookingHistory(db, userId, nowDate, { before, limit: historyLimit + 1 }),
      ]);
      const page = history.slice(0, historyLimit);
      const last = page.at(-1);
      const nextCursor =
        history.length > historyLimit && last ? `${last.start_time.getTime()}.${last.id}` : null;
      const rows = [...upcoming, ...page.reverse()].sort(
        (a, b) => a.start_time.getTime() - b.start_time.getTime() || a.id - b.id,
      );
      // What each booking costs, whether it was paid and what came back: the money ledger's.
      const moneyById = await moneyOfBookings(db, rows);
      // Checkouts completed without their money (a Multibanco voucher, an MB WAY request): what is awaited.
      const awaitedSessions = await checkoutRepository.findSessions(
        db,
        rows.flatMap((row) =>
          row.status === 'pending' && row.session_status === 'complete' && row.checkout_session_id
            ? [row.checkout_session_id]
            : [],
        ),
      );
      // The arrival kit goes with a door code: read once per branch of a booking whose code may be shown.
      const kits = new Map<number, Schemas['ArrivalKit'] | null>();
      for (const row of rows) {
        if (row.lock_code === null || row.end_time.getTime() <= nowMs || kits.has(row.branch_id)) continue;
        const branch = await findBranch(db, row.branch_id);
        kits.set(
          row.branch_id,
          branch
            ? arrivalKitFor(branch.arrival, locale, {
                mapUrl: branch.map_url,
                supportPhone: deps.contact.phone,
              })
            : null,
        );
      }
      // Times are formatted without a Temporal object per row (formatEpochInZone); only an upcoming booking's
      // refund needs one.
      const bookings = rows.map((row): Schemas['Booking'] => {
        const startMs = row.start_time.getTime();
        const endMs = row.end_time.getTime();
        const zone = row.time_zone;
        // A hold whose time is up no longer holds anything, whether or not the expiry job has run yet.
        const holdOver =
          row.status === 'pending' &&
          (row.hold_expires_at === null || row.hold_expires_at.getTime() <= nowMs);
        const status = holdOver ? 'expired' : row.status;
        const money = moneyById.get(row.id)!;
        const started = startMs <= nowMs;
        const cancelable = status === 'confirmed' && !started;
        // A Temporal instant only for a confirmed booking still ahead: no other one is refundable or movable.
        const start = cancelable ? instantFromDate(row.start_time) : null;
        const sessionOpen =
          status === 'pending' &&
          row.session_status === 'open' &&
          row.session_expires_at !== null &&
          row.session_expires_at.getTime() > nowMs;
        const codeReadable =
          status === 'confirmed' &&
          row.lock_code !== null &&
          row.lock_code_revoked_at === null &&
          nowMs >= startMs - LOCK_CODE_READABLE_BEFORE.total('milliseconds') &&
          nowMs < endMs;
        return {
          id: row.id,
          time_slot_data: {
            start_time: formatEpochInZone(startMs, zone),
            end_time: formatEpochInZone(endMs, zone),
            branch_data: {
              id: row.branch_id,
              name: row.branch_name,
              location: row.location,
              time_zone: zone,
            },
          },
          created_at: formatEpochInZone(row.created_at.getTime(), zone),
          status,
          canceled: status === 'canceled',
          active: status === 'pending' || status === 'confirmed',
          is_in_past: started,
          is_cancelable: cancelable,
          final_price_eur: centsToEuros(money.priceCents),
          ...(row.credit_cents > 0 ? { credit_eur: centsToEuros(row.credit_cents) } : {}),
          paid: money.paid,
          pay_again_url:
            sessionOpen && row.checkout_session_id
              ? checkoutReturnUrl(
                  deps.publicUrl,
                  row.session_locale ?? 'pt',
                  row.checkout_session_id,
                  row.session_booking_date,
                )
              : null,
          ...awaitingOf(row, awaitedSessions, nowDate),
          refunded_eur: money.endingRefundCents > 0 ? centsToEuros(money.endingRefundCents) : null,
          refundable_eur: start
            ? centsToEuros(
                refundableCents(
                  { finalPriceCents: moneyPartCents(row), refundRatios: row.refund_ratios, start },
                  now,
                ),
              )
            : 0,
          refund_ratios: row.refund_ratios,
          lock_code: codeReadable ? (row.lock_code_backup ?? row.lock_code) : null,
          arrival: codeReadable ? (kits.get(row.branch_id) ?? null) : null,
          lock_code_valid_from:
            codeReadable && row.lock_code_valid_from
              ? formatEpochInZone(row.lock_code_valid_from.getTime(), zone)
              : null,
          lock_code_valid_until:
            codeReadable && row.lock_code_valid_until
              ? formatEpochInZone(row.lock_code_valid_until.getTime(), zone)
              : null,
          checked_in_at: row.checked_in_at ? formatEpochInZone(row.checked_in_at.getTime(), zone) : null,
          coupon_code: row.coupon_code,
          // A booking credit paid part of does not move (docs/decisions.md, "Prepaid packs and the credit wallet").
          is_movable:
            start !== null &&
            row.paid_at !== null &&
            row.credit_cents === 0 &&
            withinBestRefundTier({ refundRatios: row.refund_ratios, start }, now),
          coupon_discount: row.coupon_discount === null ? null : Number(row.coupon_discount),
          series_id: row.series_id,
        };
      });
      return { bookings, nextCursor };
    },

    /**
     * `GET /bookings/{id}/again` (issue 30, item 4): the same branch and local time on the nearest week after the
     * booking that is not past and has that slot free, within the slots generated so far. Reads only.
     */
    async findBookAgainSlot(userId: string, bookingId: number): Promise<Schemas['BookAgainSlot']> {
      const booking = await repository.findUserBookingPlace(db, userId, bookingId);
      if (!booking) throw new AppError('booking_not_found');
      const branch = await findBranch(db, booking.branch_id);
      if (!branch) throw new AppError('booking_not_found');
      if (!branch.active_with_smart_lock) throw new AppError('branch_not_bookable');
      const now = clock.now();
      const start = instantFromDate(booking.start_time).toZonedDateTimeISO(branch.time_zone);
      const clockTime = start.toPlainTime().toString({ smallestUnit: 'minute' });
      const today = now.toZonedDateTimeISO(branch.time_zone).toPlainDate();
      const lastDay = branch.slots_generated_until?.toString() ?? null;
      // The first week after the booking's that is not before today.
      const weeksToToday = Math.ceil(start.toPlainDate().until(today).total({ unit: 'days' }) / 7);
      let day = start.toPlainDate().add({ weeks: Math.max(1, weeksToToday) });
      while (lastDay !== null && day.toString() <= lastDay) {
        const slots = await listSlotsOfDay(db, branch.id, day.toString(), now.epochMilliseconds);
        const same = slots.find((slot) => slot.is_bookeable && slot.start_time.slice(11, 16) === clockTime);
        if (same) {
          return {
            branch_id: branch.id,
            date: day.toString(),
            time_slot_id: same.id,
            start_time: same.start_time,
          };
        }
        day = day.add({ weeks: 1 });
      }
      throw new AppError('no_free_week');
    },

    /** `GET /bookings/weekly/{slot_id}` (issue 31): the slot repeated weekly, week by week. */
    previewWeeklySeries: (slotId: number, weeks: number) => previewWeeklySeries(db, clock, slotId, weeks),

    /** listMyBookingsPage's bookings alone. */
    async listMyBookings(userId: string, page: MyBookingsPage = {}): Promise<Schemas['Booking'][]> {
      return (await this.listMyBookingsPage(userId, page)).bookings;
    },

    /**
     * `POST /bookings/cancel-bookings`: all or nothing. The rows are locked first, so concurrent calls queue; a
     * booking this user already cancelled is done and is skipped (a repeated call refunds nothing). Anything else
     * must be confirmed, not started, and refund exactly `expectedRefundEur`, else nothing changes (409). Each
     * refund has a key of its own booking, so neither this database nor the provider can pay it twice.
     */
    async cancelBookings(input: CancelBookingsInput): Promise<CancelBookingsResult> {
      const now = clock.now();
      const nowDate = dateFromInstant(now);
      const expected = new Map(input.items.map((item) => [item.bookingId, item.expectedRefundEur]));
      if (expected.size === 0) throw new AppError('booking_not_found');
      // Run again after a deadlock, the refunds' provider calls are safe: each is keyed by its booking
      // (cancellationRefundKey), so one a rolled-back try made is answered again by the provider, not paid twice.
      return runTransaction(db, { name: 'cancelBookings', log: deps.log }, async (trx) => {
        const rows = await repository.lockBookings(trx, [...expected.keys()]);
        if (rows.length !== expected.size || rows.some((row) => row.user_id !== input.userId)) {
          throw new AppError('booking_not_found');
        }
        const toCancel = cancelableWithRefunds(rows, now, (row, policyCents) => {
          if (!sameAmount(expected.get(row.id)!, policyCents)) throw new AppError('refund_changed');
          return policyCents;
        });
        return cancelAndRefund(trx, deps, toCancel, nowDate, 'member', {
          purpose: 'cancellation',
          actor: memberActor(input.userId),
        });
      });
    },

    /**
     * An operator's cancellation (`npm run admin -- bookings cancel`): all or nothing, like the member's, with
     * the refund the booking's policy gives now or, for a fault of the gym's, the whole price. Bookings cancelled
     * before are skipped; anything else not confirmed or already started is refused (409).
     */
    async cancelBookingsAsOperator(input: {
      bookingIds: readonly number[];
      refund: 'policy' | 'full';
      actor?: Actor;
    }): Promise<CancelBookingsResult> {
      const now = clock.now();
      const nowDate = dateFromInstant(now);
      const ids = [...new Set(input.bookingIds)];
      if (ids.length === 0) throw new AppError('booking_not_found');
      // Safe to run again as the member's cancellation is: each refund is keyed by its booking.
      return runTransaction(db, { name: 'cancelBookingsAsOperator', log: deps.log }, async (trx) => {
        const rows = await repository.lockBookings(trx, ids);
        if (rows.length !== ids.length) throw new AppError('booking_not_found');
        const toCancel = cancelableWithRefunds(rows, now, (row, policyCents) =>
          input.refund === 'full' ? moneyPartCents(row) : policyCents,
        ).map((item) => ({ ...item, creditRatio: input.refund === 'full' ? 1 : undefined }));
        return cancelAndRefund(trx, deps, toCancel, nowDate, 'operator', {
          purpose: 'operator',
          actor: operatorActor(input.actor ?? { operatorId: null, email: 'cli' }),
        });
      });
    },

    /**
     * For account deletion: cancels every upcoming confirmed booking of the user with the refund its own policy
     * gives now, and releases the user's pending holds. Runs in `trx` when given (the deletion's transaction);
     * `erasedBy` is the operator who erased the account (the member deleting it themself: absent).
     */
    async cancelUpcomingBookingsOfUser(
      userId: string,
      options: { trx?: Db; erasedBy?: Actor | null; reason?: string | null } = {},
    ): Promise<CancelBookingsResult> {
      const now = clock.now();
      const nowDate = dateFromInstant(now);
      const work = async (trx: Db) => {
        const rows = await repository.lockUpcomingBookingsOfUser(trx, userId, nowDate);
        await repository.expirePendingBookings(
          trx,
          rows.filter((row) => row.status === 'pending').map((row) => row.id),
        );
        const toCancel = rows
          .filter((row) => row.status === 'confirmed')
          .map((row) => ({
            row,
            refundCents: refundableCents(
              {
                finalPriceCents: moneyPartCents(row),
                refundRatios: row.refund_ratios,
                start: instantFromDate(row.start_time),
              },
              now,
            ),
          }));
        const result = await cancelAndRefund(trx, deps, toCancel, nowDate, 'account_deleted', {
          purpose: 'account_deletion',
          actor: options.erasedBy ? operatorActor(options.erasedBy) : memberActor(userId),
          reason: options.reason ?? null,
        });
        // The guests' names and contacts go with the account (issue 31).
        await forgetGuestsOfMember(trx, userId, nowDate);
        return result;
      };
      // Inside the deletion's transaction when given: that one is run again after a deadlock.
      return runTransaction(options.trx ?? db, { name: 'cancelUpcomingBookingsOfUser', log: deps.log }, work);
    },
  };
}

export type BookingService = ReturnType<typeof createBookingService>;
