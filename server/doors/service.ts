import { randomInt } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import type { LockProvider } from '../adapters/locks/provider.ts';
import { dateFromInstant, instantFromDate } from '../kernel/clock.ts';
import { attemptInSavepoint, REFUSED } from '../kernel/database-errors.ts';
import { runTransaction } from '../kernel/transactions.ts';
import type { Db } from '../db/database.ts';
import { lockLockCodes } from '../kernel/queries.ts';
import type { LockSyncScheduler } from './doors.ts';
import * as doorsRepository from './doors-repository.ts';
import * as repository from './repository.ts';

// Door codes. A code is valid from 15 minutes before its first booking to 15 minutes after its last, is unique
// among the branch's codes valid at the same time (the database's exclusion constraint), and is shared by a
// user's back-to-back bookings at one branch. Codes are never logged.

export const LOCK_CODE_DIGITS = 6;
export const LOCK_CODE_MARGIN = Temporal.Duration.from({ minutes: 15 });
const MAX_CODE_ATTEMPTS = 20;

/** A CSPRNG code of `digits` digits, leading zeros included. */
export function generateLockCode(digits: number = LOCK_CODE_DIGITS): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0');
}

export type LockDependencies = {
  /** Names the doors of each branch. */
  lockProvider: LockProvider;
  /** Queues the programming of codes on their doors (null: nothing is queued, as in some unit tests). */
  lockSync?: LockSyncScheduler | null;
  /** Tests swap it to force collisions. */
  generateCode?: () => string;
};

/** A booking as its row has it: whose, at which branch, when. */
export type BookingToCode = {
  id: number;
  user_id: string | null;
  branch_id: number;
  start_time: Date;
  end_time: Date;
};

function windowOf(start: Date, end: Date): { validFrom: Date; validUntil: Date } {
  return {
    validFrom: dateFromInstant(instantFromDate(start).subtract(LOCK_CODE_MARGIN)),
    validUntil: dateFromInstant(instantFromDate(end).add(LOCK_CODE_MARGIN)),
  };
}

/**
 * Asks every door of the code's branch to hold the code for its current window: a `pending` row per door (new
 * doors, or doors that hold another window), programmed by the queued sync after this transaction commits.
 */
async function program(
  trx: Db,
  deps: LockDependencies,
  code: repository.LockCodeRow,
  now: Date,
): Promise<void> {
  const branch = await doorsRepository.findBranchDoors(trx, code.branch_id);
  const deviceIds = branch ? deps.lockProvider.doorsOf(branch) : [];
  await doorsRepository.ensureDoorRows(trx, code.id, deviceIds);
  await doorsRepository.requeueChangedWindows(
    trx,
    code.id,
    { validFrom: code.valid_from, validUntil: code.valid_until },
    now,
  );
  await repository.markProgrammed(trx, code.id, now);
  await deps.lockSync?.schedule(trx, [code.id]);
}

/** A new code for [validFrom, validUntil), retried with fresh digits while the branch has them in use. */
async function insertFreshCode(
  trx: Db,
  deps: LockDependencies,
  owner: { branchId: number; userId: string | null },
  window: { validFrom: Date; validUntil: Date },
): Promise<number> {
  const generate = deps.generateCode ?? generateLockCode;
  for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS; attempt += 1) {
    const code = generate();
    const id = await attemptInSavepoint(trx, () =>
      repository.insertLockCode(trx, { ...owner, code, ...window }),
    );
    if (id !== REFUSED) return id;
  }
  throw new Error(`no free lock code after ${MAX_CODE_ATTEMPTS} attempts`);
}

/**
 * The adjacent code stretched over the booking's window, or null when it cannot be shared after all (then the
 * booking gets a fresh code). Read again with the code locked: a release that committed meanwhile may have revoked it or freed the booking it touched,
 * and the window grows from what its live bookings cover now, never from an earlier read.
 */
