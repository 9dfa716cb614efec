import { arrivalKitFor } from '../catalog/index.ts';
import { dateFromInstant, instantFromDate, type Clock } from '../kernel/clock.ts';
import { runTransaction } from '../kernel/transactions.ts';
import type { Db } from '../db/database.ts';
import { findMessageContext } from '../notifications/index.ts';
import { accessCodeMessage } from './access-code-message.ts';
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
        await queueMessage(
          trx,
          { locale: host.locale, email: guest.email, phone_number: guest.phone_number },
          message,
          now,
          (channel) => ['guest_code', channel, guestId, lockCodeId].join(':'),
          'guest_code',
        );
        return 'sent';
      });
    },
  };
}

export type GuestCodeNotifier = ReturnType<typeof createGuestCodeNotifier>;

/** When a guest's message is due: the booking's door-code time (at once when that has passed). */
export const guestCodeDueAt = accessCodeDueAt;
