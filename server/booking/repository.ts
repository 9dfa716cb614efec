import { sql, type Insertable } from 'kysely';
import type { Db } from '../db/database.ts';
import { bookingsWithBranch, lockBookingsAfterCodes, setOnBookings, updateById } from '../kernel/queries.ts';
import type {
  BookingStatus,
  BookingsTable,
  BranchClosuresTable,
  CheckoutSessionsTable,
  LocaleCode,
} from '../db/schema.ts';

// SQL for bookings. `db` is a transaction wherever the caller needs one.

export type BookingUserRow = {
  id: string;
  email: string | null;
  phone_number: string | null;
  first_name: string;
  locale: LocaleCode;
  email_verified_at: Date | null;
  phone_verified_at: Date | null;
  deleted_at: Date | null;
};

/**
 * `forShare`: for a new booking, the user's row is held FOR SHARE until the transaction ends, which an account
 * deletion's lock (NO KEY UPDATE) waits for and makes wait: a booking either commits before the deletion, which
 * then cancels it, or reads the account deleted. Several bookings of one user still go side by side.
 */
export async function findBookingUser(
  db: Db,
  userId: string,
  options: { forShare?: boolean } = {},
): Promise<BookingUserRow | undefined> {
  const query = db
    .selectFrom('users')
    .select([
      'id',
      'email',
      'phone_number',
      'first_name',
      'locale',
      'email_verified_at',
      'phone_verified_at',
      'deleted_at',
    ])
    .where('id', '=', userId);
  return (options.forShare ? query.forShare() : query).executeTakeFirst();
}

