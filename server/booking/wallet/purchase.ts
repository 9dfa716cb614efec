import { Temporal } from 'temporal-polyfill';
import type { ProviderSession } from '../../adapters/payments/provider.ts';
import type { Db } from '../../db/database.ts';
import { instantFromDate } from '../../kernel/clock.ts';
import { insertOutboxMessage } from '../../kernel/outbox.ts';
import { resolveLocale } from '../../kernel/i18n.ts';
import { formatLocalTime } from '../../catalog/index.ts';
import { centsToEuros } from '../../kernel/money.ts';
import { findMessageContext } from '../../notifications/index.ts';
import type { FulfilmentDependencies, SessionOutcome } from '../checkout/fulfilment.ts';
import * as checkoutRepository from '../checkout/repository.ts';
import { memberActor, recordCreditSale } from '../ledger.ts';
import { creditExpiry, grantLot } from './credit.ts';
import { creditPackBoughtMessage } from './messages.ts';
import * as repository from './repository.ts';
import type { components } from '../../../openapi/schema.gen.ts';

// A pack's checkout (issue 31): what its outcome does. Paid: the sale is a row of the money ledger, the lot it
// buys starts with its grant, the invoice is recorded, the member is e-mailed; all in the fulfilling transaction
// with the session's row locked, so once, whichever of the webhook, the session-status reconciliation or the
// local checkout gets there first. Money that arrives after the session expired still buys the pack: nothing
// was held that could have been lost. Awaiting (a Multibanco voucher, an MB WAY approval): the session records
// the method and voucher; nothing else. Expired or failed: nothing was sold.

/** A pack's credit in the contract's units: hours (minutes / 60) or euros. */
export function creditInUnits(unit: 'minutes' | 'cents', amount: number): number {
  return unit === 'minutes' ? Math.round((amount / 60) * 100) / 100 : centsToEuros(amount);
}

export function contractUnit(unit: 'minutes' | 'cents'): components['schemas']['CreditUnit'] {
  return unit === 'minutes' ? 'hours' : 'eur';
}

/**
 * What a checkout of credit (a pack, a gift voucher) does with its outcome, in the fulfilling transaction with the
 * session's row locked: paid → the session marked paid, then `sell` (the sale, its invoice, its e-mails), once;
 * awaiting → the method and the voucher recorded; expired → the session closed. A paid session is left as it is.
 */
export async function applyCreditSaleOutcome(
  trx: Db,
  stored: checkoutRepository.CheckoutSessionRow,
  session: Pick<ProviderSession, 'paymentIntentId' | 'card' | 'paymentMethod' | 'voucher'>,
  outcome: SessionOutcome,
  now: Date,
  sell: (paymentIntentId: string | null) => Promise<void>,
): Promise<void> {
  if (stored.status === 'complete' && stored.payment_status === 'paid') return;
  const paymentIntentId = session.paymentIntentId ?? stored.payment_intent_id;
  if (outcome === 'paid') {
    await checkoutRepository.markSessionPaid(trx, stored, session, paymentIntentId, now);
    await sell(paymentIntentId);
    return;
  }
  if (outcome === 'awaiting_payment') {
    await checkoutRepository.markSessionAwaitingPayment(trx, stored, session, paymentIntentId, now);
    return;
  }
  if (outcome === 'expired' && stored.status === 'open') {
    await checkoutRepository.updateSession(trx, stored.id, { status: 'expired' });
  }
}

type CreditSale = (
  trx: Db,
  deps: FulfilmentDependencies,
  stored: checkoutRepository.CheckoutSessionRow,
  paymentIntentId: string | null,
  now: Date,
) => Promise<void>;

/** The outcome handler of a checkout of credit whose paid step is `sell`. */
export function creditSaleOutcome(sell: CreditSale) {
  return (
    trx: Db,
    deps: FulfilmentDependencies,
    stored: checkoutRepository.CheckoutSessionRow,
    session: Pick<ProviderSession, 'paymentIntentId' | 'card' | 'paymentMethod' | 'voucher'>,
    outcome: SessionOutcome,
    now: Date,
  ): Promise<void> =>
    applyCreditSaleOutcome(trx, stored, session, outcome, now, (paymentIntentId) =>
      sell(trx, deps, stored, paymentIntentId, now),
    );
}

/** The money of a paid checkout of credit, as the ledger's sale records it. */
export function saleOfSession(
  stored: checkoutRepository.CheckoutSessionRow,
  paymentIntentId: string | null,
  now: Date,
) {
  return {
    sessionId: stored.id,
    provider: stored.provider,
    currency: stored.currency,
    userId: stored.user_id,
    paymentIntentId,
    amountCents: stored.amount_cents,
    at: now,
  };
}

