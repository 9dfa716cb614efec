import { recordAudit, type Actor } from '../../kernel/audit.ts';
import { dateFromInstant, type Clock } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../kernel/errors.ts';
import { blockedContactSubject, normaliseContact, type ContactKind } from '../blocked-contacts.ts';
import * as repository from '../repository.ts';

// Lifting a contact's block, for the console (DELETE /admin/blocked-contacts/{id}, by the block's id) and the CLI
// (`block remove`, by the contact as typed) alike, with its audit row in the caller's transaction.

export type UnblockContactInput = {
  actor: Actor;
  blocked: { id: number } | { kind: ContactKind; value: string };
};

export async function unblockContact(
  trx: Db,
  deps: { clock: Clock },
  input: UnblockContactInput,
): Promise<repository.BlockedContact> {
  const which =
    'id' in input.blocked ? input.blocked : normaliseContact(input.blocked.kind, input.blocked.value);
  const row = await repository.findBlockedContact(trx, which);
  if (!row || !(await repository.deleteBlockedContact(trx, row)))
    throw new AppError('blocked_contact_not_found');
  const contact = { kind: row.kind, value: row.value };
  await recordAudit(
    trx,
    input.actor,
    {
      action: 'contact.unblock',
      ...blockedContactSubject(contact),
      before: { ...contact, reason: row.reason },
    },
    dateFromInstant(deps.clock.now()),
  );
  return contact;
}
