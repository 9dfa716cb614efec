import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { lockBookingsAfterCodes, updateById } from '../kernel/queries.ts';
import type { BookingMovesTable } from '../db/schema.ts';
import { deleteUnattachedHolds, expirePendingBookings } from './repository.ts';

// SQL for moving bookings. `db` is the caller's transaction.

export type BookingToMoveRow = {
  id: number;
  user_id: string | null;
  status: 'pending' | 'confirmed' | 'canceled' | 'expired';
  slot_id: number;
  branch_id: number;
  start_time: Date;
  end_time: Date;
  base_price_cents: number;
  final_price_cents: number;
  /** What credit paid of it (issue 31): such a booking does not move at the member's request. */
  credit_cents: number;
  coupon_discount: number | null;
  refund_ratios: Record<string, number>;
  checkout_session_id: string | null;
  lock_code_id: number | null;
  paid_at: Date | null;
};

/** Reads the booking with what a move needs and locks its row: one move or cancellation of it at a time. */
export async function lockBookingToMove(db: Db, bookingId: number): Promise<BookingToMoveRow | undefined> {
  // Its door code first: the one lock order of every release (server/kernel/queries.ts).
  const [row] = await lockBookingsAfterCodes(
    db,
    async () => [
      (await db.selectFrom('bookings').select('lock_code_id').where('id', '=', bookingId).executeTakeFirst())
        ?.lock_code_id ?? null,
    ],
    async () => {
      const found = await selectBookingToMove(db, bookingId);
      return found ? [found] : [];
    },
  );
  return row;
}

async function selectBookingToMove(db: Db, bookingId: number): Promise<BookingToMoveRow | undefined> {
  const row = await db
    .selectFrom('bookings as booking')
    .leftJoin('coupons as coupon', 'coupon.id', 'booking.coupon_id')
    .select([
      'booking.id',
      'booking.user_id',
      'booking.status',
      'booking.slot_id',
      'booking.branch_id',
      'booking.start_time',
      'booking.end_time',
      'booking.base_price_cents',
      'booking.final_price_cents',
      'booking.credit_cents',
      'coupon.discount as coupon_discount',
      'booking.refund_ratios',
      'booking.checkout_session_id',
      'booking.lock_code_id',
      'booking.paid_at',
    ])
    .where('booking.id', '=', bookingId)
    .forUpdate('booking')
    .executeTakeFirst();
  return row
    ? { ...row, coupon_discount: row.coupon_discount === null ? null : Number(row.coupon_discount) }
    : row;
}

export type MoveRow = Selectable<BookingMovesTable>;

export async function nextMoveSeq(db: Db, bookingId: number): Promise<number> {
  const row = await db
    .selectFrom('booking_moves')
    .select(sql<number>`coalesce(max(seq), 0)::int + 1`.as('next'))
    .where('booking_id', '=', bookingId)
    .executeTakeFirstOrThrow();
  return row.next;
}

/** The booking's latest move, whatever its state. */
export async function findLatestMove(db: Db, bookingId: number): Promise<MoveRow | undefined> {
  return db
    .selectFrom('booking_moves')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The booking a move's checkout session is for, read without locking (to lock the booking first). */
export async function peekMoveBySession(
  db: Db,
  sessionId: string,
): Promise<{ booking_id: number } | undefined> {
  return db
    .selectFrom('booking_moves')
    .select('booking_id')
    .where('checkout_session_id', '=', sessionId)
    .executeTakeFirst();
}

export async function findMoveBySession(db: Db, sessionId: string): Promise<MoveRow | undefined> {
  return db
    .selectFrom('booking_moves')
    .selectAll()
    .where('checkout_session_id', '=', sessionId)
    .forUpdate()
    .executeTakeFirst();
}

export async function insertMove(db: Db, row: Insertable<BookingMovesTable>): Promise<number> {
  const inserted = await db.insertInto('booking_moves').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function settleMove(
  db: Db,
  moveId: number,
  state: 'completed' | 'expired' | 'refunded',
  at: Date,
): Promise<void> {
  await updateById(db, 'booking_moves', moveId, { state, settled_at: at });
}

/** The moves the booking made, oldest first, each with when it happened. */
export async function listCompletedMoves(db: Db, bookingId: number): Promise<{ seq: number; at: Date }[]> {
  const rows = await db
    .selectFrom('booking_moves')
    .select(['seq', 'settled_at', 'created_at'])
    .where('booking_id', '=', bookingId)
    .where('state', '=', 'completed')
    .orderBy('seq')
    .execute();
  return rows.map((row) => ({ seq: row.seq, at: row.settled_at ?? row.created_at }));
}

/** Moves awaiting payment of these bookings (a cancelled booking's move can never complete). */
export async function listAwaitingMovesOf(db: Db, bookingIds: readonly number[]): Promise<MoveRow[]> {
  if (bookingIds.length === 0) return [];
  return db
    .selectFrom('booking_moves')
    .selectAll()
    .where('booking_id', 'in', [...bookingIds])
    .where('state', '=', 'awaiting_payment')
    .execute();
}

/** The hold of a move: its status and expiry, locked. */
export async function lockHold(
  db: Db,
  holdBookingId: number,
): Promise<{ id: number; status: string; hold_expires_at: Date | null } | undefined> {
  return db
    .selectFrom('bookings')
    .select(['id', 'status', 'hold_expires_at'])
    .where('id', '=', holdBookingId)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Removes the user's holds of this slot that have no checkout and that no move recorded (a move cut off
 * between its hold and its checkout, or still opening it), with any coupon redemption: the user never had them.
 * Holds recorded by a move (another booking's, awaiting its payment) are kept.
 */
export async function deleteUnrecordedHoldsOf(db: Db, userId: string, slotId: number): Promise<void> {
  const unrecorded = await db
    .selectFrom('bookings as hold')
    .select('hold.id')
    .where('hold.user_id', '=', userId)
    .where('hold.slot_id', '=', slotId)
    .where('hold.status', '=', 'pending')
    .where('hold.checkout_session_id', 'is', null)
    .where((eb) =>
      eb.not(
        eb.exists(eb.selectFrom('booking_moves').select('id').whereRef('hold_booking_id', '=', 'hold.id')),
      ),
    )
    .execute();
  await deleteUnattachedHolds(
    db,
    unrecorded.map((hold) => hold.id),
  );
}

export async function endHold(db: Db, holdBookingId: number): Promise<void> {
  await expirePendingBookings(db, [holdBookingId]);
}

export async function setHoldExpiry(db: Db, holdBookingId: number, expiresAt: Date): Promise<void> {
  await updateById(db, 'bookings', holdBookingId, { hold_expires_at: expiresAt });
}

/** The booking takes the slot in place: same id (so the same calendar event), new times and price. */
export async function moveBookingToSlot(
  db: Db,
  bookingId: number,
  slot: { id: number; start_time: Date; end_time: Date; base_price_cents: number; final_price_cents: number },
): Promise<void> {
  await updateById(db, 'bookings', bookingId, {
    slot_id: slot.id,
    start_time: slot.start_time,
    end_time: slot.end_time,
    base_price_cents: slot.base_price_cents,
    final_price_cents: slot.final_price_cents,
    lock_code_id: null,
    access_code_sent_at: null,
    access_code_sent_for: null,
  });
}

export async function findBookingLockCode(db: Db, bookingId: number): Promise<number | null> {
  const row = await db
    .selectFrom('bookings')
    .select('lock_code_id')
    .where('id', '=', bookingId)
    .executeTakeFirstOrThrow();
  return row.lock_code_id;
}
