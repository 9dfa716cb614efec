import type { PaymentProvider } from '../adapters/payments/provider.ts';
import type { Actor } from '../kernel/audit.ts';
import { claimRefund, settleRefund } from './checkout/repository.ts';
import type { CompanyDetails } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { LedgerActorType, PaymentPurpose, RefundPurpose } from '../db/schema.ts';
import { providerUnavailable } from './held-checkout.ts';
import * as ledgerRepository from './ledger-repository.ts';
import { includedVatCents } from './receipt.ts';

// The money ledger (docs/decisions.md, "The money ledger"): every movement of money is one row, written in the
// transaction that causes it and never changed. A payment is written when the provider says the session is paid
// (the webhook, the local checkout, or the session-status reconciliation, with the session's row locked, so
// once); a refund when the provider accepted it (succeeded or pending), in the transaction that asked for it. A
// refund the provider refused writes no row: the ledger holds only money that moved. Everything that shows money
// reads these rows.

/**
 * Where each new ledger row's tax document is recorded, in the row's own transaction: the invoicing module
 * (server/invoicing), given by the composition root. `null` only where no document must ever be recorded (unit
 * tests of booking rules).
 */
export type DocumentRecorder = {
  recordPending(trx: Db, ledgerEntryId: number, at: Date): Promise<void>;
  /** The signed link to the PDF of a ledger row's document (null without one), for the member's e-mails. */
  linkOf(trx: Db, ledgerEntryId: number): Promise<string | null>;
};

export type LedgerDependencies = {
  payments: Pick<PaymentProvider, 'name' | 'refund'>;
  company: CompanyDetails;
  documents: DocumentRecorder | null;
};

/** Who caused a movement: the member, an operator, the system (a closure, a job), the CLI. */
export type MoneyActor = { type: LedgerActorType; id: string | null; name: string | null };

export function memberActor(userId: string | null): MoneyActor {
  return { type: 'member', id: userId, name: null };
}

export function systemActor(id: string | null = null, name: string | null = null): MoneyActor {
  return { type: 'system', id, name };
}

/** An operator of the console, or the CLI (an actor without an operator). */
export function operatorActor(actor: Actor): MoneyActor {
  return actor.operatorId === null
    ? { type: 'cli', id: null, name: actor.email ?? 'cli' }
    : { type: 'operator', id: String(actor.operatorId), name: actor.email };
}

/**
 * `amountCents` split in proportion to `weights` (each booking's price), exactly: the weights themselves when
 * they add up to it (a checkout pays each slot's final price), else proportional shares whose rounding is given
 * to the largest remainders, so the shares always add up to the amount.
 */
export function splitCents(amountCents: number, weights: readonly number[]): number[] {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  if (total === amountCents) return [...weights];
  if (total === 0) return weights.map((_, index) => (index === 0 ? amountCents : 0));
  const exact = weights.map((weight) => (amountCents * weight) / total);
  const shares = exact.map(Math.floor);
  let left = amountCents - shares.reduce((sum, share) => sum + share, 0);
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (left <= 0) break;
    shares[index]! += 1;
    left -= 1;
  }
  return shares;
}

/** The VAT an amount includes at `vatRate`: the branch's own rate, else VAT_RATE (`company.vatRate`). */
function vatOf(vatRate: number, amountCents: number) {
  return { vat_rate: vatRate, vat_cents: includedVatCents(amountCents, vatRate) };
}

function actorColumns(actor: MoneyActor) {
  return { actor_type: actor.type, actor_id: actor.id, actor_name: actor.name };
}

/**
 * Records the payment of a checkout session that has just been paid, in the fulfilling transaction (the session's
 * row locked): a booking checkout gives each of its bookings its price as its share; a move's checkout pays the
 * moved booking's difference. A session with no booking left is not recorded (it cannot happen: an attached
 * session's bookings are never deleted).
 */
