import { sql, type Selectable, type Updateable } from 'kysely';
import { bookingsWithBranch, updateById } from '../../kernel/queries.ts';
import type { Db } from '../../db/database.ts';
import type { BookingsTable, CheckoutSessionsTable, PaymentProvider } from '../../db/schema.ts';
import type {
  MultibancoVoucher,
  PaymentMethodKind,
  ProviderSession,
} from '../../adapters/payments/provider.ts';

// SQL for checkout sessions, payment events, fulfilment, refunds and the confirmation message.

export type CheckoutSessionRow = Selectable<CheckoutSessionsTable>;

function sessionById(db: Db, sessionId: string) {
  return db.selectFrom('checkout_sessions').selectAll().where('id', '=', sessionId);
}

export async function findSession(db: Db, sessionId: string): Promise<CheckoutSessionRow | undefined> {
  return sessionById(db, sessionId).executeTakeFirst();
}

/** Reads the session and holds its row until the transaction ends: one fulfilment of a session at a time. */
/** The checkout sessions of these ids, by id. */
export async function findSessions(db: Db, ids: readonly string[]): Promise<Map<string, CheckoutSessionRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('checkout_sessions')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export async function lockSession(db: Db, sessionId: string): Promise<CheckoutSessionRow | undefined> {
  return sessionById(db, sessionId).forUpdate().executeTakeFirst();
}

export async function updateSession(
  db: Db,
  sessionId: string,
  changes: Updateable<CheckoutSessionsTable>,
): Promise<void> {
  await db.updateTable('checkout_sessions').set(changes).where('id', '=', sessionId).execute();
}

/** What the provider said of a session's payment: the card, the method, a Multibanco voucher. */
export type SessionPaymentDetails = Pick<ProviderSession, 'card' | 'paymentMethod' | 'voucher'>;

/** The session is paid (its money arrived), with the card and method the provider told. */
export async function markSessionPaid(
  db: Db,
  stored: CheckoutSessionRow,
  session: SessionPaymentDetails,
  paymentIntentId: string | null,
  now: Date,
): Promise<void> {
  await updateSession(db, stored.id, {
    status: 'complete',
    payment_status: 'paid',
    completed_at: stored.completed_at ?? now,
    payment_intent_id: paymentIntentId,
    ...(session.card ? { card_brand: session.card.brand, card_last4: session.card.last4 } : {}),
    ...(session.paymentMethod ? { payment_method: session.paymentMethod } : {}),
  });
}

/**
 * The session completed without its money (a Multibanco voucher, an MB WAY request): it records the method and
 * the voucher, and answers them.
 */
export async function markSessionAwaitingPayment(
  db: Db,
  stored: CheckoutSessionRow,
  session: SessionPaymentDetails,
  paymentIntentId: string | null,
  now: Date,
): Promise<{ method: PaymentMethodKind | null; voucher: MultibancoVoucher | null }> {
  const voucher = session.voucher ?? null;
  const method = session.paymentMethod ?? (voucher ? 'multibanco' : null) ?? stored.payment_method;
  await updateSession(db, stored.id, {
    status: 'complete',
    completed_at: stored.completed_at ?? now,
    payment_intent_id: paymentIntentId,
    ...(method ? { payment_method: method } : {}),
    ...(voucher
      ? {
          voucher_entity: voucher.entity,
          voucher_reference: voucher.reference,
          voucher_expires_at: new Date(voucher.expiresAt.epochMilliseconds),
          voucher_url: voucher.url,
        }
      : {}),
  });
  return { method, voucher };
}

/** Open sessions whose time is up. */
export async function listOverdueOpenSessions(
  db: Db,
  now: Date,
  limit: number,
): Promise<CheckoutSessionRow[]> {
  return db
    .selectFrom('checkout_sessions')
    .selectAll()
    .where('status', '=', 'open')
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
}

/**
 * Records a provider event by its id; false when it was recorded before. A concurrent delivery of the same event
 * waits on the primary key until the first transaction ends, then finds it recorded.
 */
