import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Message } from '../kernel/i18n.ts';
import type { DocumentRecorder } from './ledger.ts';

// The links to the tax documents (PDF) of the money a message is about (docs/decisions.md, "Documents and the
// accountant's export"): the ledger rows written for these bookings in the message's own transaction (their
// `recorded_at` defaults to the transaction's `now()`), each row's document link from the invoicing module. The document is issued by a job after the
// transaction: its link answers once it is.

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
  const { rows } = await sql<{ id: number }>`
    select distinct entry.id from ledger_entries as entry
      join ledger_entry_bookings as share on share.entry_id = entry.id
    where share.booking_id = any(${[...bookingIds]}::int[]) and entry.occurred_at = ${at}
      and entry.recorded_at = now()
    order by entry.id`.execute(trx);
  const links: string[] = [];
  for (const row of rows) {
    const link = await documents.linkOf(trx, row.id);
    if (link) links.push(link);
  }
  return links;
}
