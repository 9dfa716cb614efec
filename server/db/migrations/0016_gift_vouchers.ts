import { sql, type Kysely } from 'kysely';

// Gift vouchers (issue 31, item 3). A member buys a voucher of an amount for someone (their name, e-mail and a
// message) through the normal checkout; once paid, the voucher gets its code, the recipient gets it by e-mail, and
// whoever holds the code redeems it into their wallet as a lot of euros (all branches) expiring when the voucher
// does. The sale is a payment of the money ledger (purpose 'gift_voucher', no booking shares, invoiced like a
// pack's); redeeming moves no money, only credit (the lot's grant).

const statements = [
  `create table gift_vouchers (
    id integer generated always as identity primary key,
    -- Given once paid; what the recipient types (unique, case-insensitive: stored upper-case).
    code text unique,
    buyer_id uuid references users (id),
    amount_cents integer not null check (amount_cents between 500 and 50000),
    recipient_name text not null check (length(recipient_name) between 1 and 80),
    recipient_email text not null check (length(recipient_email) between 3 and 254),
    message text check (message is null or length(message) <= 500),
    -- The buyer's language: the recipient's e-mail is written in it.
    locale text not null,
    -- The branch whose revenue the sale is (the first bookable branch when it was bought).
    branch_id integer not null references branches (id),
    checkout_session_id text unique references checkout_sessions (id),
    ledger_entry_id integer unique references ledger_entries (id),
    issued_at timestamptz,
    expires_at timestamptz,
    redeemed_at timestamptz,
    redeemed_by uuid references users (id),
    lot_id integer unique references credit_lots (id),
    created_at timestamptz not null,
    constraint gift_vouchers_issued check ((issued_at is null) = (code is null) and (issued_at is null) = (expires_at is null)),
    constraint gift_vouchers_redeemed check ((redeemed_at is null) = (lot_id is null) and (redeemed_at is null) = (redeemed_by is null)
      and (redeemed_at is null or issued_at is not null))
  )`,
  `create index gift_vouchers_by_buyer on gift_vouchers (buyer_id)`,
  `alter table checkout_sessions add column gift_voucher_id integer references gift_vouchers (id)`,
  `alter table credit_lots add column gift_voucher_id integer unique references gift_vouchers (id)`,
  `alter table ledger_entries drop constraint ledger_entries_purpose`,
  `alter table ledger_entries add constraint ledger_entries_purpose check (
    (kind = 'payment' and purpose in ('booking', 'move_difference', 'credit_pack', 'gift_voucher'))
    or (kind = 'refund' and purpose in ('cancellation', 'move_to_cheaper_slot', 'closure', 'operator',
      'account_deletion', 'late_payment', 'move_late_payment')))`,
  `create or replace function ledger_check_entry() returns trigger language plpgsql as $$
    declare
      shares bigint;
    begin
      select sum(amount_cents) into shares from ledger_entry_bookings where entry_id = new.id;
      if new.purpose in ('credit_pack', 'gift_voucher') then
        if shares is not null then
          raise exception 'ledger entry % sells credit and has booking shares', new.id;
        end if;
      elsif shares is distinct from new.amount_cents then
        raise exception 'ledger entry % of % cents has shares of % cents', new.id, new.amount_cents, shares;
      end if;
      if new.kind = 'refund' then
        if (select kind from ledger_entries where id = new.refunded_entry_id) <> 'payment' then
          raise exception 'ledger refund % pays back entry %, which is no payment', new.id, new.refunded_entry_id;
        end if;
        if exists (
          select 1 from ledger_entry_bookings as back
          left join ledger_entry_bookings as paid
            on paid.entry_id = new.refunded_entry_id and paid.booking_id = back.booking_id
          where back.entry_id = new.id
            and coalesce(paid.amount_cents, 0) < (
              select sum(other.amount_cents) from ledger_entry_bookings as other
              join ledger_entries as refund on refund.id = other.entry_id
              where refund.refunded_entry_id = new.refunded_entry_id and other.booking_id = back.booking_id)
        ) then
          raise exception 'ledger refund % pays back more than payment % took for its booking',
            new.id, new.refunded_entry_id;
        end if;
      end if;
      return null;
    end
  $$`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    `alter table credit_lots drop column gift_voucher_id`,
    `alter table checkout_sessions drop column gift_voucher_id`,
    `drop table gift_vouchers`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}
