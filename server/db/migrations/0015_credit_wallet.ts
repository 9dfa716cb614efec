import { sql, type Kysely } from 'kysely';

// Prepaid packs and a credit wallet (issue 31, item 2). The operator defines packs (hours or euros of credit, a
// price, a validity, where and when the credit may be spent); a member buys one through the normal checkout and
// gets a lot of credit in their wallet. At booking, the credit pays the slots it covers (earliest expiry first)
// and the rest goes through checkout; a cancellation gives credit back to its lot under the same tiered policy;
// what is left when a lot expires is written off.
//
// Money and credit are two ledgers that meet at the sale: the pack's price is a payment of the money ledger
// (purpose 'credit_pack', invoiced when sold, no booking shares), and the lot it buys starts with a 'grant'
// movement of the credit ledger naming that payment. Every later change of a lot is one immutable movement:
// spend (a booking took it), return (a cancellation gave it back, by the policy), release (a hold that never got
// paid for ended, by whatever path: the database does it itself, below), expire (written off). A lot's
// `remaining` is the sum of its movements, checked by the database when each transaction commits, and never
// below zero, so two bookings racing for the last hour of a lot cannot both have it.

const statements = [
  `alter table bookings add column credit_cents integer not null default 0 check (credit_cents >= 0)`,
  `create table credit_packs (
    id integer generated always as identity primary key,
    name text not null check (length(name) between 1 and 80),
    -- The branch that sells it: its sale is that branch's revenue, at that branch's VAT rate.
    branch_id integer not null references branches (id),
    -- Whether its credit may be spent at every branch, or only at the branch that sells it.
    all_branches boolean not null default false,
    -- 'minutes': hours of sessions (a slot is covered whole, by its duration); 'cents': euros of credit.
    unit text not null check (unit in ('minutes', 'cents')),
    credit integer not null check (credit > 0 and credit <= 10000000),
    price_cents integer not null check (price_cents > 0 and price_cents <= 10000000),
    validity_days integer not null check (validity_days between 1 and 1095),
    -- ISO weekdays (1 Monday .. 7 Sunday) its credit covers, by the branch's local start; null: every day.
    weekdays smallint[] check (weekdays is null or (cardinality(weekdays) between 1 and 7
      and weekdays <@ array[1, 2, 3, 4, 5, 6, 7]::smallint[])),
    -- The local start times it covers, [from, to) in minutes of the day; both null: any time.
    from_minute smallint check (from_minute between 0 and 1439),
    to_minute smallint check (to_minute between 1 and 1440),
    active boolean not null default true,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    constraint credit_packs_hours check ((from_minute is null) = (to_minute is null) and
      (from_minute is null or from_minute < to_minute))
  )`,
  // What a checkout pays for: bookings (and a move's difference), or a pack.
  `alter table checkout_sessions add column credit_pack_id integer references credit_packs (id)`,
  `create table credit_lots (
    id integer generated always as identity primary key,
    user_id uuid not null references users (id),
    credit_pack_id integer references credit_packs (id),
    -- The pack's name, unit and scope when it was bought: a later change of the pack changes no lot.
    name text not null,
    unit text not null check (unit in ('minutes', 'cents')),
    initial integer not null check (initial > 0),
    remaining integer not null check (remaining >= 0),
    -- The branches it may be spent at; null: every branch.
    branch_ids integer[],
    weekdays smallint[],
    from_minute smallint,
    to_minute smallint,
    -- The payment that bought it; the checkout session, once ever.
    ledger_entry_id integer references ledger_entries (id),
    checkout_session_id text unique references checkout_sessions (id),
    -- A lot covers sessions that start before it expires.
    expires_at timestamptz not null,
    -- When the member was told it expires within 14 days.
    expiry_notice_at timestamptz,
    created_at timestamptz not null
  )`,
  `create index credit_lots_by_user on credit_lots (user_id, expires_at)`,
  `create index credit_lots_to_expire on credit_lots (expires_at) where remaining > 0`,
  `create table credit_movements (
    id integer generated always as identity primary key,
    lot_id integer not null references credit_lots (id),
    kind text not null check (kind in ('grant', 'spend', 'return', 'release', 'expire')),
    -- In the lot's unit (minutes or cents), always positive; the kind says which way it went.
    amount integer not null check (amount > 0),
    -- The part of the booking's price it paid (spend) or gave back (return, release), in cents.
    value_cents integer not null default 0 check (value_cents >= 0),
    booking_id integer references bookings (id),
    actor_type text not null check (actor_type in ('member', 'operator', 'system', 'cli')),
    actor_id text,
    actor_name text,
    reason text,
    occurred_at timestamptz not null,
    recorded_at timestamptz not null default now(),
    constraint credit_movements_booking check ((kind in ('spend', 'return', 'release')) = (booking_id is not null))
  )`,
  `create index credit_movements_by_lot on credit_movements (lot_id)`,
  `create index credit_movements_by_booking on credit_movements (booking_id) where booking_id is not null`,
  // Movements are never changed or removed, like the money ledger's rows.
  `create trigger credit_movements_immutable before update or delete on credit_movements
    for each row execute function ledger_refuse_change()`,
  // When the transaction commits: the lot's remaining credit is the sum of its movements.
  `create function credit_check_lot() returns trigger language plpgsql as $$
    declare
      balance bigint;
      stored integer;
    begin
      select coalesce(sum(case when kind in ('grant', 'return', 'release') then amount else -amount end), 0)
        into balance from credit_movements where lot_id = new.lot_id;
      select remaining into stored from credit_lots where id = new.lot_id;
      if balance is distinct from stored::bigint then
        raise exception 'credit lot % holds % but its movements add up to %', new.lot_id, stored, balance;
      end if;
      return null;
    end
  $$`,
  `create constraint trigger credit_movements_checked after insert on credit_movements
    deferrable initially deferred for each row execute function credit_check_lot()`,
  // A hold that ends unpaid (pending -> expired, whichever of the many paths ends it: the sweep, a failed or
  // expired checkout, a late voucher, a closure, a rival's booking of a stale hold) gives back the credit it took,
  // in the same statement. The one place that rule lives, so no path can forget it.
  `create function credit_release_hold() returns trigger language plpgsql as $$
    declare
      part record;
    begin
      for part in
        select movement.lot_id,
          sum(case when movement.kind = 'spend' then movement.amount else -movement.amount end) as amount,
          sum(case when movement.kind = 'spend' then movement.value_cents else -movement.value_cents end) as value
        from credit_movements as movement
        where movement.booking_id = new.id
        group by movement.lot_id
        having sum(case when movement.kind = 'spend' then movement.amount else -movement.amount end) > 0
      loop
        update credit_lots set remaining = remaining + part.amount where id = part.lot_id;
        insert into credit_movements (lot_id, kind, amount, value_cents, booking_id, actor_type, occurred_at)
          values (part.lot_id, 'release', part.amount, greatest(part.value, 0), new.id, 'system', now());
      end loop;
      return null;
    end
  $$`,
  `create trigger bookings_release_credit after update of status on bookings
    for each row when (old.status = 'pending' and new.status = 'expired' and new.credit_cents > 0)
    execute function credit_release_hold()`,
  // A pack's sale is a payment without booking shares; the entry check allows that for it alone.
  `alter table ledger_entries drop constraint ledger_entries_purpose`,
  `alter table ledger_entries add constraint ledger_entries_purpose check (
    (kind = 'payment' and purpose in ('booking', 'move_difference', 'credit_pack'))
    or (kind = 'refund' and purpose in ('cancellation', 'move_to_cheaper_slot', 'closure', 'operator',
      'account_deletion', 'late_payment', 'move_late_payment')))`,
  `create or replace function ledger_check_entry() returns trigger language plpgsql as $$
    declare
      shares bigint;
    begin
      select sum(amount_cents) into shares from ledger_entry_bookings where entry_id = new.id;
      if new.purpose = 'credit_pack' then
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
    `drop trigger bookings_release_credit on bookings`,
    `drop function credit_release_hold()`,
    `drop table credit_movements`,
    `drop function credit_check_lot()`,
    `drop table credit_lots`,
    `alter table checkout_sessions drop column credit_pack_id`,
    `drop table credit_packs`,
    `alter table bookings drop column credit_cents`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}