export async function recordSessionPayment(
  trx: Db,
  deps: Pick<LedgerDependencies, 'company' | 'documents'>,
  payment: {
    sessionId: string;
    provider: 'local' | 'stripe';
    currency: string;
    userId: string | null;
    paymentIntentId: string | null;
    amountCents: number;
    /** The booking a move's checkout pays the difference of; null for a booking checkout. */
    movedBookingId: number | null;
    at: Date;
  },
): Promise<number | null> {
  if (payment.amountCents <= 0) return null;
  const bookings = await ledgerRepository.listBookingsPaidBy(trx, payment);
  if (bookings.length === 0) return null;
  const purpose: PaymentPurpose = payment.movedBookingId === null ? 'booking' : 'move_difference';
  const shares =
    purpose === 'booking'
      ? splitCents(
          payment.amountCents,
          // What each was to pay in money: its price less what credit paid of it.
          bookings.map((booking) => booking.final_price_cents - booking.credit_cents),
        )
      : [payment.amountCents];
  const branchRate = await ledgerRepository.findBranchVatRate(trx, bookings[0]!.branch_id);
  const entryId = await ledgerRepository.insertEntry(
    trx,
    {
      kind: 'payment',
      purpose,
      amount_cents: payment.amountCents,
      currency: payment.currency,
      ...vatOf(branchRate ?? deps.company.vatRate, payment.amountCents),
      provider: payment.provider,
      provider_reference: payment.paymentIntentId,
      checkout_session_id: payment.sessionId,
      branch_id: bookings[0]!.branch_id,
      user_id: payment.userId,
      ...actorColumns(memberActor(payment.userId)),
      occurred_at: payment.at,
    },
    bookings.map((booking, index) => ({ bookingId: booking.id, cents: shares[index]! })),
  );
  await deps.documents?.recordPending(trx, entryId, payment.at);
  return entryId;
}

/**
 * Records the sale of a prepaid pack or a gift voucher (issue 31) when its checkout is paid, in the fulfilling
 * transaction (the session's row locked, so once): a payment of the selling branch, at its VAT rate, concerning
 * no booking. Its invoice is recorded by the caller once what it bought exists (the document names it).
 */
export async function recordCreditSale(
  trx: Db,
  deps: Pick<LedgerDependencies, 'company'>,
  sale: {
    /** What was sold: a prepaid pack, or a gift voucher (issue 31). */
    purpose?: 'credit_pack' | 'gift_voucher';
    sessionId: string;
    provider: 'local' | 'stripe';
    currency: string;
    userId: string | null;
    paymentIntentId: string | null;
    amountCents: number;
    branchId: number;
    at: Date;
  },
): Promise<number> {
  const branchRate = await ledgerRepository.findBranchVatRate(trx, sale.branchId);
  return ledgerRepository.insertEntry(
    trx,
    {
      kind: 'payment',
      purpose: sale.purpose ?? 'credit_pack',
      amount_cents: sale.amountCents,
      currency: sale.currency,
      ...vatOf(branchRate ?? deps.company.vatRate, sale.amountCents),
      provider: sale.provider,
      provider_reference: sale.paymentIntentId,
      checkout_session_id: sale.sessionId,
      branch_id: sale.branchId,
      user_id: sale.userId,
      ...actorColumns(memberActor(sale.userId)),
      occurred_at: sale.at,
    },
    [],
  );
}

/** Why a refund is made, who caused it and what they said: what its ledger row records beyond the money. */
export type RefundCause = { purpose: RefundPurpose; actor: MoneyActor; reason?: string | null };

/**
 * Pays back `amountCents` of one booking from one payment of the ledger, once ever by `idempotencyKey`: the
 * refund is claimed (a `refunds` row, unique by its key), the provider asked, its answer settled on the claim, and
 * the refund's ledger row written in the same transaction when the provider accepted it (succeeded or pending).
 * Answers what this call refunded: 0 when the key was claimed before or the provider refused the refund. A
 * provider that cannot be reached is a 503 and the caller's transaction rolls back, claim and all.
 */
export async function refundThroughProvider(
  trx: Db,
  deps: LedgerDependencies,
  refund: {
    bookingId: number;
    amountCents: number;
    idempotencyKey: string;
    payment: Pick<ledgerRepository.PaymentPartRow, 'entryId' | 'purpose' | 'sessionId' | 'paymentIntentId'>;
    cause: RefundCause;
    /** What the provider keeps with the refund. */
    metadata: Record<string, string>;
    at: Date;
  },
): Promise<number> {
  if (refund.amountCents <= 0) return 0;
  const refundId = await claimRefund(trx, {
    bookingId: refund.bookingId,
    amountCents: refund.amountCents,
    provider: deps.payments.name,
    idempotencyKey: refund.idempotencyKey,
    // Null: the booking's own checkout session (what `refunds` has always meant by it).
    checkoutSessionId: refund.payment.purpose === 'booking' ? null : refund.payment.sessionId,
  });
  if (refundId === undefined) return 0;
  let result;
  try {
    result = await deps.payments.refund({
      sessionId: refund.payment.sessionId,
      paymentIntentId: refund.payment.paymentIntentId,
      amountCents: refund.amountCents,
      idempotencyKey: refund.idempotencyKey,
      metadata: refund.metadata,
    });
  } catch (error) {
    throw providerUnavailable(error);
  }
  await settleRefund(trx, refundId, { providerRefundId: result.id, status: result.status });
  if (result.status === 'failed') return 0;
  const { booking, payment } = await ledgerRepository.findRefundContext(
    trx,
    refund.bookingId,
    refund.payment.entryId,
  );
  const entryId = await ledgerRepository.insertEntry(
    trx,
    {
      kind: 'refund',
      purpose: refund.cause.purpose,
      amount_cents: refund.amountCents,
      currency: payment.currency,
      // Money paid back carries the VAT of the payment it pays back (its credit note corrects that invoice).
      ...vatOf(Number(payment.vat_rate), refund.amountCents),
      provider: deps.payments.name,
      provider_reference: result.id,
      checkout_session_id: refund.payment.sessionId,
      refund_id: refundId,
      refunded_entry_id: refund.payment.entryId,
      branch_id: booking.branch_id,
      user_id: booking.user_id,
      ...actorColumns(refund.cause.actor),
      reason: refund.cause.reason ?? null,
      occurred_at: refund.at,
    },
    [{ bookingId: refund.bookingId, cents: refund.amountCents }],
  );
  await deps.documents?.recordPending(trx, entryId, refund.at);
  return refund.amountCents;
}

