import { sql, type Kysely } from 'kysely';

// MB WAY and Multibanco (issue 29, items 4 and 5). A checkout session remembers whether it offered Multibanco
// (decided when it was opened, from how far ahead the first slot starts), which method completed it, and the
// Multibanco voucher the payer must pay: entity, reference, expiry and the provider's printable voucher. Its
// bookings stay `pending` while the voucher is unpaid; their hold (`hold_expires_at`) is stretched to the
// voucher's expiry or 48 hours before the first start, whichever comes first.

const statements = [
  `alter table checkout_sessions add column multibanco_allowed boolean not null default false`,
  `alter table checkout_sessions add column payment_method text
    check (payment_method in ('card', 'mb_way', 'multibanco'))`,
  `alter table checkout_sessions add column voucher_entity text`,
  `alter table checkout_sessions add column voucher_reference text`,
  `alter table checkout_sessions add column voucher_expires_at timestamptz`,
  `alter table checkout_sessions add column voucher_url text`,
  `alter table checkout_sessions add constraint checkout_sessions_voucher_whole check (
    (voucher_entity is null) = (voucher_reference is null)
    and (voucher_entity is null) = (voucher_expires_at is null))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `alter table checkout_sessions drop constraint checkout_sessions_voucher_whole,
        drop column voucher_url, drop column voucher_expires_at, drop column voucher_reference,
        drop column voucher_entity, drop column payment_method, drop column multibanco_allowed`,
    )
    .execute(db);
}
