import { recordAudit, type Actor } from '../../kernel/audit.ts';
import { dateFromInstant } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../kernel/errors.ts';
import {
  blockContacts,
  blockedContactSubject,
  normaliseContact,
  type BlockDependencies,
  type ContactKind,
  type FutureBookingsOfBlocked,
} from '../blocked-contacts.ts';
import type { BlockedContact } from '../repository.ts';

// Blocking an e-mail address or a phone number, for the console (POST /admin/blocked-contacts) and the CLI
// (`block add`) alike: in the caller's transaction it takes the contact in the form registration stores it,
// refuses one blocked already, blocks it, cancels the future bookings of the accounts using it when asked, and
// writes its audit row.

export type BlockContactInput = {
  actor: Actor;
  kind: ContactKind;
  /** As typed: normalised here. */
  value: string;
  reason: string | null;
  futureBookings?: FutureBookingsOfBlocked;
};

export type BlockContactResult = { contact: BlockedContact; canceledBookingIds: number[] };

export async function blockContact(
  trx: Db,
  deps: BlockDependencies,
  input: BlockContactInput,
): Promise<BlockContactResult> {
  const contact = normaliseContact(input.kind, input.value);
  const { added, canceledBookingIds } = await blockContacts(trx, deps, {
    contacts: [contact],
    reason: input.reason,
    actor: input.actor,
    futureBookings: input.futureBookings,
  });
  if (added.length === 0) throw new AppError('contact_already_blocked');
  await recordAudit(
    trx,
    input.actor,
    {
      action: 'contact.block',
      ...blockedContactSubject(contact),
      reason: input.reason,
      after: { ...contact, canceled_booking_ids: canceledBookingIds },
    },
    dateFromInstant(deps.clock.now()),
  );
  return { contact, canceledBookingIds };
}