async function stretchAdjacentCode(
  trx: Db,
  lockCodeId: number,
  booking: BookingToCode,
  own: { validFrom: Date; validUntil: Date },
): Promise<repository.LockCodeRow | null> {
  // Busy (being released or stretched by another request): a fresh code instead of waiting. This caller already
  // holds its own bookings' rows and the slots they take, and waiting here for a code whose holder waits for one
  // of those would be a deadlock; two codes for back-to-back sessions open the door as well as one.
  const [locked] = await lockLockCodes(trx, [lockCodeId], { skipLocked: true });
  if (locked === undefined) return null;
  const code = await repository.findLockCode(trx, lockCodeId);
  if (!code || code.revoked_at !== null) return null;
  const live = await repository.listConfirmedBookingsOfCode(trx, lockCodeId);
  const touching = live.some(
    (row) =>
      row.id !== booking.id &&
      (row.end_time.getTime() === booking.start_time.getTime() ||
        row.start_time.getTime() === booking.end_time.getTime()),
  );
  if (!touching) return null;
  const validFrom = code.valid_from < own.validFrom ? code.valid_from : own.validFrom;
  const validUntil = code.valid_until > own.validUntil ? code.valid_until : own.validUntil;
  // Stretching can collide with the same digits given to someone else right after; then a fresh code.
  const stretched = await attemptInSavepoint(trx, () =>
    repository.updateLockCodeWindow(trx, lockCodeId, validFrom, validUntil),
  );
  return stretched === REFUSED ? null : stretched;
}

/**
 * Gives each newly confirmed booking its code: the code of the user's back-to-back booking at the branch,
 * its window stretched, or else a fresh one. Runs in the confirming transaction.
 */
export async function issueLockCodes(
  trx: Db,
  deps: LockDependencies,
  bookings: readonly BookingToCode[],
  now: Date,
): Promise<void> {
  const byStart = [...bookings].sort((a, b) => a.start_time.getTime() - b.start_time.getTime());
  for (const booking of byStart) {
    const own = windowOf(booking.start_time, booking.end_time);
    const adjacent =
      booking.user_id === null
        ? undefined
        : await repository.findAdjacentLiveCode(trx, {
            userId: booking.user_id,
            branchId: booking.branch_id,
            start: booking.start_time,
            end: booking.end_time,
            excludeBookingId: booking.id,
          });
    if (adjacent) {
      const stretched = await stretchAdjacentCode(trx, adjacent.id, booking, own);
      if (stretched) {
        await repository.setBookingLockCode(trx, [booking.id], stretched.id);
        await program(trx, deps, stretched, now);
        continue;
      }
    }
    const id = await insertFreshCode(
      trx,
      deps,
      { branchId: booking.branch_id, userId: booking.user_id },
      own,
    );
    await repository.setBookingLockCode(trx, [booking.id], id);
    const code = await repository.findLockCode(trx, id);
    if (code) await program(trx, deps, code, now);
  }
}

/**
 * A guest's own code for their booking's window (issue 31), programmed on the branch's doors like the member's:
 * fresh digits unique among the branch's codes valid meanwhile, never shared with another booking. The caller links
 * it to the guest (`booking_guests.lock_code_id`) in the same transaction, which is what keeps it live.
 */
export async function issueGuestLockCode(
  trx: Db,
  deps: LockDependencies,
  booking: BookingToCode,
  now: Date,
): Promise<number> {
  const id = await insertFreshCode(
    trx,
    deps,
    { branchId: booking.branch_id, userId: booking.user_id },
    windowOf(booking.start_time, booking.end_time),
  );
  const code = await repository.findLockCode(trx, id);
  if (code) await program(trx, deps, code, now);
  return id;
}

