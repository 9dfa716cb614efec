import { sql, type Insertable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { LedgerEntriesTable, LedgerPurpose } from '../db/schema.ts';

// SQL for the money ledger (migration 0009_ledger): rows are inserted, never updated or deleted. `db` is the
// caller's transaction when it writes.

/** Refunds that belong to a move (the difference of a cheaper slot, a move's payment that came too late). */
export const MOVE_REFUND_PURPOSES = ['move_to_cheaper_slot', 'move_late_payment'] as const;

/** One entry and each booking's share of it, in the caller's transaction; answers the entry's id. */
export async function insertEntry(
  db: Db,
  entry: Insertable<LedgerEntriesTable>,
  shares: readonly { bookingId: number; cents: number }[],
): Promise<number> {
  const { id } = await db
    .insertInto('ledger_entries')
    .values(entry)
    .returning('id')
    .executeTakeFirstOrThrow();
  // A pack's sale concerns no booking (issue 31).
  if (shares.length === 0) return id;
  await db
    .insertInto('ledger_entry_bookings')
    .values(shares.map((share) => ({ entry_id: id, booking_id: share.bookingId, amount_cents: share.cents })))
    .execute();
  return id;
}

export type PaymentEntryRow = {
  id: number;
  purpose: LedgerPurpose;
  checkout_session_id: string;
  provider_reference: string | null;
  amount_cents: number;
  vat_cents: number;
  vat_rate: number;
};

/** The payment of a checkout session, when it was paid. */
export async function findSessionPayment(db: Db, sessionId: string): Promise<PaymentEntryRow | undefined> {
  return db
    .selectFrom('ledger_entries')
    .select([
      'id',
      'purpose',
      'checkout_session_id',
      'provider_reference',
      'amount_cents',
      'vat_cents',
      'vat_rate',
    ])
    .where('checkout_session_id', '=', sessionId)
    .where('kind', '=', 'payment')
    .executeTakeFirst();
}

/** Each booking's share of an entry. */
export async function sharesOfEntry(db: Db, entryId: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('ledger_entry_bookings')
    .select(['booking_id', 'amount_cents'])
    .where('entry_id', '=', entryId)
    .execute();
  return new Map(rows.map((row) => [row.booking_id, row.amount_cents]));
}

export type PaymentPartRow = {
  entryId: number;
  purpose: LedgerPurpose;
  sessionId: string;
  paymentIntentId: string | null;
  /** The move whose difference it paid (null: the booking's own checkout). */
  moveSeq: number | null;
  /** The booking's share of the payment less what was refunded of it for the booking. */
  leftCents: number;
};

/**
 * What each payment of the booking can still pay back, latest first: each paid move difference (latest move
 * first), then the booking's own checkout. Only payments with something left.
 */
export async function listPaymentParts(db: Db, bookingId: number): Promise<PaymentPartRow[]> {
  const { rows } = await sql<{
    entry_id: number;
    purpose: LedgerPurpose;
    checkout_session_id: string;
    provider_reference: string | null;
    move_seq: number | null;
    left_cents: number;
  }>`
    select payment.id as entry_id, payment.purpose, payment.checkout_session_id, payment.provider_reference,
      move.seq as move_seq,
      (share.amount_cents - coalesce((select sum(back.amount_cents) from ledger_entries as refund
        join ledger_entry_bookings as back on back.entry_id = refund.id and back.booking_id = share.booking_id
        where refund.refunded_entry_id = payment.id), 0))::int as left_cents
    from ledger_entry_bookings as share
    join ledger_entries as payment on payment.id = share.entry_id and payment.kind = 'payment'
    left join booking_moves as move on move.checkout_session_id = payment.checkout_session_id
    where share.booking_id = ${bookingId}
    order by move.seq desc nulls last, payment.id desc`.execute(db);
  return rows
    .map((row) => ({
      entryId: row.entry_id,
      purpose: row.purpose,
      sessionId: row.checkout_session_id,
      paymentIntentId: row.provider_reference,
      moveSeq: row.move_seq,
      leftCents: Number(row.left_cents),
    }))
    .filter((part) => part.leftCents > 0);
}

/** A booking's money as the ledger has it, in cents. */
export type BookingLedgerTotals = {
  /** Its shares of every payment. */
  paidCents: number;
  /** Its shares of every refund. */
  refundedCents: number;
  /** Of those refunds, what its moves paid back (a cheaper slot's difference, a move's payment that came late). */
  moveRefundedCents: number;
};

export const NOTHING_MOVED: BookingLedgerTotals = { paidCents: 0, refundedCents: 0, moveRefundedCents: 0 };

/** Each booking's totals; a booking no money moved for is absent (read NOTHING_MOVED). */
export async function totalsOfBookings(
  db: Db,
  bookingIds: readonly number[],
): Promise<Map<number, BookingLedgerTotals>> {
  if (bookingIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('ledger_entry_bookings as share')
    .innerJoin('ledger_entries as entry', 'entry.id', 'share.entry_id')
    .select([
      'share.booking_id',
      sql<number>`coalesce(sum(share.amount_cents) filter (where entry.kind = 'payment'), 0)::int`.as('paid'),
      sql<number>`coalesce(sum(share.amount_cents) filter (where entry.kind = 'refund'), 0)::int`.as(
        'refunded',
      ),
      sql<number>`coalesce(sum(share.amount_cents) filter (where entry.purpose in
        ('move_to_cheaper_slot', 'move_late_payment')), 0)::int`.as('move_refunded'),
    ])
    .where('share.booking_id', 'in', [...new Set(bookingIds)])
    .groupBy('share.booking_id')
    .execute();
  return new Map(
    rows.map((row) => [
      row.booking_id,
      {
        paidCents: Number(row.paid),
        refundedCents: Number(row.refunded),
        moveRefundedCents: Number(row.move_refunded),
      },
    ]),
  );
}

/**
 * The refunds that ended these bookings (anything but a move's), per booking, with the checkout sessions of the
 * payments they paid back: what a cancellation message states.
 */
export async function endingRefundsOfBookings(
  db: Db,
  bookingIds: readonly number[],
): Promise<Map<number, { cents: number; sessionIds: string[] }>> {
  if (bookingIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('ledger_entry_bookings as share')
    .innerJoin('ledger_entries as entry', 'entry.id', 'share.entry_id')
    .select(['share.booking_id', 'share.amount_cents', 'entry.checkout_session_id'])
    .where('share.booking_id', 'in', [...new Set(bookingIds)])
    .where('entry.kind', '=', 'refund')
    .where('entry.purpose', 'not in', MOVE_REFUND_PURPOSES)
    .orderBy('entry.id')
    .execute();
  const refunds = new Map<number, { cents: number; sessionIds: string[] }>();
  for (const row of rows) {
    const refund = refunds.get(row.booking_id) ?? { cents: 0, sessionIds: [] };
    refund.cents += row.amount_cents;
    if (!refund.sessionIds.includes(row.checkout_session_id)) refund.sessionIds.push(row.checkout_session_id);
    refunds.set(row.booking_id, refund);
  }
  return refunds;
}

/** The bookings a session's payment pays, by start: a booking checkout's, or the one booking a move's pays for. */
export async function listBookingsPaidBy(
  db: Db,
  payment: { sessionId: string; movedBookingId: number | null },
): Promise<{ id: number; branch_id: number; final_price_cents: number; credit_cents: number }[]> {
  return db
    .selectFrom('bookings')
    .select(['id', 'branch_id', 'final_price_cents', 'credit_cents'])
    .where((eb) =>
      payment.movedBookingId === null
        ? eb('checkout_session_id', '=', payment.sessionId)
        : eb('id', '=', payment.movedBookingId),
    )
    .orderBy('start_time')
    .orderBy('id')
    .execute();
}

/** What a refund's ledger row names besides its amount: the booking's branch and member, the payment's currency. */
export async function findRefundContext(db: Db, bookingId: number, paymentEntryId: number) {
  const booking = await db
    .selectFrom('bookings')
    .select(['branch_id', 'user_id'])
    .where('id', '=', bookingId)
    .executeTakeFirstOrThrow();
  const payment = await db
    .selectFrom('ledger_entries')
    .select(['currency', 'vat_rate'])
    .where('id', '=', paymentEntryId)
    .executeTakeFirstOrThrow();
  return { booking, payment };
}

/** A branch's own VAT rate; null: the server's VAT_RATE applies. */
export async function findBranchVatRate(db: Db, branchId: number): Promise<number | null> {
  const row = await db
    .selectFrom('branches')
    .select('vat_rate')
    .where('id', '=', branchId)
    .executeTakeFirst();
  return row?.vat_rate === null || row?.vat_rate === undefined ? null : Number(row.vat_rate);
}

/**
 * The ledger rows of these bookings written in the current transaction at `at` (`recorded_at` defaults to the
 * transaction's `now()`): the money a message written in the same transaction is about.
 */
export async function entriesRecordedNow(db: Db, bookingIds: readonly number[], at: Date): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`
    select distinct entry.id from ledger_entries as entry
      join ledger_entry_bookings as share on share.entry_id = entry.id
    where share.booking_id = any(${[...bookingIds]}::int[]) and entry.occurred_at = ${at}
      and entry.recorded_at = now()
    order by entry.id`.execute(db);
  return rows.map((row) => row.id);
}
