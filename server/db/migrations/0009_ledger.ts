import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// The money ledger (issue 27): every movement of money is one row, written in the transaction that causes it and
// never changed. A payment (a booking's checkout, or the difference of a move to a dearer slot) or a refund (a
// cancellation by the member, an operator or a closure, a move to a cheaper slot, an account's deletion, a payment
// that came after its hold ended) with its amount, currency, the VAT it includes, the provider and its reference,
// who caused it, and the bookings it concerns: a checkout of several slots gives each booking its share (the
// slot's final price), so every per-booking figure is exact. A refund names the payment it pays back. Reports,
// booking pages, My bookings, receipts and cancellation messages read these rows.
//
// What was paid and refunded before the ledger is copied in: each paid checkout session (its bookings' shares
// are their prices before any move), each paid move difference, each refund the provider did not refuse. Which
// kind of refund a row was is read from its idempotency key and from who cancelled its booking; an account's
// deletion is recognised by the booking being cancelled within a minute of the account's deletion.

const statements = [
  `create table ledger_entries (
    id integer generated always as identity primary key,
    kind text not null check (kind in ('payment', 'refund')),
    purpose text not null,
    amount_cents integer not null check (amount_cents > 0),
    currency text not null check (currency ~ '^[a-z]{3}$'),
    -- The VAT rate the amount includes, and the VAT it contains (the amount less its net, rounded half up).
    vat_rate numeric(5, 4) not null check (vat_rate >= 0 and vat_rate <= 1),
    vat_cents integer not null check (vat_cents >= 0 and vat_cents <= amount_cents),
    provider text not null check (provider in ('local', 'stripe')),
    -- The provider's own reference: the payment intent of a payment, the refund's id of a refund.
    provider_reference text,
    -- The checkout session paid; for a refund, the session of the payment it pays back.
    checkout_session_id text not null references checkout_sessions (id),
    -- A refund's claim (its idempotency key and the provider's status) and the payment it pays back.
    refund_id integer unique references refunds (id),
    refunded_entry_id integer references ledger_entries (id),
    branch_id integer not null references branches (id),
    -- The member whose money it is (kept after the account is anonymised).
    user_id uuid references users (id),
    -- Who caused it: the member (user id), an operator (id and e-mail), the system (a closure, a job), the CLI.
    actor_type text not null check (actor_type in ('member', 'operator', 'system', 'cli')),
    actor_id text,
    actor_name text,
    -- What an operator typed when they caused it.
    reason text,
    occurred_at timestamptz not null,
    recorded_at timestamptz not null default now(),
    constraint ledger_entries_purpose check (
      (kind = 'payment' and purpose in ('booking', 'move_difference'))
      or (kind = 'refund' and purpose in ('cancellation', 'move_to_cheaper_slot', 'closure', 'operator',
        'account_deletion', 'late_payment', 'move_late_payment'))),
    constraint ledger_entries_refund_pays_back check ((kind = 'refund') = (refunded_entry_id is not null)),
    constraint ledger_entries_refund_claimed check ((kind = 'refund') = (refund_id is not null))
  )`,
  // A checkout session is paid once: one payment row for it, ever.
  `create unique index ledger_entries_one_payment_per_session on ledger_entries (checkout_session_id)
    where kind = 'payment'`,
  `create index ledger_entries_by_time on ledger_entries (occurred_at)`,
  `create index ledger_entries_by_user on ledger_entries (user_id)`,
  `create index ledger_entries_by_refunded_entry on ledger_entries (refunded_entry_id)`,
  `create table ledger_entry_bookings (
    entry_id integer not null references ledger_entries (id),
    booking_id integer not null references bookings (id),
    amount_cents integer not null check (amount_cents >= 0),
    primary key (entry_id, booking_id)
  )`,
  `create index ledger_entry_bookings_by_booking on ledger_entry_bookings (booking_id)`,
];

/** The VAT a price includes, as server/booking/receipt.ts includedVatCents computes it, in SQL. */
function includedVat(amount: string, vatRate: number): string {
  const rate = Math.round(vatRate * 10_000);
  return `(${amount} - ((${amount}::bigint * 20000 + ${10_000 + rate}) / ${(10_000 + rate) * 2})::int)`;
}

