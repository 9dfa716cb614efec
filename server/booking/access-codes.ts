import { createHash } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { dateFromInstant, instantFromDate, type Clock } from '../kernel/clock.ts';
import { insertOutboxMessage } from '../kernel/outbox.ts';
import { runTransaction } from '../kernel/transactions.ts';
import type { Db } from '../db/database.ts';
import { findLockCode, type MessageReadiness } from '../doors/index.ts';
import { findMessageContext, type MessageContextRow } from '../notifications/index.ts';
import { arrivalKitFor } from '../catalog/index.ts';
import { accessCodeMessage } from './access-code-message.ts';
import * as repository from './access-code-repository.ts';

// The door-code message: 30 minutes before each confirmed booking starts, its client gets the code by e-mail
// and SMS. The confirming transaction schedules one job per booking on the durable queue; the job writes the
// message to the outbox, which delivers it with retries.

/** How long before the start the code is sent (as long as My bookings shows it before the start). */
export const ACCESS_CODE_LEAD = Temporal.Duration.from({ minutes: 30 });

export type AccessCodeJobData = { bookingId: number };

/** Schedules the message of each newly confirmed booking, in the confirming transaction. */
export type AccessCodeScheduler = {
  /** `lockCodeId` only for a re-send after the booking's code was replaced. */
  schedule(trx: Db, bookings: readonly { id: number; start: Date; lockCodeId?: number }[]): Promise<void>;
  /**
   * A moved booking: its waiting jobs (due at the old time) are cancelled and new ones are due at the new
   * time; `moveSeq` gives the new job an id of its own even when the booking returns to a code it had.
   */
  reschedule(
    trx: Db,
    booking: { id: number; start: Date; lockCodeId: number; moveSeq: number },
  ): Promise<void>;
};

export type AccessCodeOutcome =
  'sent' | 'already_sent' | 'not_confirmed' | 'ended' | 'no_code' | 'no_recipient' | 'not_found';

/**
 * The queue's job id of a booking's message: a UUID derived from the booking id, so scheduling a booking
 * twice (a redelivered payment event, a retried confirmation) inserts one job.
 */
export function accessCodeJobId(bookingId: number, lockCodeId?: number, moveSeq?: number): string {
  const name = [`access-code:${bookingId}`, lockCodeId, moveSeq === undefined ? undefined : `move-${moveSeq}`]
    .filter((part) => part !== undefined)
    .join(':');
  return jobIdOf(name);
}

