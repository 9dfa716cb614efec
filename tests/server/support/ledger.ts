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
  // The sums per branch and local day the money report reads (ledger_day_totals, kept by the database) are the
  // ledger's own, day for day.
  const daySums = await sql<{ branch_id: number; local_date: string }>`
    with ledger as (
      select entry.branch_id, (entry.occurred_at at time zone branch.time_zone)::date as local_date,
        coalesce(sum(entry.amount_cents) filter (where entry.kind = 'payment'), 0) as payments_cents,
        count(*) filter (where entry.kind = 'payment') as payments_count,
        coalesce(sum(entry.amount_cents) filter (where entry.kind = 'refund'), 0) as refunds_cents,
        count(*) filter (where entry.kind = 'refund') as refunds_count
      from ledger_entries as entry join branches as branch on branch.id = entry.branch_id
      group by 1, 2)
    select coalesce(ledger.branch_id, total.branch_id) as branch_id,
      to_char(coalesce(ledger.local_date, total.local_date), 'YYYY-MM-DD') as local_date
    from ledger full join ledger_day_totals as total
      on total.branch_id = ledger.branch_id and total.local_date = ledger.local_date
    where (ledger.payments_cents, ledger.payments_count, ledger.refunds_cents, ledger.refunds_count)
      is distinct from (total.payments_cents, total.payments_count::bigint, total.refunds_cents,
        total.refunds_count::bigint)`.execute(db);
  return {
    unbalanced: unbalanced.rows,
    overRefunded: overRefunded.rows,
    unpaid: unpaid.rows,
    unrecorded: unrecorded.rows,
    daySums: daySums.rows,
  };
}

export const NO_VIOLATIONS = { unbalanced: [], overRefunded: [], unpaid: [], unrecorded: [], daySums: [] };

/**
 * More of the ledger's invariants, about what a refund pays back: each list holds what breaks one, so a test
 * expects every list to be empty (`NO_PAYBACK_VIOLATIONS`).
 */
export async function ledgerPaybackViolations(db: Db) {
  // A refund pays back a payment (never another refund), for a booking that payment paid for.
  const misdirected = await sql<{ id: number; booking_id: number }>`
    select refund.id, back.booking_id from ledger_entries as refund
    join ledger_entry_bookings as back on back.entry_id = refund.id
    join ledger_entries as payment on payment.id = refund.refunded_entry_id
    where refund.kind = 'refund'
      and (payment.kind <> 'payment' or not exists (select 1 from ledger_entry_bookings as paid
        where paid.entry_id = payment.id and paid.booking_id = back.booking_id))`.execute(db);
  // What is refunded of a payment, all its bookings together, never exceeds it.
  const overRefundedPayments = await sql<{ id: number }>`
    select payment.id from ledger_entries as payment
    join ledger_entries as refund on refund.refunded_entry_id = payment.id
    group by payment.id having sum(refund.amount_cents) > min(payment.amount_cents)`.execute(db);
  // What is refunded of a booking, all its payments together, never exceeds what was paid for it.
  const overRefundedBookings = await sql<{ booking_id: number }>`
    select share.booking_id from ledger_entry_bookings as share
    join ledger_entries as entry on entry.id = share.entry_id
    group by share.booking_id
    having coalesce(sum(share.amount_cents) filter (where entry.kind = 'refund'), 0)
      > coalesce(sum(share.amount_cents) filter (where entry.kind = 'payment'), 0)`.execute(db);
  return {
    misdirected: misdirected.rows,
    overRefundedPayments: overRefundedPayments.rows,
    overRefundedBookings: overRefundedBookings.rows,
  };
}

export const NO_PAYBACK_VIOLATIONS = { misdirected: [], overRefundedPayments: [], overRefundedBookings: [] };

/** Money in cents per branch-local day and branch, as the money report should show it, summed over the ledger. */
export type LedgerDayRow = {
  period: string;
  branch_id: number;
  payments_cents: number;
  refunds_cents: number;
  payments_count: number;
  refunds_count: number;
};

/**
 * The money report by day worked out straight from `ledger_entries`: one row per branch-local day of
 * `occurred_at` and branch, oldest first, and the totals, for the days from `from` to `to` (inclusive). `rows`
 * are the days money moved on; `everyDay` is what the report lists, every day of the period for every branch
 * (`branchId`'s alone when given), zeros on the days without money, by day and then branch.
 */