/** A pack's sale: the ledger's payment, the lot with its grant, the invoice and the member's e-mail. */
async function sellPack(
  trx: Db,
  deps: FulfilmentDependencies,
  stored: checkoutRepository.CheckoutSessionRow,
  paymentIntentId: string | null,
  now: Date,
): Promise<void> {
  const pack = (await repository.findPack(trx, stored.credit_pack_id!))!;
  const entryId = await recordCreditSale(trx, deps, {
    ...saleOfSession(stored, paymentIntentId, now),
    branchId: pack.branch_id,
  });
  if (!stored.user_id) return;
  const expiresAt = creditExpiry(now, pack.validity_days, pack.time_zone);
  await grantLot(
    trx,
    {
      userId: stored.user_id,
      creditPackId: pack.id,
      name: pack.name,
      unit: pack.unit,
      amount: pack.credit,
      scope: {
        branch_ids: pack.all_branches ? null : [pack.branch_id],
        weekdays: pack.weekdays,
        from_minute: pack.from_minute,
        to_minute: pack.to_minute,
      },
      ledgerEntryId: entryId,
      checkoutSessionId: stored.id,
      expiresAt,
    },
    memberActor(stored.user_id),
    now,
  );
  // The invoice names the credit the lot holds: recorded once the lot exists.
  await deps.documents?.recordPending(trx, entryId, now);
  const context = await findMessageContext(trx, stored.user_id, pack.branch_id);
  if (!context?.email) return;
  const locale = resolveLocale(context.locale);
  const message = creditPackBoughtMessage({
    locale,
    firstName: context.first_name,
    name: pack.name,
    unit: pack.unit,
    amount: pack.credit,
    expiresAt: instantFromDate(expiresAt),
    timeZone: pack.time_zone,
    invoiceUrl: (await deps.documents?.linkOf(trx, entryId)) ?? null,
    walletUrl: `${deps.publicUrl}/${locale}?account_tab=wallet`,
  });
  await insertOutboxMessage(trx, {
    channel: 'email',
    recipient: context.email,
    locale,
    kind: 'credit_pack_bought',
    subject: message.subject,
    text_body: message.text,
    html_body: message.html,
    dedupe_key: `credit_pack_bought:${stored.id}`,
    created_at: now,
    next_attempt_at: now,
  });
}

export const applyPackOutcome = creditSaleOutcome(sellPack);

/**
 * The money a checkout of credit (a pack, a gift voucher) still awaits, as its result shows it: what to pay and by
 * when (the Multibanco voucher's expiry, or the MB WAY approval window), in `zone`. Absent otherwise.
 */
export function awaitedCreditPayment(
  session: checkoutRepository.CheckoutSessionRow,
  zone: string,
  now: Date,
): Pick<components['schemas']['CheckoutSessionStatus'], 'awaiting_payment'> {
  const awaiting =
    session.status === 'complete' &&
    session.payment_status === 'unpaid' &&
    (session.payment_method === 'multibanco' || session.payment_method === 'mb_way');
  const until =
    session.payment_method === 'multibanco' && session.voucher_expires_at
      ? session.voucher_expires_at
      : session.expires_at;
  if (!awaiting || until <= now) return {};
  return {
    awaiting_payment: {
      method: session.payment_method as 'multibanco' | 'mb_way',
      amount_eur: centsToEuros(session.amount_cents),
      held_until: formatLocalTime(Temporal.Instant.fromEpochMilliseconds(until.getTime()), zone),
      voucher:
        session.payment_method === 'multibanco' && session.voucher_entity && session.voucher_reference
          ? {
              entity: session.voucher_entity,
              reference: session.voucher_reference,
              expires_at: formatLocalTime(instantFromDate(session.voucher_expires_at!), zone),
              voucher_url: session.voucher_url,
            }
          : null,
    },
  };
}

/** What a pack's checkout result shows: the pack, its lot's expiry once paid, and the money awaited. */
export async function packSessionStatus(
  db: Db,
  session: checkoutRepository.CheckoutSessionRow,
  now: Date,
): Promise<Pick<components['schemas']['CheckoutSessionStatus'], 'credit_pack' | 'awaiting_payment'>> {
  const pack = (await repository.findPack(db, session.credit_pack_id!))!;
  const lot = await repository.findLotOfSession(db, session.id);
  return {
    credit_pack: {
      name: lot?.name ?? pack.name,
      unit: contractUnit(lot?.unit ?? pack.unit),
      credit: creditInUnits(lot?.unit ?? pack.unit, lot?.initial ?? pack.credit),
      expires_at: lot ? formatLocalTime(instantFromDate(lot.expires_at), pack.time_zone) : null,
    },
    ...awaitedCreditPayment(session, pack.time_zone, now),
  };
}