function backfill(vatRate: number): string[] {
  const rate = vatRate.toFixed(4);
  return [
    // Each paid checkout session of bookings: one payment, its bookings' shares their prices before any move.
    `insert into ledger_entries (kind, purpose, amount_cents, currency, vat_rate, vat_cents, provider,
        provider_reference, checkout_session_id, branch_id, user_id, actor_type, actor_id, occurred_at)
      select 'payment', 'booking', session.amount_cents, session.currency, ${rate},
        ${includedVat('session.amount_cents', vatRate)}, session.provider, session.payment_intent_id, session.id,
        min(booking.branch_id), session.user_id, 'member', session.user_id::text,
        coalesce(session.completed_at, session.created_at)
      from checkout_sessions as session join bookings as booking on booking.checkout_session_id = session.id
      where session.payment_status = 'paid' and session.amount_cents > 0
      group by session.id
      order by coalesce(session.completed_at, session.created_at), session.id`,
    `insert into ledger_entry_bookings (entry_id, booking_id, amount_cents)
      select entry_id, booking_id,
        price + case when last_of_session then amount - sum(price) over (partition by entry_id) else 0 end
      from (
        select entry.id as entry_id, entry.amount_cents as amount, booking.id as booking_id,
          coalesce((select move.from_price_cents from booking_moves as move where move.booking_id = booking.id
            order by move.seq limit 1), booking.final_price_cents) as price,
          row_number() over (partition by entry.id order by booking.id desc) = 1 as last_of_session
        from ledger_entries as entry join bookings as booking on booking.checkout_session_id = entry.checkout_session_id
        where entry.kind = 'payment'
      ) as shares`,
    // Each paid move difference: a payment for the moved booking.
    `insert into ledger_entries (kind, purpose, amount_cents, currency, vat_rate, vat_cents, provider,
        provider_reference, checkout_session_id, branch_id, user_id, actor_type, actor_id, occurred_at)
      select 'payment', 'move_difference', session.amount_cents, session.currency, ${rate},
        ${includedVat('session.amount_cents', vatRate)}, session.provider, session.payment_intent_id, session.id,
        booking.branch_id, booking.user_id, 'member', booking.user_id::text,
        coalesce(session.completed_at, session.created_at)
      from booking_moves as move
      join checkout_sessions as session on session.id = move.checkout_session_id
      join bookings as booking on booking.id = move.booking_id
      where session.payment_status = 'paid' and session.amount_cents > 0
      order by coalesce(session.completed_at, session.created_at), move.seq`,
    `insert into ledger_entry_bookings (entry_id, booking_id, amount_cents)
      select entry.id, move.booking_id, entry.amount_cents
      from ledger_entries as entry join booking_moves as move on move.checkout_session_id = entry.checkout_session_id
      where entry.purpose = 'move_difference'`,
    // Each refund the provider did not refuse, paying back its payment.
    `insert into ledger_entries (kind, purpose, amount_cents, currency, vat_rate, vat_cents, provider,
        provider_reference, checkout_session_id, refund_id, refunded_entry_id, branch_id, user_id, actor_type,
        actor_id, actor_name, reason, occurred_at)
      select 'refund',
        case
          when refund.idempotency_key like 'move-refund-%' then 'move_to_cheaper_slot'
          when refund.idempotency_key like 'move-late-payment-refund-%' then 'move_late_payment'
          when refund.idempotency_key like 'late-payment-refund-%' then 'late_payment'
          when booking.canceled_by like 'closure:%' then 'closure'
          when booking.canceled_by is not null then 'operator'
          when member.deleted_at is not null
            and booking.canceled_at between member.deleted_at - interval '1 minute'
              and member.deleted_at + interval '1 minute' then 'account_deletion'
          else 'cancellation'
        end,
        refund.amount_cents, payment.currency, ${rate}, ${includedVat('refund.amount_cents', vatRate)},
        refund.provider, refund.provider_refund_id, payment.checkout_session_id, refund.id, payment.id,
        booking.branch_id, booking.user_id,
        case
          when refund.idempotency_key like '%late-payment-refund-%' or booking.canceled_by like 'closure:%'
            then 'system'
          when booking.canceled_by like 'cli%' then 'cli'
          when booking.canceled_by is not null then 'operator'
          else 'member'
        end,
        case
          when refund.idempotency_key like '%late-payment-refund-%' then null
          when booking.canceled_by like 'closure:%' then booking.canceled_by
          when booking.canceled_by like 'operator:%' then substring(booking.canceled_by from 10)
          when booking.canceled_by is not null then
            (select operator.id::text from operators as operator where operator.email = booking.canceled_by
              order by operator.id desc limit 1)
          else booking.user_id::text
        end,
        case
          when refund.idempotency_key like '%late-payment-refund-%' then null
          when booking.canceled_by like 'closure:%' then
            (select closure.created_by_email from branch_closures as closure
              where 'closure:' || closure.id = booking.canceled_by)
          else booking.canceled_by
        end,
        refund.reason, refund.created_at
      from refunds as refund
      join bookings as booking on booking.id = refund.booking_id
      left join users as member on member.id = booking.user_id
      join ledger_entries as payment on payment.kind = 'payment'
        and payment.checkout_session_id = coalesce(refund.checkout_session_id, booking.checkout_session_id)
      where refund.status <> 'failed'
      order by refund.id`,
    `insert into ledger_entry_bookings (entry_id, booking_id, amount_cents)
      select entry.id, refund.booking_id, entry.amount_cents
      from ledger_entries as entry join refunds as refund on refund.id = entry.refund_id`,
  ];
}