/** Whether the operator blocked this e-mail address or phone number. */
export async function isContactBlocked(db: Db, email: string | null, phone: string | null): Promise<boolean> {
  const conditions: { kind: 'email' | 'phone'; value: string }[] = [];
  if (email) conditions.push({ kind: 'email', value: email.toLowerCase() });
  if (phone) conditions.push({ kind: 'phone', value: phone });
  if (conditions.length === 0) return false;
  const row = await db
    .selectFrom('blocked_contacts')
    .select('id')
    .where((eb) => eb.or(conditions.map((c) => eb.and([eb('kind', '=', c.kind), eb('value', '=', c.value)]))))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Locks the slots' rows (in id order) until the transaction ends, so bookings of one slot queue instead of
 * inserting side by side: the constraints alone would still refuse the second, but concurrent inserters
 * waiting on each other's uncommitted rows in the exclusion index deadlock, and PostgreSQL breaks only one
 * such deadlock per `deadlock_timeout`. NO KEY UPDATE does not block the bookings' foreign-key checks.
 */
export async function lockSlots(db: Db, slotIds: readonly number[]): Promise<void> {
  if (slotIds.length === 0) return;
  await db
    .selectFrom('slots')
    .select('id')
    .where('id', 'in', [...slotIds])
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
}

export type SlotForBookingRow = {
  id: number;
  branch_id: number;
  start_time: Date;
  end_time: Date;
  local_date: string;
  price_cents: number;
  branch_name: string;
  time_zone: string;
  active_with_smart_lock: boolean;
};

export async function findSlotsForBooking(db: Db, slotIds: readonly number[]): Promise<SlotForBookingRow[]> {
  if (slotIds.length === 0) return [];
  return db
    .selectFrom('slots as slot')
    .innerJoin('branches as branch', 'branch.id', 'slot.branch_id')
    .select([
      'slot.id',
      'slot.branch_id',
      'slot.start_time',
      'slot.end_time',
      'slot.local_date',
      'slot.price_cents',
      'branch.name as branch_name',
      'branch.time_zone',
      'branch.active_with_smart_lock',
    ])
    .where('slot.id', 'in', [...slotIds])
    .orderBy('slot.start_time')
    .execute();
}

/**
 * Releases holds whose time is up on these slots (pending -> expired), so a slot abandoned in an unpaid
 * checkout can be booked again at once rather than when the expiry job next runs.
 */
export async function releaseStaleHoldsOfSlots(
  db: Db,
  slotIds: readonly number[],
  now: Date,
): Promise<number> {
  if (slotIds.length === 0) return 0;
  const rows = await db
    .updateTable('bookings')
    .set({ status: 'expired' })
    .where('slot_id', 'in', [...slotIds])
    .where('status', '=', 'pending')
    .where('hold_expires_at', '<=', now)
    .returning('id')
    .execute();
  return rows.length;
}

/** Every pending booking whose hold is up, anywhere: the expiry job's sweep. */
export async function releaseAllStaleHolds(db: Db, now: Date): Promise<number[]> {
  const rows = await db
    .updateTable('bookings')
    .set({ status: 'expired' })
    .where('status', '=', 'pending')
    .where('hold_expires_at', '<=', now)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Inserts the bookings in one statement, in slot order. The database refuses a slot that already has a live
 * booking (unique index, exclusion constraint); the caller maps that refusal.
 */
export async function insertBookings(db: Db, rows: readonly Insertable<BookingsTable>[]): Promise<number[]> {
  const inserted = await db
    .insertInto('bookings')
    .values([...rows].sort((a, b) => a.slot_id - b.slot_id))
    .returning(['id', 'start_time'])
    .execute();
  return inserted.sort((a, b) => a.start_time.getTime() - b.start_time.getTime()).map((row) => row.id);
}

/** A weekly series (issue 31): its id, which its bookings carry. */
export async function insertBookingSeries(
  db: Db,
  row: { branch_id: number; iso_weekday: number; local_time: string },
): Promise<number> {
  const { id } = await db.insertInto('booking_series').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function insertCheckoutSession(db: Db, row: Insertable<CheckoutSessionsTable>): Promise<void> {
  await db.insertInto('checkout_sessions').values(row).execute();
}

export async function attachCheckoutSession(
  db: Db,
  bookingIds: readonly number[],
  sessionId: string,
  holdExpiresAt: Date,
): Promise<void> {
  await setOnBookings(db, bookingIds, { checkout_session_id: sessionId, hold_expires_at: holdExpiresAt });
}

/**
 * Removes holds that never got a checkout session (the provider failed), with their coupon redemptions: the
 * member never had them, so they leave no trace in their bookings, and their slots are free at once.
 */
export async function deleteUnattachedHolds(db: Db, bookingIds: readonly number[]): Promise<void> {
  if (bookingIds.length === 0) return;
  // Holds credit paid part of are ended instead (their credit movements name them): the database gives the
  // credit back as they expire (migration 0015_credit_wallet).
  await db
    .updateTable('bookings')
    .set({ status: 'expired' })
    .where('id', 'in', [...bookingIds])
    .where('status', '=', 'pending')
    .where('credit_cents', '>', 0)
    .where('checkout_session_id', 'is', null)
    .execute();
  const unattached = db
    .selectFrom('bookings')
    .select('id')
    .where('id', 'in', [...bookingIds])
    .where('status', 'in', ['pending', 'expired'])
    .where('checkout_session_id', 'is', null)
    .where('credit_cents', '=', 0);
  await db.deleteFrom('coupon_redemptions').where('booking_id', 'in', unattached).execute();
  await db
    .deleteFrom('bookings')
    .where('id', 'in', [...bookingIds])
    .where('status', 'in', ['pending', 'expired'])
    .where('checkout_session_id', 'is', null)
    .where('credit_cents', '=', 0)
    .execute();
}

export type MyBookingRow = {
  id: number;
  status: 'pending' | 'confirmed' | 'canceled' | 'expired';
  start_time: Date;
  end_time: Date;
  created_at: Date;
  hold_expires_at: Date | null;
  final_price_cents: number;
  /** The part of the price credit paid (issue 31). */
  credit_cents: number;
  refund_ratios: Record<string, number>;
  paid_at: Date | null;
  branch_id: number;
  branch_name: string;
  location: string;
  time_zone: string;
  coupon_code: string | null;
  coupon_discount: number | string | null;
  series_id: number | null;
  checkout_session_id: string | null;
  session_status: 'open' | 'complete' | 'expired' | null;
  session_expires_at: Date | null;
  session_locale: LocaleCode | null;
  session_booking_date: string | null;
  lock_code: string | null;
  /** The backup code the door-code message carries instead (a one-door branch whose door did not confirm). */
  lock_code_backup: string | null;
  lock_code_revoked_at: Date | null;
  lock_code_valid_from: Date | null;
  lock_code_valid_until: Date | null;
  checked_in_at: Date | null;
};

/** The user's bookings with what the read model needs; callers add which ones and their order. */
function userBookingsQuery(db: Db, userId: string) {
  return (
    bookingsWithBranch(db)
      .leftJoin('coupons as coupon', 'coupon.id', 'booking.coupon_id')
      .leftJoin('checkout_sessions as session', 'session.id', 'booking.checkout_session_id')
      .leftJoin('lock_codes as code', 'code.id', 'booking.lock_code_id')
      .select((eb) => [
        'booking.id',
        'booking.status',
        'booking.start_time',
        'booking.end_time',
        'booking.created_at',
        'booking.hold_expires_at',
        'booking.final_price_cents',
        'booking.credit_cents',
        'booking.refund_ratios',
        'booking.paid_at',
        'branch.id as branch_id',
        'branch.name as branch_name',
        'branch.location',
        'branch.time_zone',
        'coupon.code as coupon_code',
        'coupon.discount as coupon_discount',
        'booking.series_id',
        'booking.checkout_session_id',
        'session.status as session_status',
        'session.expires_at as session_expires_at',
        'session.locale as session_locale',
        'session.booking_date as session_booking_date',
        'code.code as lock_code',
        // The rule of the door-code message (server/doors/doors.ts, prepareForMessage): a backup code stands in
        // for the code only at a branch with one door, while that door has not confirmed the code.
        eb
          .selectFrom('lock_code_doors as door')
          .select(
            sql<
              string | null
            >`case when count(*) = 1 and bool_and(door.state <> 'set') then max(door.backup_code) end`.as(
              'backup',
            ),
          )
          .whereRef('door.lock_code_id', '=', 'code.id')
          .as('lock_code_backup'),
        'code.revoked_at as lock_code_revoked_at',
        'code.valid_from as lock_code_valid_from',
        'code.valid_until as lock_code_valid_until',
        'booking.checked_in_at',
      ])
      .where('booking.user_id', '=', userId)
      // A move's hold is part of that move, not a booking of its own (the booking shows where it is).
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('booking_moves').select('id').whereRef('hold_booking_id', '=', 'booking.id'),
          ),
        ),
      )
  );
}

