import { arrivalKitFor } from '../catalog/index.ts';
import { dateFromInstant, instantFromDate, type Clock } from '../kernel/clock.ts';
import { runTransaction } from '../kernel/transactions.ts';
import type { Db } from '../db/database.ts';
import type { Locale } from '../kernel/i18n.ts';
import { outboxHasAny } from '../kernel/outbox.ts';
import { findMessageContext } from '../notifications/index.ts';
import { accessCodeMessage, type AccessCodeMessage } from './access-code-message.ts';
import { guestWithdrawalMessage } from './guest-withdrawal-message.ts';
import { accessCodeDueAt, jobIdOf, queueMessage } from './access-codes.ts';
import * as repository from './guests-repository.ts';

// A guest's door-code message (issue 31): 30 minutes before the booking starts, each guest still on it gets their
// own code by SMS and e-mail (whichever they gave), in the member's language, with the branch's arrival kit. One
// job per guest and code, queued in the transaction that gave the code (adding the guest, or a move); a job whose
// code is no longer the guest's, or whose guest or booking is gone, sends nothing.

export type GuestCodeJobData = { guestId: number; lockCodeId: number };

export type GuestCodeScheduler = {
  schedule(trx: Db, guest: { guestId: number; lockCodeId: number; start: Date }): Promise<void>;
};

/** The queue's job id of a guest's message for one code: scheduling it twice inserts one job. */
export function guestCodeJobId(guestId: number, lockCodeId: number): string {
  return jobIdOf(`guest-code:${guestId}:${lockCodeId}`);
}

type GuestMessageKind = 'guest_code' | 'guest_withdrawn';

/** The outbox's key of a message to a guest by one channel: once per kind, guest, code and channel. */
function guestMessageKey(
  kind: GuestMessageKind,
  channel: 'email' | 'sms',
  guestId: number,
  lockCodeId: number,
) {
  return [kind, channel, guestId, lockCodeId].join(':');
}

/** Writes a message to a guest, by the contacts they gave, in the member's language (`host`'s). */
function queueGuestMessage(
  trx: Db,
  kind: GuestMessageKind,
  to: { guestId: number; lockCodeId: number; email: string | null; phone_number: string | null },
  host: { locale: Locale },
  message: AccessCodeMessage,
  now: Date,
): Promise<void> {
  return queueMessage(
    trx,
    { locale: host.locale, email: to.email, phone_number: to.phone_number },
    message,
    now,
    (channel) => guestMessageKey(kind, channel, to.guestId, to.lockCodeId),
    kind,
  );
}

export type GuestCodeOutcome = 'sent' | 'stale' | 'not_found';

export function createGuestCodeNotifier(deps: {
  db: Db;
  clock: Clock;
  publicUrl: string;
  companyName: string;
  supportPhone?: string | null;
}) {
  return {
    /** Writes the guest's message to the outbox, once per code (the outbox's dedupe key). */
    async send(guestId: number, lockCodeId: number): Promise<GuestCodeOutcome> {
      const now = dateFromInstant(deps.clock.now());
      return runTransaction(deps.db, { name: 'sendGuestCode' }, async (trx) => {
        // The booking's row locked, so a cancellation or a move waits for this message or this message for them.
        const guest = await repository.lockGuestForMessage(trx, guestId);
        if (!guest || guest.user_id === null) return 'not_found';
        const live =
          guest.lock_code_id === lockCodeId &&
          guest.removed_at === null &&
          guest.forgotten_at === null &&
          guest.status === 'confirmed' &&
          guest.revoked_at === null &&
          guest.end_time > now;
        if (!live) return 'stale';
        const host = await findMessageContext(trx, guest.user_id, guest.branch_id);
        if (!host) return 'not_found';
        const message = accessCodeMessage(
          {
            locale: host.locale,
            firstName: guest.name,
            host: `${host.first_name}`.trim() || '-',
            branch: { name: host.branch_name, location: host.location, timeZone: host.time_zone },
            code: guest.code,
            validFrom: instantFromDate(guest.valid_from),
            validUntil: instantFromDate(guest.valid_until),
            slots: [{ start: instantFromDate(guest.start_time), end: instantFromDate(guest.end_time) }],
            publicUrl: deps.publicUrl,
            arrival: arrivalKitFor(host.arrival, host.locale, {
              mapUrl: host.map_url,
              supportPhone: deps.supportPhone ?? null,
            }),
          },
          deps.companyName,
        );
        await queueGuestMessage(trx, 'guest_code', { ...guest, guestId, lockCodeId }, host, message, now);
        return 'sent';
      });
    },
  };
}

export type GuestCodeNotifier = ReturnType<typeof createGuestCodeNotifier>;

/** When a guest's message is due: the booking's door-code time (at once when that has passed). */
export const guestCodeDueAt = accessCodeDueAt;

/** A guest whose code was just revoked: their invitation ended (removed, or the booking cancelled). */
export type WithdrawnGuest = { guestId: number; lockCodeId: number };

/**
 * In the transaction that revoked their codes (the booking's row locked, as the code's message locks it): each
 * guest who was already sent the code is told, by the same channels and in the member's language, that the
 * invitation ended and the code no longer opens the door; a guest not yet sent it is told nothing (they hold no
 * code, and their message will find it revoked). Once per guest and code (the outbox's dedupe key). Without the
 * business's name (a service that sends no messages) nothing is queued.
 */
export async function queueGuestWithdrawals(
  trx: Db,
  deps: { companyName?: string | null },
  guests: readonly WithdrawnGuest[],
  now: Date,
): Promise<void> {
  if (!deps.companyName) return;
  for (const { guestId, lockCodeId } of guests) {
    const keys = (['email', 'sms'] as const).map((channel) =>
      guestMessageKey('guest_code', channel, guestId, lockCodeId),
    );
    if (!(await outboxHasAny(trx, keys))) continue;
    const guest = await repository.readGuestForMessage(trx, guestId);
    if (!guest || guest.user_id === null || guest.forgotten_at !== null || guest.end_time <= now) continue;
    const host = await findMessageContext(trx, guest.user_id, guest.branch_id);
    if (!host) continue;
    const message = guestWithdrawalMessage(
      {
        locale: host.locale,
        guestName: guest.name,
        host: `${host.first_name}`.trim() || '-',
        branch: { name: host.branch_name, timeZone: host.time_zone },
        start: instantFromDate(guest.start_time),
        end: instantFromDate(guest.end_time),
      },
      deps.companyName,
    );
    await queueGuestMessage(trx, 'guest_withdrawn', { ...guest, guestId, lockCodeId }, host, message, now);
  }
}
