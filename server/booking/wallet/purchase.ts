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
import { grantLot } from './credit.ts';
import { creditPackBoughtMessage } from './messages.ts';
import * as repository from './repository.ts';
import type { components } from '../../../openapi/schema.gen.ts';

// A pack's checkout (issue 31): what its outcome does. Paid: the sale is a row of the money ledger, the lot it
// buys starts with its grant, the invoice is recorded, the member is e-mailed; all in the fulfilling transaction
// with the session's row locked, so once, whichever of the webhook, the session-status reconciliation or the
// local checkout gets there first. Money that arrives after the session expired still buys the pack: nothing
// was held that could have been lost. Awaiting (a Multibanco voucher, an MB WAY approval): the session records
// the method and voucher; nothing else. Expired or failed: nothing was sold.

const DAY_MS = 24 * 60 * 60 * 1000;

/** A pack's credit in the contract's units: hours (minutes / 60) or euros. */
export function creditInUnits(unit: 'minutes' | 'cents', amount: number): number {
  return unit === 'minutes' ? Math.round((amount / 60) * 100) / 100 : centsToEuros(amount);
}

export function contractUnit(unit: 'minutes' | 'cents'): components['schemas']['CreditUnit'] {
  return unit === 'minutes' ? 'hours' : 'eur';
}

export async function applyPackOutcome(
  trx: Db,
  deps: FulfilmentDependencies,
  stored: checkoutRepository.CheckoutSessionRow,
  session: Pick<ProviderSession, 'paymentIntentId' | 'card' | 'paymentMethod' | 'voucher'>,
  outcome: SessionOutcome,
  now: Date,
): Promise<void> {
  const paymentIntentId = session.paymentIntentId ?? stored.payment_intent_id;
  const alreadyPaid = stored.status === 'complete' && stored.payment_status === 'paid';
  if (outcome === 'paid') {
    if (alreadyPaid) return;
    await checkoutRepository.markSessionPaid(trx, stored, session, paymentIntentId, now);
    const pack = (await repository.findPack(trx, stored.credit_pack_id!))!;
    const entryId = await recordCreditSale(trx, deps, {
      sessionId: stored.id,
      provider: stored.provider,
      currency: stored.currency,
      userId: stored.user_id,
      paymentIntentId,
      amountCents: stored.amount_cents,
      branchId: pack.branch_id,
      at: now,
    });
    if (!stored.user_id) return;
    const expiresAt = new Date(now.getTime() + pack.validity_days * DAY_MS);
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
    return;
  }
  if (alreadyPaid) return;
  if (outcome === 'awaiting_payment') {
    await checkoutRepository.markSessionAwaitingPayment(trx, stored, session, paymentIntentId, now);
    return;
  }
  if (outcome === 'expired' && stored.status === 'open') {
    await checkoutRepository.updateSession(trx, stored.id, { status: 'expired' });
  }
}

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
