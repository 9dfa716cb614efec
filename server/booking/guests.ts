import { normaliseContact } from '../accounts/index.ts';
import type { Clock } from '../kernel/clock.ts';
import { dateFromInstant } from '../kernel/clock.ts';
import { AppError } from '../kernel/errors.ts';
import { runTransaction } from '../kernel/transactions.ts';
import type { Db } from '../db/database.ts';
import {
  doorStatesOfCodes,
  issueGuestLockCode,
  releaseLockCodes,
  type LockDependencies,
} from '../doors/index.ts';
import type { TransactionRetryLog } from '../kernel/transactions.ts';
import type { GuestCodeScheduler } from './guest-codes.ts';
import type { components } from '../../openapi/schema.gen.ts';

// A door code for every guest (issue 31, item 4). A member adds guests (a name and a phone or an e-mail) to an
// active booking, up to the branch's `guest_limit`; each gets a code of their own on the branch's doors for the
// booking's window (doors/service.ts, issueGuestLockCode). A guest's code opens the door while the guest is on a
// confirmed booking: removing the guest revokes it at once, and so do the booking's cancellation (cancellation.ts)
// and its move (the guests get fresh codes for the new time). Guests' names and contacts go with the member's
// account (forgetGuestsOfMember).
//
// Locks: the booking's row first, then a guest's code, as the cancellation takes them (its own code, its row,
// then its guests' codes), so the two serialize on the booking row and neither waits for the other's code.

type Schemas = components['schemas'];

/** Where a guest's door-code message is queued; absent where none must go out. */
type GuestMessages = { guestCodes?: GuestCodeScheduler | null };

export type GuestDependencies = LockDependencies &
  GuestMessages & { db: Db; clock: Clock; log?: TransactionRetryLog | null };

type GuestRow = {
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

/** The member's booking, its row locked; `booking_not_found` for anyone else's. */
async function lockOwnBooking(trx: Db, userId: string, bookingId: number) {
  const booking = await trx
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
  if (!booking || booking.user_id !== userId) throw new AppError('booking_not_found');
  return booking;
}

function liveGuestsOf(db: Db, bookingIds: readonly number[]) {
  return db
    .selectFrom('booking_guests')
    .select(GUEST_COLUMNS)
    .where('booking_id', 'in', [...bookingIds, 0])
    .where('removed_at', 'is', null)
    .where('forgotten_at', 'is', null);
}

/**
 * The booking's guests as the member sees them: name, contact, and whether their code is on the doors (never the
 * code itself: it goes to the guest): `set` on every door, `revoked`, else still being programmed.
 */
async function guestViews(db: Db, rows: readonly GuestRow[]): Promise<Schemas['BookingGuest'][]> {
  const states = await doorStatesOfCodes(
    db,
    rows.flatMap((row) => (row.lock_code_id === null ? [] : [row.lock_code_id])),
  );
  return rows.map((row) => {
    const state = row.lock_code_id === null ? 'revoked' : states.get(row.lock_code_id);
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      phone_number: row.phone_number,
      added_at: row.created_at.toISOString(),
      entered_at: row.entered_at?.toISOString() ?? null,
      door_code: state === 'revoked' || state === 'set' ? state : 'pending',
    };
  });
}

/**
 * A fresh code for the guest, for the booking's window, on the branch's doors; it becomes the guest's, and its
 * message is queued for the booking's door-code time. Answers the code's id.
 */
async function giveGuestCode(
  trx: Db,
  deps: LockDependencies & GuestMessages,
  guestId: number,
  booking: { id: number; user_id: string | null; branch_id: number; start_time: Date; end_time: Date },
  now: Date,
): Promise<number> {
  const lockCodeId = await issueGuestLockCode(trx, deps, booking, now);
  await trx
    .updateTable('booking_guests')
    .set({ lock_code_id: lockCodeId })
    .where('id', '=', guestId)
    .execute();
  await deps.guestCodes?.schedule(trx, { guestId, lockCodeId, start: booking.start_time });
  return lockCodeId;
}

export type GuestInput = { name: string; email?: string | null; phone_number?: string | null };