/** A session's whole payment as the source `refundThroughProvider` pays back from (a late payment's refunds). */
export function sessionPaymentSource(
  payment: ledgerRepository.PaymentEntryRow,
  session: { id: string; paymentIntentId: string | null },
): Pick<ledgerRepository.PaymentPartRow, 'entryId' | 'purpose' | 'sessionId' | 'paymentIntentId'> {
  return {
    entryId: payment.id,
    purpose: payment.purpose,
    sessionId: session.id,
    paymentIntentId: payment.provider_reference ?? session.paymentIntentId,
  };
}

/**
 * Pays back `amountCents` of the booking from its payments in the ledger, latest first (a move's paid difference,
 * then the booking's own checkout), each part up to what is left of it and once ever by its key (`key`, or
 * `key-m<seq>` for a move's part). Answers what this call refunded (0 on a repeat).
 */
export async function refundFromBookingPayments(
  trx: Db,
  deps: LedgerDependencies,
  bookingId: number,
  amountCents: number,
  key: string,
  cause: RefundCause & { providerReason: string },
  at: Date,
): Promise<number> {
  let left = amountCents;
  let refunded = 0;
  for (const part of await ledgerRepository.listPaymentParts(trx, bookingId)) {
    if (left <= 0) break;
    const cents = Math.min(left, part.leftCents);
    left -= cents;
    refunded += await refundThroughProvider(trx, deps, {
      bookingId,
      amountCents: cents,
      idempotencyKey: part.moveSeq === null ? key : `${key}-m${part.moveSeq}`,
      payment: part,
      cause,
      metadata: { booking_id: String(bookingId), reason: cause.providerReason },
      at,
    });
  }
  return refunded;
}

/** The money of a booking as every page shows it, from its ledger totals and its row. */
export type BookingMoney = {
  /** What the booking costs as it stands: what its payments came to less what its moves paid back. */
  priceCents: number;
  /** Paid for: a payment in the ledger, or a free booking confirmed. */
  paid: boolean;
  /** Every payment's share. */
  paidCents: number;
  /** Every refund's share. */
  refundedCents: number;
  /** What came back when it ended (cancelled, closed, late payment): refunds other than its moves'. */
  endingRefundCents: number;
  /** What the gym still holds of it: the most an operator can refund. */
  heldCents: number;
};

export function bookingMoney(
  booking: { final_price_cents: number; paid_at: Date | null; credit_cents: number },
  totals: ledgerRepository.BookingLedgerTotals = ledgerRepository.NOTHING_MOVED,
): BookingMoney {
  const paidIn = totals.paidCents > 0;
  // The part of the price the member's credit paid is not money: every figure here is money (issue 31).
  const moneyPrice = booking.final_price_cents - booking.credit_cents;
  return {
    // A booking nothing was paid for (a hold, an expired checkout, a free one, one credit paid) costs its price.
    priceCents: paidIn ? totals.paidCents - totals.moveRefundedCents : moneyPrice,
    paid: paidIn || (booking.paid_at !== null && moneyPrice === 0),
    paidCents: totals.paidCents,
    refundedCents: totals.refundedCents,
    endingRefundCents: totals.refundedCents - totals.moveRefundedCents,
    heldCents: totals.paidCents - totals.refundedCents,
  };
}

/** Each booking's money, read from the ledger in one query. */
export async function moneyOfBookings<
  Row extends { id: number; final_price_cents: number; paid_at: Date | null; credit_cents: number },
>(db: Db, rows: readonly Row[]): Promise<Map<number, BookingMoney>> {
  const totals = await ledgerRepository.totalsOfBookings(
    db,
    rows.map((row) => row.id),
  );
  return new Map(rows.map((row) => [row.id, bookingMoney(row, totals.get(row.id))]));
}
