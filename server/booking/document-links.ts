import type { Db } from '../db/database.ts';
import type { Message } from '../kernel/i18n.ts';
import type { DocumentRecorder } from './ledger.ts';
import { entriesRecordedNow } from './ledger-repository.ts';

// The links to the tax documents (PDF) of the money a message is about (docs/decisions.md, "Documents and the
// accountant's export"): the ledger rows written for these bookings in the message's own transaction, each row's
// document link from the invoicing module. The document is issued by a job after the transaction: its link
// answers once it is.

export const DOCUMENT_LINK: Message = /*i18n*/ {
  id: 'email.documentLink',
  message: 'Documento fiscal em PDF (disponível assim que for emitido): {url}',
};

export async function documentLinksOf(
  trx: Db,
  documents: DocumentRecorder | null | undefined,
  bookingIds: readonly number[],
  at: Date,
): Promise<string[]> {
  if (!documents || bookingIds.length === 0) return [];
  const links: string[] = [];
  for (const entryId of await entriesRecordedNow(trx, bookingIds, at)) {
    const link = await documents.linkOf(trx, entryId);
    if (link) links.push(link);
  }
  return links;
}
