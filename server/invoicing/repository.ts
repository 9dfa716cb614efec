import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { TaxDocumentsTable } from '../db/schema.ts';

// SQL for the tax documents (migration 0010_invoicing). `db` is the caller's transaction when it writes.

export type TaxDocumentRow = Selectable<TaxDocumentsTable>;

/** A ledger row and what its document states: the member, the payment it pays back. */
export async function findLedgerEntry(db: Db, entryId: number) {
  return db
    .selectFrom('ledger_entries as entry')
    .leftJoin('users as user', 'user.id', 'entry.user_id')
    .select([
      'entry.id',
      'entry.kind',
      'entry.purpose',
      'entry.amount_cents',
      'entry.currency',
      'entry.vat_rate',
      'entry.vat_cents',
      'entry.user_id',
      'entry.checkout_session_id',
      'entry.refunded_entry_id',
      'user.first_name',
      'user.last_name',
      'user.tax_id',
      'user.locale',
    ])
    .where('entry.id', '=', entryId)
    .executeTakeFirst();
}

/** Each booking's share of a ledger row, with its slot, branch and coupon, by start. */
export async function findEntryBookings(db: Db, entryId: number) {
  return db
    .selectFrom('ledger_entry_bookings as share')
    .innerJoin('bookings as booking', 'booking.id', 'share.booking_id')
    .innerJoin('branches as branch', 'branch.id', 'booking.branch_id')
    .leftJoin('coupons as coupon', 'coupon.id', 'booking.coupon_id')
    .select([
      'share.booking_id',
      'share.amount_cents',
      'booking.start_time',
      'booking.end_time',
      'booking.base_price_cents',
      'booking.final_price_cents',
      'branch.name as branch_name',
      'branch.time_zone',
      'coupon.code as coupon_code',
    ])
    .where('share.entry_id', '=', entryId)
    .orderBy('booking.start_time')
    .orderBy('booking.id')
    .execute();
}

/** The slot a move's checkout paid the difference for. */
export async function findMoveTarget(db: Db, sessionId: string) {
  return db
    .selectFrom('booking_moves as move')
    .innerJoin('slots as slot', 'slot.id', 'move.to_slot_id')
    .select(['slot.start_time', 'slot.end_time', 'move.from_price_cents', 'move.to_price_cents'])
    .where('move.checkout_session_id', '=', sessionId)
    .executeTakeFirst();
}

export async function findDocumentOfEntry(db: Db, entryId: number): Promise<TaxDocumentRow | undefined> {
  return db.selectFrom('tax_documents').selectAll().where('ledger_entry_id', '=', entryId).executeTakeFirst();
}

export async function findDocument(db: Db, id: number): Promise<TaxDocumentRow | undefined> {
  return db.selectFrom('tax_documents').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The document, its row locked until the caller's transaction ends. */
export async function lockDocument(trx: Db, id: number): Promise<TaxDocumentRow | undefined> {
  return trx.selectFrom('tax_documents').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Records a pending document; a ledger row that has one already keeps it (answers undefined). */
export async function insertDocument(
  trx: Db,
  document: Insertable<TaxDocumentsTable>,
): Promise<number | undefined> {
  const row = await trx
    .insertInto('tax_documents')
    .values(document)
    .onConflict((conflict) => conflict.column('ledger_entry_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** Counts an attempt; answers how many came before it. */
export async function countAttempt(db: Db, id: number, at: Date): Promise<number> {
  const row = await db
    .updateTable('tax_documents')
    .set({ attempts: sql`attempts + 1`, updated_at: at })
    .where('id', '=', id)
    .returning('attempts')
    .executeTakeFirstOrThrow();
  return Number(row.attempts) - 1;
}

export async function saveProviderDocumentId(db: Db, id: number, providerDocumentId: string, at: Date) {
  await db
    .updateTable('tax_documents')
    .set({ provider_document_id: providerDocumentId, updated_at: at })
    .where('id', '=', id)
    .execute();
}

export async function noteError(db: Db, id: number, error: string, at: Date) {
  await db
    .updateTable('tax_documents')
    .set({ last_error: error.slice(0, 1000), updated_at: at })
    .where('id', '=', id)
    .execute();
}

/** Marks a pending document issued; answers false when it was not pending any more. */
export async function markIssued(
  trx: Db,
  id: number,
  issued: {
    providerDocumentId: string;
    number: string;
    atcud: string;
    qrPayload: string;
    pdf: Uint8Array;
    permalink: string | null;
  },
  at: Date,
): Promise<boolean> {
  const result = await trx
    .updateTable('tax_documents')
    .set({
      status: 'issued',
      provider_document_id: issued.providerDocumentId,
      number: issued.number,
      atcud: issued.atcud,
      qr_payload: issued.qrPayload,
      pdf: issued.pdf,
      permalink: issued.permalink,
      issued_at: at,
      last_error: null,
      updated_at: at,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function markRefused(trx: Db, id: number, reason: string, at: Date): Promise<boolean> {
  const result = await trx
    .updateTable('tax_documents')
    .set({ status: 'refused', last_error: reason.slice(0, 1000), updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function listPendingDocumentIds(db: Db, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('tax_documents')
    .select('id')
    .where('status', '=', 'pending')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** Where the document's e-mail goes: the member's address and language, while the account has them. */
export async function findRecipient(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .select(['email', 'first_name', 'locale'])
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}
