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
import { queueGuestWithdrawals, type GuestCodeScheduler } from './guest-codes.ts';
import * as repository from './guests-repository.ts';
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

/**
 * Where a guest's door-code message is queued, and the business's name its other messages are signed with;
 * absent where none must go out.
 */
type GuestMessages = { guestCodes?: GuestCodeScheduler | null; companyName?: string | null };

export type GuestDependencies = LockDependencies &
  GuestMessages & { db: Db; clock: Clock; log?: TransactionRetryLog | null };

/** The member's booking, its row locked; `booking_not_found` for anyone else's. */
async function lockOwnBooking(trx: Db, userId: string, bookingId: number) {
  const booking = await repository.lockBookingForGuests(trx, bookingId);
  if (!booking || booking.user_id !== userId) throw new AppError('booking_not_found');
  return booking;
}

/**
 * The booking's guests as the member sees them: name, contact, and whether their code is on the doors (never the
 * code itself: it goes to the guest): `set` on every door, `revoked`, else still being programmed.
 */
async function guestViews(db: Db, rows: readonly repository.GuestRow[]): Promise<Schemas['BookingGuest'][]> {
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
  await repository.setGuestCode(trx, guestId, lockCodeId);
  await deps.guestCodes?.schedule(trx, { guestId, lockCodeId, start: booking.start_time });
  return lockCodeId;
}

export type GuestInput = { name: string; email?: string | null; phone_number?: string | null };

export function createGuestService(deps: GuestDependencies) {
  const { db, clock } = deps;
  return {
    /** `GET /bookings/{booking_id}/guests`: the guests still on the member's booking, first added first. */
    async listGuests(userId: string, bookingId: number): Promise<Schemas['BookingGuest'][]> {
      if ((await repository.findBookingOwner(db, bookingId)) !== userId)
        throw new AppError('booking_not_found');
      return guestViews(db, await repository.listLiveGuests(db, [bookingId]));
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
        const live = await repository.listLiveGuests(trx, [bookingId]);
        if (live.length >= booking.guest_limit) throw new AppError('guest_limit_reached');
        const guest = await repository.insertGuest(trx, {
          bookingId,
          name,
          email,
          phoneNumber: phone,
          at: now,
        });
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
        const guest = await repository.findGuestOfBooking(trx, bookingId, guestId);
        if (!guest) throw new AppError('guest_not_found');
        if (guest.removed_at !== null) return;
        await repository.markGuestRemoved(trx, guestId, now);
        // Its code now serves no confirmed booking: revoked, and deleted from every door by the queued sync. A
        // guest who was already sent it is told it no longer opens the door.
        if (guest.lock_code_id === null) return;
        await releaseLockCodes(trx, deps, [guest.lock_code_id], now);
        await queueGuestWithdrawals(trx, deps, [{ guestId, lockCodeId: guest.lock_code_id }], now);
      });
    },
  };
}

export type GuestService = ReturnType<typeof createGuestService>;

/**
 * After bookings were cancelled (their rows locked, their status changed in this transaction): their guests'
 * codes serve nothing any more and are revoked. The guests stay listed on the cancelled booking. Those already
 * sent their code are told, unless `tellGuests` is false (the member's account is being erased: nothing more goes
 * out in its name).
 */
export async function releaseGuestCodesOf(
  trx: Db,
  deps: LockDependencies & GuestMessages,
  bookingIds: readonly number[],
  now: Date,
  { tellGuests }: { tellGuests: boolean },
): Promise<void> {
  const guests = (await repository.listLiveGuests(trx, bookingIds)).flatMap((guest) =>
    guest.lock_code_id === null ? [] : [{ guestId: guest.id, lockCodeId: guest.lock_code_id }],
  );
  await releaseLockCodes(
    trx,
    deps,
    guests.map((guest) => guest.lockCodeId),
    now,
  );
  if (tellGuests) await queueGuestWithdrawals(trx, deps, guests, now);
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
  const guests = await repository.listLiveGuests(trx, [booking.id]);
  for (const guest of guests) {
    // The message of the new code goes at the new time (the old code's job finds it no longer the guest's).
    await giveGuestCode(trx, deps, guest.id, booking, now);
    if (guest.lock_code_id !== null) await releaseLockCodes(trx, deps, [guest.lock_code_id], now);
  }
}

/** An account's deletion: its bookings' guests lose their names and contacts (their codes went with the bookings). */
export async function forgetGuestsOfMember(trx: Db, userId: string, now: Date): Promise<void> {
  await repository.forgetGuestsOfUser(trx, userId, now);
}