/** A queue job id (a UUID) derived from a name, so the same job scheduled twice is one job. */
export function jobIdOf(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function accessCodeDueAt(start: Date): Date {
  return dateFromInstant(instantFromDate(start).subtract(ACCESS_CODE_LEAD));
}

/**
 * After a cancellation released `formerCodeIds`: bookings that were already told one of them but now have a
 * code of their own are told again (their first job may have run already). Runs in the cancelling transaction.
 */
export async function rescheduleRecodedAccessCodes(
  trx: Db,
  scheduler: AccessCodeScheduler | null,
  formerCodeIds: readonly number[],
  now: Date,
): Promise<void> {
  if (!scheduler) return;
  const recoded = await repository.listRecodedBookings(trx, formerCodeIds, now);
  await scheduler.schedule(
    trx,
    recoded.map((row) => ({ id: row.id, start: row.start_time, lockCodeId: row.lock_code_id })),
  );
}

/** The back-to-back bookings (one code, one run) that include `bookingId`. */
function runOf(
  bookings: readonly repository.NoticeBookingRow[],
  bookingId: number,
): repository.NoticeBookingRow[] {
  const runs: repository.NoticeBookingRow[][] = [];
  for (const booking of bookings) {
    const run = runs.at(-1);
    if (run && run.at(-1)!.end_time.getTime() === booking.start_time.getTime()) run.push(booking);
    else runs.push([booking]);
  }
  return runs.find((run) => run.some((booking) => booking.id === bookingId)) ?? [];
}

/**
 * Writes a door-code message to the outbox: an e-mail and an SMS where the recipient has them (the member's own,
 * `access_code`, or a guest's, `guest_code`, whose contact replaces the member's in `context`).
 */
export async function queueMessage(
  trx: Db,
  context: Pick<MessageContextRow, 'email' | 'phone_number' | 'locale'>,
  message: ReturnType<typeof accessCodeMessage>,
  now: Date,
  dedupeKey: (channel: 'email' | 'sms') => string,
  kind: 'access_code' | 'guest_code' | 'guest_withdrawn' = 'access_code',
): Promise<void> {
  const common = { locale: context.locale, kind, created_at: now, next_attempt_at: now };
  if (context.email) {
    await insertOutboxMessage(trx, {
      ...common,
      channel: 'email',
      recipient: context.email,
      subject: message.subject,
      text_body: message.text,
      html_body: message.html,
      dedupe_key: dedupeKey('email'),
    });
  }
  if (context.phone_number) {
    await insertOutboxMessage(trx, {
      ...common,
      channel: 'sms',
      recipient: context.phone_number,
      subject: null,
      text_body: message.sms,
      html_body: null,
      dedupe_key: dedupeKey('sms'),
    });
  }
}

export type ResendOutcome = 'sent' | 'not_yet' | 'ended' | 'no_code' | 'not_found' | 'no_recipient';

export function createAccessCodeNotifier(deps: {
  db: Db;
  clock: Clock;
  publicUrl: string;
  companyName: string;
  /** The doors' readiness: the message carries a confirmed code, a backup code, or the code with the help line. */
  doors?: { prepareForMessage(bookingId: number): Promise<MessageReadiness> } | null;
  supportPhone?: string | null;
}) {
  /** Which digits the message gives, and whether it adds the help line (the doors did not confirm the code). */
  async function readinessOf(bookingId: number): Promise<{ code: string | null; unconfirmed: boolean }> {
    if (!deps.doors) return { code: null, unconfirmed: false };
    const readiness = await deps.doors.prepareForMessage(bookingId);
    if (readiness.kind === 'none') return { code: null, unconfirmed: false };
    return { code: readiness.code, unconfirmed: readiness.kind === 'unconfirmed' };
  }

  function compose(
    context: MessageContextRow,
    code: { code: string; valid_from: Date; valid_until: Date },
    digits: string,
    unconfirmed: boolean,
    slots: readonly { start_time: Date; end_time: Date }[],
  ) {
    return accessCodeMessage(
      {
        locale: context.locale,
        firstName: context.first_name,
        branch: { name: context.branch_name, location: context.location, timeZone: context.time_zone },
        code: digits,
        validFrom: instantFromDate(code.valid_from),
        validUntil: instantFromDate(code.valid_until),
        slots: slots.map((row) => ({
          start: instantFromDate(row.start_time),
          end: instantFromDate(row.end_time),
        })),
        publicUrl: deps.publicUrl,
        help: unconfirmed ? { phone: deps.supportPhone ?? null } : null,
        arrival: arrivalKitFor(context.arrival, context.locale, {
          mapUrl: context.map_url,
          supportPhone: deps.supportPhone ?? null,
        }),
      },
      deps.companyName,
    );
  }

  return {
    /**
     * "Send my code again", from 30 minutes before the start to the end of the code's window: the same message
     * to the booking's owner, again (the caller rate-limits it).
     */
    async resend(bookingId: number, userId: string): Promise<ResendOutcome> {
      const now = dateFromInstant(deps.clock.now());
      const booking = await repository.lockBookingForNotice(deps.db, bookingId);
      if (!booking || booking.user_id !== userId) return 'not_found';
      if (booking.status !== 'confirmed' || booking.lock_code_id === null) return 'no_code';
      const code = await findLockCode(deps.db, booking.lock_code_id);
      if (!code || code.revoked_at !== null) return 'no_code';
      if (now < accessCodeDueAt(booking.start_time)) return 'not_yet';
      if (now >= code.valid_until) return 'ended';
      let readiness: { code: string | null; unconfirmed: boolean };
      try {
        readiness = await readinessOf(bookingId);
      } catch {
        readiness = { code: null, unconfirmed: true };
      }
      return runTransaction(deps.db, { name: 'resendAccessCode' }, async (trx) => {
        const context = await findMessageContext(trx, userId, booking.branch_id);
        if (!context || (!context.email && !context.phone_number)) return 'no_recipient';
        const run = runOf(await repository.lockConfirmedBookingsOfCode(trx, code.id), booking.id);
        const message = compose(context, code, readiness.code ?? code.code, readiness.unconfirmed, run);
        await queueMessage(trx, context, message, now, (channel) =>
          [`access_code_again`, channel, booking.id, code.id, now.getTime()].join(':'),
        );
        return 'sent';
      });
    },
    /**
     * Writes the door-code message of the booking (and of the back-to-back bookings sharing its code that were
     * not told yet) to the outbox, once. Does nothing for a booking that was cancelled, has ended or was already
     * covered by an earlier message naming the same code. The bookings are locked, so two runs at once send one.
     */
    async send(bookingId: number): Promise<AccessCodeOutcome> {
      // Outside the transaction: it may call the lock provider (a backup code) and write an operator alert.
      const readiness = await readinessOf(bookingId);
      const now = dateFromInstant(deps.clock.now());
      return runTransaction(deps.db, { name: 'sendAccessCode' }, async (trx) => {
        const booking = await repository.lockBookingForNotice(trx, bookingId);
        if (!booking) return 'not_found';
        if (booking.status !== 'confirmed') return 'not_confirmed';
        if (booking.end_time <= now) return 'ended';
        if (booking.lock_code_id === null) return 'no_code';
        if (booking.access_code_sent_for === booking.lock_code_id) return 'already_sent';
        const code = await findLockCode(trx, booking.lock_code_id);
        if (!code || code.revoked_at !== null) return 'no_code';
        const run = runOf(await repository.lockConfirmedBookingsOfCode(trx, code.id), booking.id);
        const covered = run.filter((row) => row.access_code_sent_for !== code.id && row.end_time > now);
        const context =
          booking.user_id === null
            ? undefined
            : await findMessageContext(trx, booking.user_id, booking.branch_id);
        if (!context || (!context.email && !context.phone_number)) return 'no_recipient';

        const message = compose(context, code, readiness.code ?? code.code, readiness.unconfirmed, covered);
        await queueMessage(trx, context, message, now, (channel) =>
          [`access_code`, channel, booking.id, code.id].join(':'),
        );
        await repository.markAccessCodeSent(
          trx,
          covered.map((row) => row.id),
          code.id,
          now,
        );
        return 'sent';
      });
    },
  };
}

export type AccessCodeNotifier = ReturnType<typeof createAccessCodeNotifier>;