export async function recordPaymentEvent(
  db: Db,
  event: { id: string; provider: PaymentProvider; type: string; payload: unknown },
): Promise<boolean> {
  const inserted = await db
    .insertInto('payment_events')
    .values({
      id: event.id,
      provider: event.provider,
      type: event.type,
      payload: JSON.stringify(event.payload),
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function markPaymentEventProcessed(db: Db, eventId: string, at: Date): Promise<void> {
  await db.updateTable('payment_events').set({ processed_at: at }).where('id', '=', eventId).execute();
}

export type FulfilledBookingRow = {
  id: number;
  user_id: string | null;
  branch_id: number;
  start_time: Date;
  end_time: Date;
  final_price_cents: number;
  calendar_sequence: number;
};

const FULFILLED_COLUMNS = [
  'id',
  'user_id',
  'branch_id',
  'start_time',
  'end_time',
  'final_price_cents',
  'calendar_sequence',
] as const;

/** Marks bookings paid at `now` (with `changes`), answering what fulfilment needs of each; callers say which. */
function markBookingsPaid(db: Db, now: Date, changes: Updateable<BookingsTable> = {}) {
  return db
    .updateTable('bookings')
    .set({ ...changes, paid_at: now })
    .returning(FULFILLED_COLUMNS);
}

/**
 * Locks the slots of the target's pending bookings (in id order), as every transaction that writes a live booking
 * does first (bookings/repository.ts lockSlots). Confirming rewrites each booking's row, and a rewrite is checked
 * against the exclusion index again: without the slots' lock, a booking or a move inserting into one of these
 * slots waits on the rewrite while this transaction, a statement later, waits on theirs (a deadlock).
 */
export async function lockSlotsOfPendingBookings(
  db: Db,
  target: { sessionId: string } | { bookingIds: readonly number[] },
): Promise<void> {
  const pending = db.selectFrom('bookings').select('slot_id').where('status', '=', 'pending');
  await db
    .selectFrom('slots')
    .select('id')
    .where(
      'id',
      'in',
      'sessionId' in target
        ? pending.where('checkout_session_id', '=', target.sessionId)
        : pending.where('id', 'in', [...target.bookingIds]),
    )
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
}

/** pending -> confirmed (paid now); answers only the bookings this call confirmed. */
export async function confirmPendingBookings(
  db: Db,
  target: { sessionId: string } | { bookingIds: readonly number[] },
  now: Date,
): Promise<FulfilledBookingRow[]> {
  const query = markBookingsPaid(db, now, { status: 'confirmed' }).where('status', '=', 'pending');
  return 'sessionId' in target
    ? query.where('checkout_session_id', '=', target.sessionId).execute()
    : query.where('id', 'in', [...target.bookingIds]).execute();
}

/** pending -> expired: the slots are bookable again. Confirmed bookings are never touched. */
export async function releasePendingBookingsOfSession(db: Db, sessionId: string): Promise<number> {
  const rows = await db
    .updateTable('bookings')
    .set({ status: 'expired' })
    .where('checkout_session_id', '=', sessionId)
    .where('status', '=', 'pending')
    .returning('id')
    .execute();
  return rows.length;
}

/** pending -> expired for the session's holds whose time is up (the sweep may not have run yet). */
export async function releaseDueHoldsOfSession(db: Db, sessionId: string, now: Date): Promise<number> {
  const rows = await db
    .updateTable('bookings')
    .set({ status: 'expired' })
    .where('checkout_session_id', '=', sessionId)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('hold_expires_at', 'is', null), eb('hold_expires_at', '<=', now)]))
    .returning('id')
    .execute();
  return rows.length;
}

export async function branchOfBooking(db: Db, bookingId: number): Promise<number> {
  const row = await db
    .selectFrom('bookings')
    .select('branch_id')
    .where('id', '=', bookingId)
    .executeTakeFirstOrThrow();
  return row.branch_id;
}

/** When the session's first still-held booking starts. */
export async function firstStartOfPendingBookings(db: Db, sessionId: string): Promise<Date | null> {
  const row = await db
    .selectFrom('bookings')
    .select('start_time')
    .where('checkout_session_id', '=', sessionId)
    .where('status', '=', 'pending')
    .orderBy('start_time')
    .limit(1)
    .executeTakeFirst();
  return row?.start_time ?? null;
}

/** Stretches (or shortens) the live holds of a session awaiting its money; holds already up stay up. */
export async function holdPendingBookingsOfSessionUntil(
  db: Db,
  sessionId: string,
  until: Date,
  now: Date,
): Promise<void> {
  await db
    .updateTable('bookings')
    .set({ hold_expires_at: until })
    .where('checkout_session_id', '=', sessionId)
    .where('status', '=', 'pending')
    .where('hold_expires_at', '>', now)
    .execute();
}

/** Bookings of a paid session whose holds were released before the payment arrived, not yet marked paid. */
export async function markLatePaidBookings(
  db: Db,
  sessionId: string,
  now: Date,
): Promise<FulfilledBookingRow[]> {
  return markBookingsPaid(db, now)
    .where('checkout_session_id', '=', sessionId)
    .where('status', '=', 'expired')
    .where('paid_at', 'is', null)
    .execute();
}