/** Runs of back-to-back bookings. */
function contiguousRuns(bookings: readonly repository.CodedBookingRow[]): repository.CodedBookingRow[][] {
  const runs: repository.CodedBookingRow[][] = [];
  for (const booking of bookings) {
    const run = runs.at(-1);
    if (run && run.at(-1)!.end_time.getTime() === booking.start_time.getTime()) run.push(booking);
    else runs.push([booking]);
  }
  return runs;
}

/**
 * After bookings are cancelled or moved: each of their codes opens the door only for the confirmed bookings still
 * using it. No booking left: revoked. Else its window shrinks to the first run of back-to-back bookings, and
 * a later run (the middle one was cancelled) gets a code of its own, so the freed time is never covered.
 *
 * Each code's row is locked before its bookings are read, so releases of one code serialize: of two requests
 * freeing a shared code's two bookings at once, the second sees the first's booking gone and revokes the code.
 */
export async function releaseLockCodes(
  trx: Db,
  deps: LockDependencies,
  lockCodeIds: readonly number[],
  now: Date,
): Promise<void> {
  for (const lockCodeId of await lockLockCodes(trx, lockCodeIds)) {
    await fitCodeToBookings(trx, deps, lockCodeId, now);
  }
}

/**
 * Fits one locked code to its confirmed bookings: revoked when none is left, its window shrunk to the first
 * run, later runs re-coded. Answers what it did.
 */
async function fitCodeToBookings(
  trx: Db,
  deps: LockDependencies,
  lockCodeId: number,
  now: Date,
): Promise<'kept' | 'revoked' | 'refitted'> {
  const code = await repository.findLockCode(trx, lockCodeId);
  if (!code || code.revoked_at !== null) return 'kept';
  const remaining = await repository.listConfirmedBookingsOfCode(trx, lockCodeId);
  if (remaining.length === 0) {
    await repository.revokeLockCode(trx, lockCodeId, now);
    // Deleted from every door by the queued sync, and confirmed `revoked` door by door.
    await doorsRepository.markDoorsRevoking(trx, lockCodeId, now);
    await deps.lockSync?.schedule(trx, [lockCodeId]);
    return 'revoked';
  }
  const [first, ...later] = contiguousRuns(remaining);
  const window = windowOf(first![0]!.start_time, first!.at(-1)!.end_time);
  if (
    later.length === 0 &&
    window.validFrom.getTime() === code.valid_from.getTime() &&
    window.validUntil.getTime() === code.valid_until.getTime()
  ) {
    return 'kept';
  }
  const shrunk = await repository.updateLockCodeWindow(trx, lockCodeId, window.validFrom, window.validUntil);
  await program(trx, deps, shrunk, now);
  for (const run of later) {
    await repository.setBookingLockCode(
      trx,
      run.map((booking) => booking.id),
      null,
    );
    await issueLockCodes(
      trx,
      deps,
      run.map((booking) => ({ ...booking, user_id: code.user_id, branch_id: code.branch_id })),
      now,
    );
  }
  return 'refitted';
}

/**
 * The door-level guarantee, whatever path forgot a release: every live code whose window is not what its
 * confirmed bookings need (none left, or a window wider than theirs) is fitted to them, each in a transaction of
 * its own with the code locked. Answers the codes it revoked or refitted.
 */
export async function fitStrayLockCodes(
  db: Db,
  deps: LockDependencies,
  now: Date,
): Promise<{ revoked: number[]; refitted: number[] }> {
  const revoked: number[] = [];
  const refitted: number[] = [];
  for (const lockCodeId of await repository.listStrayLockCodes(db, now, LOCK_CODE_MARGIN)) {
    const outcome = await runTransaction(db, { name: 'fitStrayLockCode' }, async (trx) => {
      await lockLockCodes(trx, [lockCodeId]);
      return fitCodeToBookings(trx, deps, lockCodeId, now);
    });
    if (outcome === 'revoked') revoked.push(lockCodeId);
    if (outcome === 'refitted') refitted.push(lockCodeId);
  }
  return { revoked, refitted };
}
