import type { Db } from '../db/database.ts';
import { lockBookingsAfterCodes, setOnBookings } from '../kernel/queries.ts';

// SQL of the door-code message. Runs in the job's transaction, with the bookings it covers locked.

export type NoticeBookingRow = {
  id: number;
  user_id: string | null;
  branch_id: number;
  status: string;
  start_time: Date;
  end_time: Date;
  lock_code_id: number | null;
  access_code_sent_for: number | null;
};

const NOTICE_COLUMNS = [
  'id',
  'user_id',
  'branch_id',
  'status',
  'start_time',
  'end_time',
  'lock_code_id',
  'access_code_sent_for',
] as const;

/** The booking, locked after its door code (the one lock order of codes and their bookings). */
export async function lockBookingForNotice(db: Db, bookingId: number): Promise<NoticeBookingRow | undefined> {
  const booking = () => db.selectFrom('bookings').select(NOTICE_COLUMNS).where('id', '=', bookingId);
  const [row] = await lockBookingsAfterCodes(
    db,
    async () => [(await booking().executeTakeFirst())?.lock_code_id ?? null],
    () => booking().forUpdate().execute(),
  );
  return row;
}

/** The confirmed bookings one code opens the door for, by start time, locked. */
export async function lockConfirmedBookingsOfCode(db: Db, lockCodeId: number): Promise<NoticeBookingRow[]> {
  return db
    .selectFrom('bookings')
    .select(NOTICE_COLUMNS)
    .where('lock_code_id', '=', lockCodeId)
    .where('status', '=', 'confirmed')
    .orderBy('start_time')
    .orderBy('id')
    .forUpdate()
    .execute();
}

/**
 * Confirmed bookings that were told one of these codes and now open the door with another (a cancellation
 * split their run and gave the later part a code of its own).
 */
export async function listRecodedBookings(
  db: Db,
  formerCodeIds: readonly number[],
  now: Date,
): Promise<{ id: number; start_time: Date; lock_code_id: number }[]> {
  if (formerCodeIds.length === 0) return [];
  const rows = await db
    .selectFrom('bookings')
    .select(['id', 'start_time', 'lock_code_id'])
    .where('status', '=', 'confirmed')
    .where('access_code_sent_for', 'in', [...formerCodeIds])
    .where('lock_code_id', 'is not', null)
    .whereRef('lock_code_id', '<>', 'access_code_sent_for')
    .where('end_time', '>', now)
    .execute();
  return rows.map((row) => ({ ...row, lock_code_id: row.lock_code_id! }));
}

export async function markAccessCodeSent(
  db: Db,
  bookingIds: readonly number[],
  lockCodeId: number,
  at: Date,
): Promise<void> {
  await setOnBookings(db, bookingIds, { access_code_sent_at: at, access_code_sent_for: lockCodeId });
}