/**
 * A booking is upcoming while it holds its slot and has not started: confirmed, or pending with a hold that has
 * not expired at `now`. The rest (started, cancelled, expired) is the user's history.
 */
function upcoming(now: Date) {
  return sql<boolean>`(booking.start_time > ${now} and (booking.status = 'confirmed' or (booking.status = 'pending' and booking.hold_expires_at > ${now})))`;
}

/** Every upcoming booking of the user, by start time (bookings_by_user serves the range). */
/** Where and when one of the user's bookings is (any status), or undefined when it is not theirs. */
export async function findUserBookingPlace(
  db: Db,
  userId: string,
  bookingId: number,
): Promise<{ branch_id: number; start_time: Date } | undefined> {
  return db
    .selectFrom('bookings')
    .select(['branch_id', 'start_time'])
    .where('id', '=', bookingId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function listUpcomingUserBookings(db: Db, userId: string, now: Date): Promise<MyBookingRow[]> {
  return userBookingsQuery(db, userId)
    .where('booking.start_time', '>', now)
    .where(upcoming(now))
    .orderBy('booking.start_time')
    .orderBy('booking.id')
    .execute();
}

/** Where a page of history ends: the last booking's start and id (history runs newest first). */
export type HistoryCursor = { startTime: Date; id: number };

/**
 * Up to `limit` bookings of the user's history, newest start first, strictly older than `before` when given
 * (bookings_by_user read backwards: the cost follows the page, not the account's whole history).
 */
export async function listUserBookingHistory(
  db: Db,
  userId: string,
  now: Date,
  { before, limit }: { before: HistoryCursor | null; limit: number },
): Promise<MyBookingRow[]> {
  let query = userBookingsQuery(db, userId).where(sql<boolean>`not ${upcoming(now)}`);
  if (before) {
    query = query.where(sql<boolean>`(booking.start_time, booking.id) < (${before.startTime}, ${before.id})`);
  }
  return query.orderBy('booking.start_time', 'desc').orderBy('booking.id', 'desc').limit(limit).execute();
}

export type BookingToCancelRow = {
  id: number;
  user_id: string | null;
  slot_id: number;
  status: BookingStatus;
  start_time: Date;
  end_time: Date;
  hold_expires_at: Date | null;
  final_price_cents: number;
  /** The part of the price credit paid (issue 31): it comes back as credit, the rest as money. */
  credit_cents: number;
  refund_ratios: Record<string, number>;
  checkout_session_id: string | null;
  lock_code_id: number | null;
};

const BOOKING_TO_CANCEL_COLUMNS = [
  'id',
  'user_id',
  'slot_id',
  'status',
  'start_time',
  'end_time',
  'hold_expires_at',
  'final_price_cents',
  'credit_cents',
  'refund_ratios',
  'checkout_session_id',
  'lock_code_id',
] as const;

/** Bookings to cancel, rows locked in id order so concurrent cancellations never deadlock; callers say which. */
function lockingBookingsToCancel(db: Db) {
  return db.selectFrom('bookings').select(BOOKING_TO_CANCEL_COLUMNS).orderBy('id').forUpdate();
}

/** The door codes of the bookings a filter selects, read without locking: to lock them first. */
function codesOfBookings(db: Db) {
  return db.selectFrom('bookings').select('lock_code_id').where('lock_code_id', 'is not', null);
}

const codeIds = (rows: readonly { lock_code_id: number | null }[]) => rows.map((row) => row.lock_code_id);

/**
 * Reads and locks the bookings, their door codes first: to cancel them, or to attach a checkout session to the
 * holds a booking wrote.
 */
export async function lockBookings(db: Db, bookingIds: readonly number[]): Promise<BookingToCancelRow[]> {
  if (bookingIds.length === 0) return [];
  const ids = [...bookingIds];
  return lockBookingsAfterCodes(
    db,
    async () => codeIds(await codesOfBookings(db).where('id', 'in', ids).execute()),
    () => lockingBookingsToCancel(db).where('id', 'in', ids).execute(),
  );
}

export async function cancelBooking(db: Db, bookingId: number, now: Date): Promise<void> {
  await updateById(db, 'bookings', bookingId, { status: 'canceled', canceled_at: now });
}

/** The user's live bookings that have not started, locked (their door codes first). */
export async function lockUpcomingBookingsOfUser(
  db: Db,
  userId: string,
  now: Date,
): Promise<BookingToCancelRow[]> {
  return lockBookingsAfterCodes(
    db,
    async () =>
      codeIds(
        await codesOfBookings(db)
          .where('user_id', '=', userId)
          .where('status', 'in', ['pending', 'confirmed'])
          .where('start_time', '>', now)
          .execute(),
      ),
    () =>
      lockingBookingsToCancel(db)
        .where('user_id', '=', userId)
        .where('status', 'in', ['pending', 'confirmed'])
        .where('start_time', '>', now)
        .execute(),
  );
}

export async function expirePendingBookings(db: Db, bookingIds: readonly number[]): Promise<void> {
  if (bookingIds.length === 0) return;
  await db
    .updateTable('bookings')
    .set({ status: 'expired' })
    .where('id', 'in', [...bookingIds])
    .where('status', '=', 'pending')
    .execute();
}

export type BookingFilter = {
  branchId?: number;
  status?: BookingStatus;
  from?: Date;
  until?: Date;
  email?: string;
  limit: number;
};

/** Bookings (`booking`) with their branch (`branch`) and client (`user`, when there is one): what operators read. */
export function bookingsWithBranchAndClient(db: Db) {
  return bookingsWithBranch(db).leftJoin('users as user', 'user.id', 'booking.user_id');
}

/** Bookings by start, newest first, with their branch, client and coupon: the operator's view. */
export async function listBookingRecords(db: Db, filter: BookingFilter) {
  let query = bookingsWithBranchAndClient(db)
    .leftJoin('coupons as coupon', 'coupon.id', 'booking.coupon_id')
    .select([
      'booking.id',
      'booking.status',
      'booking.start_time',
      'booking.end_time',
      'booking.final_price_cents',
      'booking.paid_at',
      'booking.canceled_at',
      'booking.checkout_session_id',
      'booking.checked_in_at',
      'booking.no_show_at',
      'booking.overstay_at',
      'booking.series_id',
      'booking.credit_cents',
      'branch.name as branch_name',
      'branch.time_zone',
      'user.email',
      'coupon.code as coupon_code',
      // The guests still on it (issue 31), each with a door code of their own.
      (eb) =>
        eb
          .selectFrom('booking_guests as guest')
          .select((count) => count.fn.countAll<number>().as('guests'))
          .whereRef('guest.booking_id', '=', 'booking.id')
          .where('guest.removed_at', 'is', null)
          .as('guests'),
      // A dearer move's hold: the booking it would have moved (an abandoned move expires here, not a lost sale).
      (eb) =>
        eb
          .selectFrom('booking_moves as move')
          .select('move.booking_id')
          .whereRef('move.hold_booking_id', '=', 'booking.id')
          .limit(1)
          .as('move_of'),
    ])
    .orderBy('booking.start_time', 'desc')
    .orderBy('booking.id', 'desc')
    .limit(filter.limit);
  if (filter.branchId !== undefined) query = query.where('booking.branch_id', '=', filter.branchId);
  if (filter.status !== undefined) query = query.where('booking.status', '=', filter.status);
  if (filter.from !== undefined) query = query.where('booking.start_time', '>=', filter.from);
  if (filter.until !== undefined) query = query.where('booking.start_time', '<', filter.until);
  if (filter.email !== undefined) query = query.where('user.email', '=', filter.email.toLowerCase());
  return query.execute();
}

/** Whether a closure in force covers part of any of these slots (they cannot be booked). */
export async function anySlotClosed(db: Db, slotIds: readonly number[]): Promise<boolean> {
  if (slotIds.length === 0) return false;
  const row = await db
    .selectFrom('slots as slot')
    .innerJoin('branch_closures as closure', 'closure.branch_id', 'slot.branch_id')
    .select('slot.id')
    .where('slot.id', 'in', [...slotIds])
    .where('closure.reopened_at', 'is', null)
    .where('closure.starts_at', '<', sql<Date>`slot.end_time`)
    .where('closure.ends_at', '>', sql<Date>`slot.start_time`)
    .executeTakeFirst();
  return row !== undefined;
}

export type RevisedBookingRow = {
  id: number;
  user_id: string | null;
  branch_id: number;
  start_time: Date;
  end_time: Date;
  checkout_session_id: string | null;
  calendar_sequence: number;
};

/**
 * Raises the bookings' calendar SEQUENCE for a message about a change (a cancellation, a move), in the change's
 * transaction, and answers what the message needs. Each call raises it again: a later change out-ranks this one.
 */
export async function reviseCalendarEvents(
  db: Db,
  bookingIds: readonly number[],
): Promise<RevisedBookingRow[]> {
  if (bookingIds.length === 0) return [];
  return db
    .updateTable('bookings')
    .set((eb) => ({ calendar_sequence: eb('calendar_sequence', '+', 1) }))
    .where('id', 'in', [...bookingIds])
    .returning([
      'id',
      'user_id',
      'branch_id',
      'start_time',
      'end_time',
      'checkout_session_id',
      'calendar_sequence',
    ])
    .execute();
}

/**
 * Live bookings (confirmed, or holds not yet expired) overlapping a period, of a branch or of members, locked in
 * id order (their door codes first); `until` null: from `from` on.
 */
export async function lockLiveBookingsInPeriod(
  db: Db,
  filter: { branchId?: number; userIds?: readonly string[]; from: Date; until: Date | null; now: Date },
): Promise<number[]> {
  let query = db
    .selectFrom('bookings')
    .select(['id', 'lock_code_id'])
    .where((eb) =>
      eb.or([
        eb('status', '=', 'confirmed'),
        eb.and([eb('status', '=', 'pending'), eb('hold_expires_at', '>', filter.now)]),
      ]),
    )
    .where('end_time', '>', filter.from);
  if (filter.until) query = query.where('start_time', '<', filter.until);
  if (filter.branchId !== undefined) query = query.where('branch_id', '=', filter.branchId);
  if (filter.userIds !== undefined)
    query = query.where('user_id', 'in', [...filter.userIds, '00000000-0000-0000-0000-000000000000']);
  // Their door codes first: the one lock order of every release (server/kernel/queries.ts).
  const rows = await lockBookingsAfterCodes(
    db,
    async () => (await query.execute()).map((row) => row.lock_code_id),
    () => query.orderBy('id').forUpdate().execute(),
  );
  return rows.map((row) => row.id);
}

/** Who cancelled the bookings (an operator's e-mail, the CLI's name, `closure:<id>`), and why on their refunds. */
export async function markCanceledBy(
  db: Db,
  bookingIds: readonly number[],
  canceledBy: string,
  reason: string,
): Promise<void> {
  if (bookingIds.length === 0) return;
  await setOnBookings(db, bookingIds, { canceled_by: canceledBy });
  await db
    .updateTable('refunds')
    .set({ reason })
    .where('booking_id', 'in', [...bookingIds])
    .where('reason', 'is', null)
    .execute();
}

/** Slots of a branch whose time overlaps the period. */
function slotsInPeriod(db: Db, branchId: number, from: Date, until: Date) {
  return db
    .selectFrom('slots')
    .where('branch_id', '=', branchId)
    .where('end_time', '>', from)
    .where('start_time', '<', until);
}

/** The slots in the period, locked like a booking locks them (id order). */
export async function lockSlotsInPeriod(db: Db, branchId: number, from: Date, until: Date): Promise<number> {
  const rows = await slotsInPeriod(db, branchId, from, until)
    .select('id')
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
  return rows.length;
}

export async function countSlotsInPeriod(db: Db, branchId: number, from: Date, until: Date): Promise<number> {
  const row = await slotsInPeriod(db, branchId, from, until)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function branchExists(db: Db, branchId: number): Promise<boolean> {
  const row = await db.selectFrom('branches').select('id').where('id', '=', branchId).executeTakeFirst();
  return row !== undefined;
}

/** Closures in force never overlap: the database refuses one that would (an exclusion constraint, 23P01). */
export async function insertClosure(db: Db, closure: Insertable<BranchClosuresTable>): Promise<number> {
  const { id } = await db
    .insertInto('branch_closures')
    .values(closure)
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function setClosureCanceledBookings(
  db: Db,
  closureId: number,
  bookingIds: readonly number[],
): Promise<void> {
  await updateById(db, 'branch_closures', closureId, { canceled_booking_ids: [...bookingIds] });
}

export async function lockClosure(db: Db, closureId: number) {
  return db
    .selectFrom('branch_closures')
    .selectAll()
    .where('id', '=', closureId)
    .forUpdate()
    .executeTakeFirst();
}

export async function setClosureReopened(db: Db, closureId: number, at: Date): Promise<void> {
  await updateById(db, 'branch_closures', closureId, { reopened_at: at });
}