export async function ledgerMoneyByDay(db: Db, period: { from: string; to: string; branchId?: number }) {
  const { rows } = await sql<LedgerDayRow>`
    select to_char((entry.occurred_at at time zone branch.time_zone)::date, 'YYYY-MM-DD') as period,
      entry.branch_id,
      coalesce(sum(entry.amount_cents) filter (where entry.kind = 'payment'), 0)::int as payments_cents,
      coalesce(sum(entry.amount_cents) filter (where entry.kind = 'refund'), 0)::int as refunds_cents,
      (count(*) filter (where entry.kind = 'payment'))::int as payments_count,
      (count(*) filter (where entry.kind = 'refund'))::int as refunds_count
    from ledger_entries as entry join branches as branch on branch.id = entry.branch_id
    where (entry.occurred_at at time zone branch.time_zone)::date between ${period.from}::date and ${period.to}::date
      ${period.branchId === undefined ? sql`` : sql`and entry.branch_id = ${period.branchId}::int`}
    group by 1, 2 order by 1, 2`.execute(db);
  const branches = await db.selectFrom('branches').select('id').orderBy('id').execute();
  const branchIds = branches
    .map((branch) => branch.id)
    .filter((id) => period.branchId === undefined || id === period.branchId);
  const byDay = new Map(rows.map((row) => [`${row.period}|${row.branch_id}`, row]));
  const everyDay: LedgerDayRow[] = [];
  for (
    let day = Date.parse(`${period.from}T00:00:00Z`);
    day <= Date.parse(`${period.to}T00:00:00Z`);
    day += 86_400_000
  ) {
    const date = new Date(day).toISOString().slice(0, 10);
    for (const id of branchIds) {
      everyDay.push(
        byDay.get(`${date}|${id}`) ?? {
          period: date,
          branch_id: id,
          payments_cents: 0,
          refunds_cents: 0,
          payments_count: 0,
          refunds_count: 0,
        },
      );
    }
  }
  const totals = rows.reduce(
    (sum, row) => ({
      payments_cents: sum.payments_cents + row.payments_cents,
      refunds_cents: sum.refunds_cents + row.refunds_cents,
      payments_count: sum.payments_count + row.payments_count,
      refunds_count: sum.refunds_count + row.refunds_count,
    }),
    { payments_cents: 0, refunds_cents: 0, payments_count: 0, refunds_count: 0 },
  );
  return { rows, everyDay, totals };
}

/** Per booking, in cents: its shares of payments, of refunds, and of those refunds what its moves paid back. */
export type BookingLedgerSums = { paid: number; refunded: number; movesRefunded: number };

/** The ledger's sums of each booking that has a share of any entry (a booking absent moved no money). */
export async function ledgerSumsOfBookings(db: Db): Promise<Map<number, BookingLedgerSums>> {
  const { rows } = await sql<{ booking_id: number; paid: number; refunded: number; moves_refunded: number }>`
    select share.booking_id,
      coalesce(sum(share.amount_cents) filter (where entry.kind = 'payment'), 0)::int as paid,
      coalesce(sum(share.amount_cents) filter (where entry.kind = 'refund'), 0)::int as refunded,
      coalesce(sum(share.amount_cents) filter (where entry.purpose in ('move_to_cheaper_slot', 'move_late_payment')),
        0)::int as moves_refunded
    from ledger_entry_bookings as share join ledger_entries as entry on entry.id = share.entry_id
    group by share.booking_id`.execute(db);
  return new Map(
    rows.map((row) => [
      row.booking_id,
      { paid: row.paid, refunded: row.refunded, movesRefunded: row.moves_refunded },
    ]),
  );
}

/** The booking's shares of the ledger's refunds, oldest first: how much and why. */
export async function refundSharesOf(db: Db, bookingId: number) {
  return db
    .selectFrom('ledger_entry_bookings as share')
    .innerJoin('ledger_entries as entry', 'entry.id', 'share.entry_id')
    .select(['share.amount_cents', 'entry.purpose'])
    .where('share.booking_id', '=', bookingId)
    .where('entry.kind', '=', 'refund')
    .orderBy('entry.id')
    .execute();
}

/** One line of CSV, quotes honoured. */
export function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    if (quoted) {
      if (char === '"' && line[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  cells.push(cell);
  return cells;
}

/** A batch of CSV lines (CRLF ended), each as its cells. */
export function csvRows(text: string): string[][] {
  return text === '' ? [] : text.replace(/\r\n$/, '').split('\r\n').map(csvCells);
}
