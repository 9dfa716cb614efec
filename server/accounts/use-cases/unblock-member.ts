import { recordAudit, type Actor } from '../../kernel/audit.ts';
import { dateFromInstant, type Clock } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../kernel/errors.ts';
import * as repository from '../repository.ts';

// Lifting every block of a member's e-mail address and phone number (the console's POST
// /admin/members/{id}/unblock), a deleted member's too, with the audit row in the caller's transaction.

export type UnblockMemberInput = { actor: Actor; memberId: string; reason: string };

export async function unblockMember(
  trx: Db,
  deps: { clock: Clock },
  input: UnblockMemberInput,
): Promise<void> {
  const member = await repository.findUserById(trx, input.memberId);
  if (!member) throw new AppError('member_not_found');
  const blocks = await repository.blocksOf(trx, { email: member.email, phone: member.phone_number });
  for (const block of blocks) await repository.deleteBlockedContact(trx, block);
  await recordAudit(
    trx,
    input.actor,
    {
      action: 'member.unblock',
      entityType: 'member',
      entityId: input.memberId,
      reason: input.reason,
      before: { blocks: blocks.map((block) => `${block.kind}:${block.value}`) },
      after: { blocked: false },
    },
    dateFromInstant(deps.clock.now()),
  );
}