export function createGuestService(deps: GuestDependencies) {
  const { db, clock } = deps;
  return {
    /** `GET /bookings/{booking_id}/guests`: the guests still on the member's booking, first added first. */
    async listGuests(userId: string, bookingId: number): Promise<Schemas['BookingGuest'][]> {
      const booking = await db
        .selectFrom('bookings')
        .select(['id', 'user_id'])
        .where('id', '=', bookingId)
        .executeTakeFirst();
      if (!booking || booking.user_id !== userId) throw new AppError('booking_not_found');
      return guestViews(db, await liveGuestsOf(db, [bookingId]).orderBy('id').execute());
    },

    /**
     * `POST /bookings/{booking_id}/guests`: a guest on a confirmed booking that has not ended, with a code of their
     * own for its window, programmed on the branch's doors in the same transaction.
     */
    async addGuest(userId: string, bookingId: number, input: GuestInput): Promise<Schemas['BookingGuest']> {
      const name = input.name.trim();
      const email = input.email?.trim() ? normaliseContact('email', input.email).value : null;
      const phone = input.phone_number?.trim() ? normaliseContact('phone', input.phone_number).value : null;
      if (name === '') throw new AppError('validation_failed');
      if (email === null && phone === null) throw new AppError('guest_contact_required');
      return runTransaction(db, { name: 'addGuest', log: deps.log }, async (trx) => {
        const now = dateFromInstant(clock.now());
        const booking = await lockOwnBooking(trx, userId, bookingId);
        if (booking.status !== 'confirmed' || booking.end_time <= now)
          throw new AppError('booking_not_guestable');
        const live = await liveGuestsOf(trx, [bookingId]).execute();
        if (live.length >= booking.guest_limit) throw new AppError('guest_limit_reached');
        const guest = await trx
          .insertInto('booking_guests')
          .values({ booking_id: bookingId, name, email, phone_number: phone, created_at: now })
          .returning(GUEST_COLUMNS)
          .executeTakeFirstOrThrow();
        const lockCodeId = await giveGuestCode(trx, deps, guest.id, booking, now);
        const [view] = await guestViews(trx, [{ ...guest, lock_code_id: lockCodeId }]);
        return view!;
      });
    },

    /**
     * `DELETE /bookings/{booking_id}/guests/{guest_id}`: the guest leaves the booking and their code is revoked on
     * every door at once. Removing a guest already removed answers the same (a repeated request).
     */
    async removeGuest(userId: string, bookingId: number, guestId: number): Promise<void> {
      await runTransaction(db, { name: 'removeGuest', log: deps.log }, async (trx) => {
        const now = dateFromInstant(clock.now());
        await lockOwnBooking(trx, userId, bookingId);
        const guest = await trx
          .selectFrom('booking_guests')
          .select(['id', 'lock_code_id', 'removed_at'])
          .where('id', '=', guestId)
          .where('booking_id', '=', bookingId)
          .executeTakeFirst();
        if (!guest) throw new AppError('guest_not_found');
        if (guest.removed_at !== null) return;
        await trx.updateTable('booking_guests').set({ removed_at: now }).where('id', '=', guestId).execute();
        // Its code now serves no confirmed booking: revoked, and deleted from every door by the queued sync.
        if (guest.lock_code_id !== null) await releaseLockCodes(trx, deps, [guest.lock_code_id], now);
      });
    },
  };
}

export type GuestService = ReturnType<typeof createGuestService>;

/**
 * After bookings were cancelled (their rows locked, their status changed in this transaction): their guests'
 * codes serve nothing any more and are revoked. The guests stay listed on the cancelled booking.
 */
export async function releaseGuestCodesOf(
  trx: Db,
  deps: LockDependencies,
  bookingIds: readonly number[],
  now: Date,
): Promise<void> {
  if (bookingIds.length === 0) return;
  const guests = await liveGuestsOf(trx, bookingIds).execute();
  await releaseLockCodes(
    trx,
    deps,
    guests.flatMap((guest) => (guest.lock_code_id === null ? [] : [guest.lock_code_id])),
    now,
  );
}

/**
 * After a booking moved (its row locked, its new time written): each guest gets a fresh code for the new window and
 * the old one is revoked, as the member's own code is replaced.
 */
export async function recodeGuestsOf(
  trx: Db,
  deps: LockDependencies & GuestMessages,
  booking: { id: number; user_id: string | null; branch_id: number; start_time: Date; end_time: Date },
  now: Date,
): Promise<void> {
  const guests = await liveGuestsOf(trx, [booking.id]).execute();
  for (const guest of guests) {
    // The message of the new code goes at the new time (the old code's job finds it no longer the guest's).
    await giveGuestCode(trx, deps, guest.id, booking, now);
    if (guest.lock_code_id !== null) await releaseLockCodes(trx, deps, [guest.lock_code_id], now);
  }
}

/** An account's deletion: its bookings' guests lose their names and contacts (their codes went with the bookings). */
export async function forgetGuestsOfMember(trx: Db, userId: string, now: Date): Promise<void> {
  await trx
    .updateTable('booking_guests')
    .set({ name: '-', email: null, phone_number: null, forgotten_at: now })
    .where('forgotten_at', 'is', null)
    .where('booking_id', 'in', (eb) => eb.selectFrom('bookings').select('id').where('user_id', '=', userId))
    .execute();
}
