import { recordAudit, type Actor } from '../../kernel/audit.ts';
import { dateFromInstant } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../kernel/errors.ts';
import { blockContacts, type BlockDependencies, type FutureBookingsOfBlocked } from '../blocked-contacts.ts';
import * as repository from '../repository.ts';

// Blocking a member (the console's POST /admin/members/{id}/block): their e-mail address and phone number are
// blocked, and their future bookings cancelled when asked, with the audit row in the caller's transaction.

export type BlockMemberInput = {
  actor: Actor;
  memberId: string;
  reason: string;
  futureBookings?: FutureBookingsOfBlocked;
};

export async function blockMember(
  trx: Db,
  deps: BlockDependencies,
  input: BlockMemberInput,
): Promise<{ canceledBookingIds: number[] }> {
  const member = await repository.findLiveUserById(trx, input.memberId);
  if (!member) throw new AppError('member_not_found');
  const contacts: repository.BlockedContact[] = [
    ...(member.email ? [{ kind: 'email' as const, value: member.email }] : []),
    ...(member.phone_number ? [{ kind: 'phone' as const, value: member.phone_number }] : []),
  ];
  const wasBlocked =
    (await repository.blocksOf(trx, { email: member.email, phone: member.phone_number })).length > 0;
  const { added, canceledBookingIds } = await blockContacts(trx, deps, {
    contacts,
    reason: input.reason,
    actor: input.actor,
    futureBookings: input.futureBookings,
  });
  await recordAudit(
    trx,
    input.actor,
    {
      action: 'member.block',
      entityType: 'member',
      entityId: input.memberId,
      reason: input.reason,
      before: { blocked: wasBlocked },
      after: { blocked: true, blocks_added: added, canceled_booking_ids: canceledBookingIds },
    },
    dateFromInstant(deps.clock.now()),
  );
  return { canceledBookingIds };
}
