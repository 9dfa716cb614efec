import { sql, type Kysely } from 'kysely';

// Moving a booking to another slot of its branch. The booking keeps its id (so its calendar event keeps its
// UID) and changes its slot in place; each move is recorded with its figures. A move to a dearer slot holds
// the new slot with a pending booking of its own (the same constraints as any hold decide who gets the slot)
// until the checkout for the difference is paid or expires. A refund records which payment it pays back, so
// a booking paid in several parts (its booking, then a move's difference) is refunded from the right ones.

const statements = [
  `create table booking_moves (
    id integer generated always as identity primary key,
    booking_id integer not null references bookings (id),
    -- 1 for the booking's first move, 2 for its second...: part of the refund's idempotency key.
    seq integer not null check (seq > 0),
    from_slot_id integer not null references slots (id),
    to_slot_id integer not null references slots (id),
    from_price_cents integer not null check (from_price_cents >= 0),
    to_base_price_cents integer not null check (to_base_price_cents >= 0),
    to_price_cents integer not null check (to_price_cents >= 0 and to_price_cents <= to_base_price_cents),
    difference_cents integer not null check (difference_cents = to_price_cents - from_price_cents),
    state text not null check (state in ('awaiting_payment', 'completed', 'expired', 'refunded')),
    -- The pending booking that holds the new slot while the difference is paid.
    hold_booking_id integer references bookings (id),
    checkout_session_id text references checkout_sessions (id),
    created_at timestamptz not null default now(),
    settled_at timestamptz,
    constraint booking_moves_seq_unique unique (booking_id, seq),
    constraint booking_moves_other_slot check (from_slot_id <> to_slot_id),
    constraint booking_moves_paid_has_session check (difference_cents <= 0 or checkout_session_id is not null)
  )`,
  // One move awaiting payment per booking at a time.
  `create unique index booking_moves_one_awaiting on booking_moves (booking_id) where state = 'awaiting_payment'`,
  `create unique index booking_moves_by_session on booking_moves (checkout_session_id)`,
  `create index booking_moves_by_hold on booking_moves (hold_booking_id)`,
  // Null: the booking's own checkout session.
  `alter table refunds add column checkout_session_id text references checkout_sessions (id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`alter table refunds drop column checkout_session_id`).execute(db);
  await sql.raw(`drop table booking_moves`).execute(db);
}
