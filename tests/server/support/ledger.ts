import { sql } from 'kysely';
import type { Db } from '../../../server/db/database.ts';

// The money ledger's invariants (issue 27), as SQL any test can check after its work: each lists what breaks it,
// so a test expects every list to be empty.

export async function ledgerInvariantViolations(db: Db) {
  // Each entry's shares add up to it.
  const unbalanced = await sql<{ id: number }>`
    select entry.id from ledger_entries as entry
    left join ledger_entry_bookings as share on share.entry_id = entry.id
    group by entry.id having coalesce(sum(share.amount_cents), -1) <> min(entry.amount_cents)`.execute(db);
  // What is refunded of a payment for a booking never exceeds that booking's share of it.
  const overRefunded = await sql<{ id: number; booking_id: number }>`
    select payment.id, paid.booking_id from ledger_entries as payment
    join ledger_entry_bookings as paid on paid.entry_id = payment.id
    join ledger_entries as refund on refund.refunded_entry_id = payment.id
    join ledger_entry_bookings as back on back.entry_id = refund.id and back.booking_id = paid.booking_id
    group by payment.id, paid.booking_id having sum(back.amount_cents) > min(paid.amount_cents)`.execute(db);
  // Every booking paid through a checkout, and every paid move difference, has its payment.
  const unpaid = await sql<{ id: number }>`
    select booking.id from bookings as booking
    where booking.paid_at is not null and booking.checkout_session_id is not null
      and not exists (select 1 from ledger_entries as entry
        join ledger_entry_bookings as share on share.entry_id = entry.id
        where entry.kind = 'payment' and share.booking_id = booking.id
          and entry.checkout_session_id = booking.checkout_session_id)
    union all
    select move.booking_id from booking_moves as move
    join checkout_sessions as session on session.id = move.checkout_session_id
    where session.payment_status = 'paid'
      and not exists (select 1 from ledger_entries as entry
        where entry.kind = 'payment' and entry.checkout_session_id = session.id)`.execute(db);
  // Every refund the provider did not refuse is in the ledger, and nothing else is.
  const unrecorded = await sql<{ id: number }>`
    select refund.id from refunds as refund
    where (refund.status <> 'failed') <> exists (select 1 from ledger_entries as entry where entry.refund_id = refund.id)`.execute(
    db,
  );
  return {
    unbalanced: unbalanced.rows,
    overRefunded: overRefunded.rows,
    unpaid: unpaid.rows,
    unrecorded: unrecorded.rows,
  };
}

export const NO_VIOLATIONS = { unbalanced: [], overRefunded: [], unpaid: [], unrecorded: [] };
