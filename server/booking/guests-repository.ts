import type { Db } from '../db/database.ts';

// SQL for a booking's guests (issue 31): guests.ts and guest-codes.ts hold the rules.

export type GuestRow = {
  id: number;
  booking_id: number;
  name: string;
  email: string | null;
  phone_number: string | null;
  lock_code_id: number | null;
  created_at: Date;
  removed_at: Date | null;
  entered_at: Date | null;
};

const GUEST_COLUMNS = [
  'id',
  'booking_id',
  'name',
  'email',
  'phone_number',
  'lock_code_id',
  'created_at',
  'removed_at',
  'entered_at',
] as const;

/** A booking with its owner and its branch's guest limit, its row locked. */
export async function lockBookingForGuests(trx: Db, bookingId: number) {
  return trx
    .selectFrom('bookings as booking')
    .innerJoin('branches as branch', 'branch.id', 'booking.branch_id')
    .select([
      'booking.id',
      'booking.user_id',
      'booking.branch_id',
      'booking.status',
      'booking.start_time',
      'booking.end_time',
      'branch.guest_limit',
    ])
    .where('booking.id', '=', bookingId)
    .forUpdate('booking')
    .executeTakeFirst();
}

export async function findBookingOwner(db: Db, bookingId: number): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('bookings')
    .select('user_id')
    .where('id', '=', bookingId)
    .executeTakeFirst();
  return row?.user_id;
}

/** The guests still on these bookings (not removed, not forgotten), first added first. */
export async function listLiveGuests(db: Db, bookingIds: readonly number[]): Promise<GuestRow[]> {
  if (bookingIds.length === 0) return [];
  return db
    .selectFrom('booking_guests')
    .select(GUEST_COLUMNS)
    .where('booking_id', 'in', [...bookingIds])
    .where('removed_at', 'is', null)
    .where('forgotten_at', 'is', null)
    .orderBy('id')
    .execute();
}

export async function insertGuest(
  trx: Db,
  guest: { bookingId: number; name: string; email: string | null; phoneNumber: string | null; at: Date },
): Promise<GuestRow> {
  return trx
    .insertInto('booking_guests')
    .values({
      booking_id: guest.bookingId,
      name: guest.name,
      email: guest.email,
      phone_number: guest.phoneNumber,
      created_at: guest.at,
    })
    .returning(GUEST_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function setGuestCode(trx: Db, guestId: number, lockCodeId: number): Promise<void> {
  await trx
    .updateTable('booking_guests')
    .set({ lock_code_id: lockCodeId })
    .where('id', '=', guestId)
    .execute();
}

export async function findGuestOfBooking(trx: Db, bookingId: number, guestId: number) {
  return trx
    .selectFrom('booking_guests')
    .select(['id', 'lock_code_id', 'removed_at'])
    .where('id', '=', guestId)
    .where('booking_id', '=', bookingId)
    .executeTakeFirst();
}

export async function markGuestRemoved(trx: Db, guestId: number, at: Date): Promise<void> {
  await trx.updateTable('booking_guests').set({ removed_at: at }).where('id', '=', guestId).execute();
}

/** The guests of a member's bookings lose their names and contacts. */
export async function forgetGuestsOfUser(trx: Db, userId: string, at: Date): Promise<void> {
  await trx
    .updateTable('booking_guests')
    .set({ name: '-', email: null, phone_number: null, forgotten_at: at })
    .where('forgotten_at', 'is', null)
    .where('booking_id', 'in', (eb) => eb.selectFrom('bookings').select('id').where('user_id', '=', userId))
    .execute();
}

/** A guest with their booking and code, for their message; the booking's row locked. */
export async function lockGuestForMessage(trx: Db, guestId: number) {
  // The booking's row locked first, in a statement of its own: a removal or a cancellation holding it has
  // committed by the time the lock is granted, and the read below (a statement of its own, so a snapshot of its
  // own) sees what it wrote. Read in the locking statement, the guest's row was the one seen before the wait
  // (PostgreSQL reads again only the row it locks, and a removal changes the guest's row, not the booking's): a
  // guest removed while their message was being written was sent their code, already revoked.
  const locked = await trx
    .selectFrom('booking_guests as guest')
    .innerJoin('bookings as booking', 'booking.id', 'guest.booking_id')
    .select('booking.id')
    .where('guest.id', '=', guestId)
    .forUpdate('booking')
    .executeTakeFirst();
  return locked ? readGuestForMessage(trx, guestId) : undefined;
}

/** A guest, their booking and their code, as their messages say them (the booking's row locked by the caller). */
export async function readGuestForMessage(trx: Db, guestId: number) {
  return trx
    .selectFrom('booking_guests as guest')
    .innerJoin('bookings as booking', 'booking.id', 'guest.booking_id')
    .innerJoin('lock_codes as code', 'code.id', 'guest.lock_code_id')
    .select([
      'guest.name',
      'guest.email',
      'guest.phone_number',
      'guest.lock_code_id',
      'guest.removed_at',
      'guest.forgotten_at',
      'booking.user_id',
      'booking.branch_id',
      'booking.status',
      'booking.start_time',
      'booking.end_time',
      'code.code',
      'code.valid_from',
      'code.valid_until',
      'code.revoked_at',
    ])
    .where('guest.id', '=', guestId)
    .executeTakeFirst();
}
