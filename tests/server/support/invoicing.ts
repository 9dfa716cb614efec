import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../../../server/db/database.ts';
import type { TaxDocumentRow } from '../../../server/invoicing/repository.ts';
import { createBookingOverHttp, type AccountApp, type Client, type Schemas } from './accounts.ts';
import { insertSlot } from './fixtures.ts';

// What the invoicing suites share: slots, a paid checkout and a paid move over the HTTP API, the documents and
// the e-mails that carry them.

export const cents = (euros: number) => Math.round(euros * 100);

/** A one-hour slot at a UTC start (Lisbon is on UTC until 29 March) with its price. */
export function slotAt(db: Db, branchId: number, start: string, priceEur: number) {
  return insertSlot(db, {
    branchId,
    start,
    end: new Date(Date.parse(start) + 3_600_000).toISOString(),
    localDate: start.slice(0, 10),
    priceCents: cents(priceEur),
  });
}

export async function payLocally(client: Client, clientSecret: string): Promise<string> {
  const sessionId = clientSecret.split('_secret_')[0]!;
  const paid = await client.json('POST', `/api/checkout/local/${sessionId}/complete`, {
    card_number: '4242 4242 4242 4242',
  });
  expect(paid.statusCode).toBe(200);
  return sessionId;
}

/** Books the slots in one checkout and pays it; answers the bookings' ids in slot order. */
export async function bookAndPay(
  server: AccountApp,
  client: Client,
  token: string,
  slotIds: number[],
  totalEur: number,
  couponCode: string | null = null,
): Promise<number[]> {
  const { clientSecret } = await createBookingOverHttp(client, token, slotIds, totalEur, couponCode);
  await payLocally(client, clientSecret);
  const ids: number[] = [];
  for (const slotId of slotIds) {
    const row = await server.app.db
      .selectFrom('bookings')
      .select('id')
      .where('slot_id', '=', slotId)
      .where('status', '=', 'confirmed')
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  return ids;
}

/** Moves a booking to a dearer slot and pays the difference. */
export async function moveAndPay(
  client: Client,
  token: string,
  bookingId: number,
  slotId: number,
  differenceEur: number,
): Promise<void> {
  const moved = await client.json(
    'POST',
    `/api/bookings/${bookingId}/move`,
    { time_slot_id: slotId, expected_price_difference_eur: differenceEur },
    token,
  );
  expect(moved.statusCode, moved.body).toBe(200);
  const body = moved.json<Schemas['MoveBookingResponse']>();
  expect(body.status).toBe('awaiting_payment');
  await payLocally(client, body.checkout_session!.clientSecret);
}

export async function documents(db: Db): Promise<TaxDocumentRow[]> {
  return db.selectFrom('tax_documents').selectAll().orderBy('id').execute();
}

export async function ledgerRows(db: Db) {
  return (
    await sql<{
      id: number;
      kind: string;
      purpose: string;
      amount_cents: number;
      refunded_entry_id: number | null;
    }>`select id, kind, purpose, amount_cents, refunded_entry_id from ledger_entries order by id`.execute(db)
  ).rows;
}

/** The e-mails that carry a document's PDF, to an address. */
export async function documentEmails(db: Db, recipient: string) {
  return db
    .selectFrom('outbox')
    .select(['subject', 'text_body', 'attachments', 'dedupe_key'])
    .where('recipient', '=', recipient.toLowerCase())
    .where('kind', '=', 'tax_document')
    .orderBy('id')
    .execute();
}

export function isPdf(bytes: Uint8Array | Buffer | null): boolean {
  return bytes !== null && Buffer.from(bytes).subarray(0, 5).toString('latin1') === '%PDF-';
}
