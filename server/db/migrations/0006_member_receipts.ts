import { sql, type Kysely } from 'kysely';

// What members are sent about their bookings (issue 17): each booking's calendar event is revised, never
// replaced, so a cancellation or a move reaches the event the confirmation created (same UID) with a higher
// SEQUENCE, which calendars need to apply it; a refund says which card it goes to; and a member may give a
// tax number for the receipt.

export async function up(db: Kysely<unknown>): Promise<void> {
  // The SEQUENCE of the booking's calendar event as last sent: 0 in the confirmation, raised by each update.
  await sql.raw(`alter table bookings add column calendar_sequence integer not null default 0`).execute(db);
  // The member's tax number (Portuguese NIF, nine digits with its check digit), printed on the receipt.
  await sql.raw(`alter table users add column tax_id text`).execute(db);
  // The card a payment came from ('visa', '4242'), so a refund can say where it goes; null when unknown.
  await sql
    .raw(`alter table checkout_sessions add column card_brand text, add column card_last4 text`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`alter table bookings drop column calendar_sequence`).execute(db);
  await sql.raw(`alter table users drop column tax_id`).execute(db);
  await sql.raw(`alter table checkout_sessions drop column card_brand, drop column card_last4`).execute(db);
}