// Rows are never changed or removed: any UPDATE or DELETE is refused by the database itself (TRUNCATE, which
// only a test's clean slate uses, fires no row trigger).
const immutability = [
  `create function ledger_refuse_change() returns trigger language plpgsql as $$
    begin
      raise exception 'the money ledger is immutable: % on % refused', tg_op, tg_table_name;
    end
  $$`,
  `create trigger ledger_entries_immutable before update or delete on ledger_entries
    for each row execute function ledger_refuse_change()`,
  `create trigger ledger_entry_bookings_immutable before update or delete on ledger_entry_bookings
    for each row execute function ledger_refuse_change()`,
  // Checked when the transaction commits, once an entry and its shares are all written: the shares add up to the
  // entry, a refund pays back a payment, and no booking gets back more of a payment than its share of it.
  `create function ledger_check_entry() returns trigger language plpgsql as $$
    declare
      shares bigint;
    begin
      select sum(amount_cents) into shares from ledger_entry_bookings where entry_id = new.id;
      if shares is distinct from new.amount_cents then
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
  `create constraint trigger ledger_entries_checked after insert on ledger_entries
    deferrable initially deferred for each row execute function ledger_check_entry()`,
];

/** The migration; rows copied from before the ledger include VAT at `vatRate` (the server's VAT_RATE). */
export function ledgerMigration(options: { vatRate: number }): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const statement of [...statements, ...backfill(options.vatRate)]) {
        await sql.raw(statement).execute(db);
      }
      // Every refund that moved money must have found the payment it pays back.
      const { rows } = await sql<{ missing: number }>`
        select count(*)::int as missing from refunds as refund
        where refund.status <> 'failed'
          and not exists (select 1 from ledger_entries as entry where entry.refund_id = refund.id)`.execute(
        db,
      );
      if ((rows[0]?.missing ?? 0) > 0) {
        throw new Error(`${rows[0]!.missing} refunds pay back no payment known to the ledger`);
      }
      for (const statement of immutability) await sql.raw(statement).execute(db);
    },

    async down(db: Kysely<unknown>): Promise<void> {
      await sql.raw(`drop table ledger_entry_bookings`).execute(db);
      await sql.raw(`drop table ledger_entries`).execute(db);
      await sql.raw(`drop function ledger_refuse_change(); drop function ledger_check_entry()`).execute(db);
    },
  };
}