/** Claims a refund by its idempotency key; undefined when that refund was claimed before. */
export async function claimRefund(
  db: Db,
  refund: {
    bookingId: number;
    amountCents: number;
    provider: PaymentProvider;
    idempotencyKey: string;
    /** The payment it pays back, when not the booking's own checkout session (a move's difference). */
    checkoutSessionId?: string | null;
  },
): Promise<number | undefined> {
  const row = await db
    .insertInto('refunds')
    .values({
      booking_id: refund.bookingId,
      amount_cents: refund.amountCents,
      provider: refund.provider,
      idempotency_key: refund.idempotencyKey,
      checkout_session_id: refund.checkoutSessionId ?? null,
    })
    .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function settleRefund(
  db: Db,
  refundId: number,
  result: { providerRefundId: string; status: 'pending' | 'succeeded' | 'failed' },
): Promise<void> {
  await updateById(db, 'refunds', refundId, {
    provider_refund_id: result.providerRefundId,
    status: result.status,
  });
}

export type PaymentFilter = {
  paymentStatus?: 'paid' | 'unpaid' | 'no_payment_required';
  from?: Date;
  until?: Date;
  limit: number;
};

/** Checkout sessions, newest first, with what the ledger refunded of each one's payment. */
export async function listPayments(db: Db, filter: PaymentFilter) {
  let query = db
    .selectFrom('checkout_sessions as session')
    .leftJoin('users as user', 'user.id', 'session.user_id')
    .select((eb) => [
      'session.id',
      'session.provider',
      'session.status',
      'session.payment_status',
      'session.amount_cents',
      'session.payment_intent_id',
      'session.created_at',
      'session.completed_at',
      'user.email',
      // What the ledger paid back of this session's payment.
      eb
        .selectFrom('ledger_entries as refund')
        .innerJoin('ledger_entries as payment', 'payment.id', 'refund.refunded_entry_id')
        .whereRef('payment.checkout_session_id', '=', 'session.id')
        .where('payment.kind', '=', 'payment')
        .select(sql<number>`coalesce(sum(refund.amount_cents), 0)::int`.as('refunded'))
        .as('refunded_cents'),
    ])
    .orderBy('session.created_at', 'desc')
    .orderBy('session.id')
    .limit(filter.limit);
  if (filter.paymentStatus !== undefined)
    query = query.where('session.payment_status', '=', filter.paymentStatus);
  if (filter.from !== undefined) query = query.where('session.created_at', '>=', filter.from);
  if (filter.until !== undefined) query = query.where('session.created_at', '<', filter.until);
  return query.execute();
}

/** The card each of these sessions was paid with, when the provider told. */
export async function findSessionCards(
  db: Db,
  sessionIds: readonly string[],
): Promise<Map<string, { brand: string | null; last4: string }>> {
  if (sessionIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('checkout_sessions')
    .select(['id', 'card_brand', 'card_last4'])
    .where('id', 'in', [...new Set(sessionIds)])
    .where('card_last4', 'is not', null)
    .execute();
  return new Map(rows.map((row) => [row.id, { brand: row.card_brand, last4: row.card_last4! }]));
}

/** The bookings a checkout session pays for, by start, with their branch and what the ledger refunded of each. */
export async function listSessionBookings(db: Db, sessionId: string) {
  return (
    bookingsWithBranch(db)
      .select((eb) => [
        'booking.id',
        'booking.start_time',
        'booking.end_time',
        'booking.status',
        'booking.hold_expires_at',
        'branch.name as branch_name',
        'branch.time_zone',
        // Every refund of the booking in the ledger.
        eb
          .selectFrom('ledger_entry_bookings as share')
          .innerJoin('ledger_entries as entry', 'entry.id', 'share.entry_id')
          .whereRef('share.booking_id', '=', 'booking.id')
          .where('entry.kind', '=', 'refund')
          .select(sql<number>`coalesce(sum(share.amount_cents), 0)::int`.as('refunded'))
          .as('refunded_cents'),
      ])
      // A move's checkout pays for the moved booking: once the move completes, that booking is what was bought.
      // The two are a union of ids, each found by its index: as `checkout_session_id = … or id in (…)` the
      // planner read every booking (about 2 s a call at 1M bookings, which the payment storm of `npm run bench`
      // turned into 503s as the calls waited for the pool).
      .where('booking.id', 'in', (eb) =>
        eb
          .selectFrom('bookings as paid')
          .select('paid.id')
          .where('paid.checkout_session_id', '=', sessionId)
          .unionAll(
            eb
              .selectFrom('booking_moves')
              .select('booking_moves.booking_id as id')
              .where('booking_moves.checkout_session_id', '=', sessionId)
              .where('booking_moves.state', '=', 'completed'),
          ),
      )
      .orderBy('booking.start_time')
      .orderBy('booking.id')
      .execute()
  );
}

/** What the receipt of confirmed bookings states beyond the confirmation: prices before coupons, the coupon, the payment. */
export async function findReceiptDetails(db: Db, bookingIds: readonly number[]) {
  if (bookingIds.length === 0) return [];
  return db
    .selectFrom('bookings as booking')
    .leftJoin('coupons as coupon', 'coupon.id', 'booking.coupon_id')
    .leftJoin('users as user', 'user.id', 'booking.user_id')
    .select([
      'booking.id',
      'booking.base_price_cents',
      'booking.final_price_cents',
      'booking.checkout_session_id',
      'coupon.code as coupon_code',
      'coupon.discount as coupon_discount',
      'user.last_name',
      'user.tax_id',
    ])
    .where('booking.id', 'in', [...bookingIds])
    .execute();
}
