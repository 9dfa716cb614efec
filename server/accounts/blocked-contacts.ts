import type { Db } from '../db/database.ts';
import { AppError } from '../kernel/errors.ts';
import { normaliseEmail, sanitisePhoneNumber } from './fields.ts';
import * as repository from './repository.ts';

// Blocked e-mail addresses and phone numbers can neither register nor book. They are kept in the form
// registration stores contacts in, so a block matches however the client types them.

export type ContactKind = repository.BlockedContact['kind'];

const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The contact as registration stores it; `validation_failed` when it is none. */
export function normaliseContact(kind: ContactKind, raw: string): repository.BlockedContact {
  if (kind === 'phone') {
    try {
      return { kind, value: sanitisePhoneNumber(raw) };
    } catch {
      throw new AppError('validation_failed', {
        problems: `'${raw}' is not a phone number in +<country><number> form`,
      });
    }
  }
  const value = normaliseEmail(raw);
  if (!EMAIL_ADDRESS.test(value)) {
    throw new AppError('validation_failed', { problems: `'${raw}' is not an e-mail address` });
  }
  return { kind, value };
}

/** What the audit log names a change to a contact's block by: the same from the console and the CLI. */
export function blockAuditSubject(
  action: 'contact.block' | 'contact.unblock',
  contact: repository.BlockedContact,
) {
  return { action, entityType: 'blocked_contact', entityId: `${contact.kind}:${contact.value}` };
}

export function createBlockedContactService({ db }: { db: Db }) {
  return {
    /** Answers false when it was blocked already. */
    async block(contact: repository.BlockedContact, reason: string | null): Promise<boolean> {
      return repository.insertBlockedContact(db, { ...contact, reason });
    },

    /** Answers false when it was not blocked. */
    async unblock(contact: repository.BlockedContact): Promise<boolean> {
      return repository.deleteBlockedContact(db, contact);
    },

    async list() {
      return repository.listBlockedContacts(db);
    },
  };
}
