import type { Temporal } from 'temporal-polyfill';
import { sql, type Selectable } from 'kysely';
import { setOnBookings } from '../kernel/queries.ts';
import type { Db } from '../db/database.ts';
import type { LockCodesTable } from '../db/schema.ts';

// SQL for lock codes. Always called inside the transaction that confirms or cancels the bookings.

export type LockCodeRow = Selectable<LockCodesTable>;

export type CodedBookingRow = { id: number; start_time: Date; end_time: Date };

/**
 * A live code of the user's confirmed booking at this branch that ends where [start, end) begins or begins where
 * it ends: back-to-back bookings share one code.
 */
export async function findAdjacentLiveCode(
  db: Db,
  booking: { userId: string; branchId: number; start: Date; end: Date; excludeBookingId: number },
): Promise<LockCodeRow | undefined> {
  return db
    .selectFrom('bookings as booking')
    .innerJoin('lock_codes as code', 'code.id', 'booking.lock_code_id')
    .selectAll('code')
    .where('booking.user_id', '=', booking.userId)
    .where('booking.branch_id', '=', booking.branchId)
    .where('booking.status', '=', 'confirmed')
    .where('booking.id', '<>', booking.excludeBookingId)
    .where('code.revoked_at', 'is', null)
    .where((eb) =>
      eb.or([eb('booking.end_time', '=', booking.start), eb('booking.start_time', '=', booking.end)]),
    )
    .orderBy('booking.start_time')
    .executeTakeFirst();
}

export async function insertLockCode(
  db: Db,
  row: { branchId: number; userId: string | null; code: string; validFrom: Date; validUntil: Date },
): Promise<number> {
  const { id } = await db
    .insertInto('lock_codes')
    .values({
      branch_id: row.branchId,
      user_id: row.userId,
      code: row.code,
      valid_from: row.validFrom,
      valid_until: row.validUntil,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateLockCodeWindow(
  db: Db,
  id: number,
  validFrom: Date,
  validUntil: Date,
): Promise<LockCodeRow> {
  return db
    .updateTable('lock_codes')
    .set({ valid_from: validFrom, valid_until: validUntil })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findLockCode(db: Db, id: number): Promise<LockCodeRow | undefined> {
  return db.selectFrom('lock_codes').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function markProgrammed(db: Db, id: number, at: Date): Promise<void> {
  await db.updateTable('lock_codes').set({ programmed_at: at }).where('id', '=', id).execute();
}

export async function revokeLockCode(db: Db, id: number, at: Date): Promise<void> {
  await db.updateTable('lock_codes').set({ revoked_at: at }).where('id', '=', id).execute();
}

export async function setBookingLockCode(
  db: Db,
  bookingIds: readonly number[],
  lockCodeId: number | null,
): Promise<void> {
  await setOnBookings(db, bookingIds, { lock_code_id: lockCodeId });
}

/**
 * What each code opens the door for: the confirmed bookings that carry it, and the confirmed bookings of the
 * guests who hold it (issue 31: a guest's code serves while the guest is on the booking). One code is either.
 */
function codedBookings(db: Db) {
  return db
    .selectFrom('bookings')
    .select(['lock_code_id', 'id', 'start_time', 'end_time'])
    .where('status', '=', 'confirmed')
    .where('lock_code_id', 'is not', null)
    .unionAll(
      db
        .selectFrom('booking_guests as guest')
        .innerJoin('bookings as booking', 'booking.id', 'guest.booking_id')
        .select(['guest.lock_code_id', 'booking.id', 'booking.start_time', 'booking.end_time'])
        .where('guest.removed_at', 'is', null)
        .where('guest.lock_code_id', 'is not', null)
        .where('booking.status', '=', 'confirmed'),
    );
}

/** The confirmed bookings a code opens the door for (its own, or its guest's), by start time. */
export async function listConfirmedBookingsOfCode(db: Db, lockCodeId: number): Promise<CodedBookingRow[]> {
  return db
    .selectFrom(codedBookings(db).as('coded'))
    .select(['coded.id', 'coded.start_time', 'coded.end_time'])
    .where('coded.lock_code_id', '=', lockCodeId)
    .orderBy('coded.start_time')
    .execute();
}

/**
 * Live codes (not revoked, not yet ended) whose window is not what their confirmed bookings need: none is left,
 * or the window does not run from the margin before their first start to the margin after their last end.
 */
export async function listStrayLockCodes(db: Db, now: Date, margin: Temporal.Duration): Promise<number[]> {
  const minutes = margin.total('minutes');
  const rows = await db
    .selectFrom('lock_codes as code')
    .leftJoin(codedBookings(db).as('booking'), 'booking.lock_code_id', 'code.id')
    .select('code.id')
    .where('code.revoked_at', 'is', null)
    .where('code.valid_until', '>', now)
    .groupBy('code.id')
    .having((eb) =>
      eb.or([
        eb(eb.fn.count('booking.id'), '=', 0),
        eb('code.valid_from', '<>', sql<Date>`min(booking.start_time) - make_interval(mins => ${minutes})`),
        eb('code.valid_until', '<>', sql<Date>`max(booking.end_time) + make_interval(mins => ${minutes})`),
      ]),
    )
    .orderBy('code.id')
    .execute();
  return rows.map((row) => row.id);
}
