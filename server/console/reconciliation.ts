import { Temporal } from 'temporal-polyfill';
import {
  PaymentProviderError,
  type BalanceTransaction,
  type PaymentProvider,
} from '../adapters/payments/provider.ts';
import type { Db } from '../db/database.ts';
import type { LedgerEntryKind } from '../db/schema.ts';
import { AppError } from '../kernel/errors.ts';
import { csv, eurosOfCents } from './csv.ts';
import * as repository from './repository.ts';
import { checkPeriod } from './service.ts';

// Stripe's fees and payouts matched to the ledger (docs/decisions.md, "Stripe payouts and fees matched to the
// ledger"): each ledger row Stripe wrote in a period with the balance transaction of its provider reference (a
// payment's payment intent, a refund's id), and what matches nothing on either side. Read from Stripe on each
// request; nothing is stored.

/** Days are Lisbon's, as the documents' and the accountant's. */
const TIME_ZONE = 'Europe/Lisbon';
/**
 * A ledger row and its balance transaction are a few seconds apart, but may fall either side of midnight: both
 * sides are read a day wider than the period, and only what belongs to the period is reported.
 */
const MARGIN = { hours: 24 } as const;
/** How long after its money a payout may be created (Stripe pays out in Portugal after 7 to 14 days). */
const PAYOUT_WINDOW = { hours: 31 * 24 } as const;

/** The payouts themselves: shown as the payout columns of the transactions they carry, never as lines. */
const PAYOUT_TYPES = new Set([
  'payout',
  'payout_cancel',
  'payout_failure',
  'payout_minimum_balance_hold',
  'payout_minimum_balance_release',
]);
/** The balance transaction types a ledger row of each kind is (`payment` is Stripe's word for some methods). */
const TYPES_OF: Record<LedgerEntryKind, ReadonlySet<string>> = {
  payment: new Set(['charge', 'payment']),
  refund: new Set(['refund', 'payment_refund']),
};

export type ReconciliationMatch = 'matched' | 'amount_differs' | 'no_balance_transaction' | 'no_ledger_row';

export type ReconciliationLine = {
  match: ReconciliationMatch;
  entry: {
    id: number;
    occurredAt: Date;
    kind: LedgerEntryKind;
    reference: string | null;
    /** A refund negative, as Stripe writes it. */
    amountCents: number;
  } | null;
  transaction: BalanceTransaction | null;
};

export type ReconciliationDependencies = { db: Db; payments: PaymentProvider };

function lisbonStart(day: Temporal.PlainDate): Temporal.Instant {
  return day.toZonedDateTime(TIME_ZONE).toInstant();
}

const asDate = (instant: Temporal.Instant) => new Date(instant.epochMilliseconds);

/** The period's lines: ledger rows oldest first, then the balance transactions no row names, oldest first. */
export async function stripeReconciliation(
  deps: ReconciliationDependencies,
  period: { from: string; to: string },
): Promise<ReconciliationLine[]> {
  checkPeriod(period.from, period.to, 366);
  const balance = deps.payments.balance;
  if (!balance) throw new AppError('provider_balance_missing');
  const from = lisbonStart(Temporal.PlainDate.from(period.from));
  const until = lisbonStart(Temporal.PlainDate.from(period.to).add({ days: 1 }));
  const within = (instant: Temporal.Instant) =>
    Temporal.Instant.compare(instant, from) >= 0 && Temporal.Instant.compare(instant, until) < 0;

  let transactions: BalanceTransaction[];
  try {
    transactions = await balance.listBalanceTransactions({
      from: from.subtract(MARGIN),
      until: until.add(MARGIN),
      payoutsUntil: until.add(PAYOUT_WINDOW),
    });
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    const refused =
      error.status === null
        ? new AppError('provider_balance_unavailable')
        : new AppError('provider_balance_refused', { status: error.status });
    refused.cause = error;
    throw refused;
  }
  const rows = await repository.providerLedgerRows(deps.db, {
    provider: 'stripe',
    from: asDate(from.subtract(MARGIN)),
    until: asDate(until.add(MARGIN)),
  });

  const byReference = new Map<string, BalanceTransaction[]>();
  for (const transaction of transactions) {
    if (PAYOUT_TYPES.has(transaction.type) || transaction.reference === null) continue;
    const same = byReference.get(transaction.reference) ?? [];
    same.push(transaction);
    byReference.set(transaction.reference, same);
  }
  const used = new Set<string>();
  const lines: ReconciliationLine[] = [];
  for (const row of rows) {
    const candidates = row.provider_reference ? (byReference.get(row.provider_reference) ?? []) : [];
    const transaction =
      candidates.find((candidate) => !used.has(candidate.id) && TYPES_OF[row.kind].has(candidate.type)) ??
      null;
    if (transaction) used.add(transaction.id);
    const occurredAt = Temporal.Instant.fromEpochMilliseconds(row.occurred_at.getTime());
    if (!within(occurredAt)) continue;
    const amountCents = (row.kind === 'refund' ? -1 : 1) * Number(row.amount_cents);
    lines.push({
      match: !transaction
        ? 'no_balance_transaction'
        : transaction.amountCents === amountCents
          ? 'matched'
          : 'amount_differs',
      entry: {
        id: row.id,
        occurredAt: row.occurred_at,
        kind: row.kind,
        reference: row.provider_reference,
        amountCents,
      },
      transaction,
    });
  }
  const unmatched = transactions
    .filter(
      (transaction) =>
        !used.has(transaction.id) && !PAYOUT_TYPES.has(transaction.type) && within(transaction.created),
    )
    .sort(
      (a, b) => Temporal.Instant.compare(a.created, b.created) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
  for (const transaction of unmatched) lines.push({ match: 'no_ledger_row', entry: null, transaction });
  return lines;
}

export const RECONCILIATION_HEADER = [
  'match',
  'entry_id',
  'date',
  'kind',
  'provider_reference',
  'amount_eur',
  'balance_transaction',
  'type',
  'created',
  'gross_eur',
  'fee_eur',
  'net_eur',
  'payout',
  'payout_arrival_date',
  'payout_status',
];

/** The period's lines as the owner's CSV (the contract's `getStripeReconciliationCsv`); the CLI prints it too. */
export async function stripeReconciliationCsv(
  deps: ReconciliationDependencies,
  period: { from: string; to: string },
): Promise<string> {
  const lines = await stripeReconciliation(deps, period);
  return csv(
    RECONCILIATION_HEADER,
    lines.map(({ match, entry, transaction }) => [
      match,
      entry?.id,
      entry?.occurredAt.toISOString(),
      entry?.kind,
      entry?.reference ?? transaction?.reference,
      entry ? eurosOfCents(entry.amountCents) : '',
      transaction?.id,
      transaction?.type,
      transaction ? new Date(transaction.created.epochMilliseconds).toISOString() : '',
      transaction ? eurosOfCents(transaction.amountCents) : '',
      transaction ? eurosOfCents(transaction.feeCents) : '',
      transaction ? eurosOfCents(transaction.netCents) : '',
      transaction?.payout?.id,
      transaction?.payout?.arrivalDate,
      transaction?.payout?.status,
    ]),
  );
}
