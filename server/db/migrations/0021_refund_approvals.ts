import { sql, type Kysely } from 'kysely';

// Refunds above the staff ceiling (issue 32, item 2). A staff member's cancellation whose refund is above the
// ceiling owners set is not made: it is asked for here, and waits for an owner. One pending request per booking
// (a partial unique index, so two staff members asking at once make one request). An owner approves it (the one
// cancel use case then runs, under this row's lock) or refuses it with a reason the requester reads; a request
// whose booking was cancelled or ended before a decision is closed.

const statements = [
  `create table refund_approvals (
    id integer generated always as identity primary key,
    booking_id integer not null references bookings (id),
    -- The refund as the requester chose it (policy, full or an amount) and what it came to when asked.
    refund_mode text not null check (refund_mode in ('policy', 'full', 'amount')),
    amount_cents integer check (amount_cents >= 0),
    refund_cents integer not null check (refund_cents > 0),
    reason text not null check (length(reason) between 1 and 500),
    requested_at timestamptz not null,
    requested_by integer references operators (id),
    requested_by_email text not null,
    status text not null default 'pending' check (status in ('pending', 'approved', 'refused', 'closed')),
    decided_at timestamptz,
    decided_by integer references operators (id),
    decided_by_email text,
    decision_reason text check (length(decision_reason) between 1 and 500),
    -- What the approved cancellation refunded (the ledger has the movement itself).
    refunded_cents integer check (refunded_cents >= 0),
    constraint refund_approvals_amount check ((refund_mode = 'amount') = (amount_cents is not null)),
    constraint refund_approvals_decided check ((status = 'pending') = (decided_at is null)),
    constraint refund_approvals_refusal check ((status = 'refused') = (decision_reason is not null))
  )`,
  `create unique index refund_approvals_one_pending on refund_approvals (booking_id) where status = 'pending'`,
  `create index refund_approvals_by_booking on refund_approvals (booking_id, requested_at desc, id desc)`,
  `create index refund_approvals_by_requested on refund_approvals (requested_at desc, id desc)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`drop table refund_approvals`).execute(db);
}
