import type { Actor } from '../kernel/audit.ts';
import type { Clock } from '../kernel/clock.ts';
import type { Db } from '../db/database.ts';
import { AppError } from '../kernel/errors.ts';
import { translate, type Message } from '../kernel/i18n.ts';
import { normaliseEmail, sanitisePhoneNumber } from './fields.ts';
import * as repository from './repository.ts';

// Blocked e-mail addresses and phone numbers can neither register nor book. They are kept in the form
// registration stores contacts in, so a block matches however the client types them.

export type ContactKind = repository.BlockedContact['kind'];

const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const notAPhoneNumber: Message = /*i18n*/ {
  id: 'validation.notAPhoneNumber',
  message: '«{value}» não é um número de telefone no formato +<país><número>',
};
const notAnEmailAddress: Message = /*i18n*/ {
  id: 'validation.notAnEmailAddress',
  message: '«{value}» não é um endereço de e-mail',
};

/** The contact as registration stores it; `validation_failed` when it is none. */
export function normaliseContact(kind: ContactKind, raw: string): repository.BlockedContact {
  if (kind === 'phone') {
    try {
      return { kind, value: sanitisePhoneNumber(raw) };
    } catch {
      throw new AppError('validation_failed', {
        problems: (locale) => translate(locale, notAPhoneNumber, { value: raw }),
      });
    }
  }
  const value = normaliseEmail(raw);
  if (!EMAIL_ADDRESS.test(value)) {
    throw new AppError('validation_failed', {
      problems: (locale) => translate(locale, notAnEmailAddress, { value: raw }),
    });
  }
  return { kind, value };
}

/** What the audit log names a change to a contact's block by. */
export function blockedContactSubject(contact: repository.BlockedContact) {
  return { entityType: 'blocked_contact', entityId: `${contact.kind}:${contact.value}` };
}

/** How a block refunds the future bookings it cancels: the booking's policy, in full, or nothing. */
export type BlockRefundMode = 'policy' | 'full' | 'none';

/**
 * Cancels the future bookings of these members, in the block's transaction, each refunded as `refundMode` says;
 * answers the bookings cancelled. The booking module's, given by the caller: it comes after the accounts.
 */
export type CancelFutureBookings = (
  trx: Db,
  request: { memberIds: readonly string[]; refundMode: BlockRefundMode; reason: string; actor: Actor },
) => Promise<number[]>;

export type BlockDependencies = {
  clock: Clock;
  /** Needed only by a block that cancels the blocked members' future bookings. */
  cancelFutureBookings?: CancelFutureBookings;
};

/** A block's cancellation of the blocked members' bookings that have not started; none when absent. */
export type FutureBookingsOfBlocked = { refundMode: BlockRefundMode } | null | undefined;

/**
 * Blocks the contacts (those blocked already are left as they were) and, when asked, cancels the future bookings
 * of the live accounts using them. Answers the blocks added, as `kind:value`, and the bookings cancelled.
 */
export async function blockContacts(
  trx: Db,
  deps: BlockDependencies,
  request: {
    contacts: readonly repository.BlockedContact[];
    reason: string | null;
    actor: Actor;
    futureBookings: FutureBookingsOfBlocked;
  },
): Promise<{ added: string[]; canceledBookingIds: number[] }> {
  const added: string[] = [];
  for (const contact of request.contacts) {
    if (await repository.insertBlockedContact(trx, { ...contact, reason: request.reason })) {
      added.push(`${contact.kind}:${contact.value}`);
    }
  }
  if (!request.futureBookings) return { added, canceledBookingIds: [] };
  if (!deps.cancelFutureBookings) throw new Error('a block that cancels bookings needs the booking module');
  const memberIds = (
    await Promise.all(request.contacts.map((contact) => repository.liveUserIdsWithContact(trx, contact)))
  ).flat();
  const canceledBookingIds = await deps.cancelFutureBookings(trx, {
    memberIds: [...new Set(memberIds)],
    refundMode: request.futureBookings.refundMode,
    reason: request.reason ?? '',
    actor: request.actor,
  });
  return { added, canceledBookingIds };
}

export function createBlockedContactService({ db }: { db: Db }) {
  return {
    async list() {
      return repository.listBlockedContacts(db);
    },
  };
}
