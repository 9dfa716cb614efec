import { randomInt, randomUUID } from 'node:crypto';
import { SESSION_ID_PLACEHOLDER } from '../../adapters/payments/provider.ts';
import type { Db } from '../../db/database.ts';
import { dateFromInstant, instantFromDate } from '../../kernel/clock.ts';
import { AppError } from '../../kernel/errors.ts';
import { resolveLocale, translate, type Locale, type Message } from '../../kernel/i18n.ts';
import { centsToEuros, eurosToCents } from '../../kernel/money.ts';
import { insertOutboxMessage } from '../../kernel/outbox.ts';
import { runTransaction } from '../../kernel/transactions.ts';
import { findMessageContext } from '../../notifications/index.ts';
import type { FulfilmentDependencies } from '../checkout/fulfilment.ts';
import type * as checkoutRepository from '../checkout/repository.ts';
import { providerUnavailable } from '../held-checkout.ts';
import { memberActor, recordCreditSale } from '../ledger.ts';
import * as bookingRepository from '../repository.ts';
import { checkoutReturnUrl, requireBuyer, type BookingServiceDependencies } from '../service.ts';
import { creditExpiry, grantLot } from './credit.ts';
import { giftVoucherBoughtMessage, giftVoucherMessage, VOUCHER_TIME_ZONE } from './messages.ts';
import { awaitedCreditPayment, creditSaleOutcome, saleOfSession } from './purchase.ts';
import * as repository from './repository.ts';
import { catalogRepository } from '../../catalog/index.ts';
import type { components } from '../../../openapi/schema.gen.ts';

// Gift vouchers (issue 31, item 3; docs/decisions.md, "Gift vouchers"). A member buys one for someone through the
// normal checkout; once paid (in the fulfilling transaction, the session's row locked, so once) the sale is a
// payment of the money ledger with its invoice, the voucher gets its code and a year of validity, and the
// recipient and the buyer are e-mailed. Whoever holds the code redeems it once into their wallet: a lot of euros,
// at every branch, until the voucher's expiry. Redeeming is a race only one wins (the voucher's row is locked).

type Schemas = components['schemas'];

const DAY_MS = 24 * 60 * 60 * 1000;

const AMOUNT_IN_CENTS: Message = /*i18n*/ {
  id: 'validation.giftVoucherAmount',
  message: 'o valor do vale tem no máximo duas casas decimais (por exemplo 25,50)',
};
/** How long a voucher can be redeemed, and its credit spent, from its payment. */
export const GIFT_VOUCHER_VALID_DAYS = 365;
/** No 0/O or 1/I: a code read aloud or copied from paper is not mistaken. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A new code: 12 letters and digits in three groups (60 bits), as ABCD-EFGH-JKLM. */
function newVoucherCode(): string {
  const characters = Array.from({ length: 12 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]!);
  return [0, 4, 8].map((start) => characters.slice(start, start + 4).join('')).join('-');
}

/** A code as typed (any case, spaces, dashes or none) in its stored form, or null when it cannot be one. */
export function normaliseVoucherCode(typed: string): string | null {
  const plain = typed.toUpperCase().replace(/[\s-]/g, '');
  if (!/^[A-Z0-9]{12}$/.test(plain)) return null;
  return [0, 4, 8].map((start) => plain.slice(start, start + 4)).join('-');
}

type VoucherRow = {
  id: number;
  code: string | null;
  amount_cents: number;
  recipient_name: string;
  recipient_email: string;
  message: string | null;
  issued_at: Date | null;
  expires_at: Date | null;
  redeemed_at: Date | null;
};

export function voucherStatus(row: VoucherRow, now: Date): Schemas['GiftVoucherStatus'] {
  if (row.issued_at === null) return 'unpaid';
  if (row.redeemed_at !== null) return 'redeemed';
  return row.expires_at! <= now ? 'expired' : 'issued';
}

/** A voucher's sale: the ledger's payment, its code and validity, the invoice, the recipient's and buyer's e-mails. */
async function sellVoucher(
  trx: Db,
  deps: FulfilmentDependencies,
  stored: checkoutRepository.CheckoutSessionRow,
  paymentIntentId: string | null,
  now: Date,
): Promise<void> {
  const voucher = await repository.findVoucher(trx, stored.gift_voucher_id!);
  const entryId = await recordCreditSale(trx, deps, {
    ...saleOfSession(stored, paymentIntentId, now),
    purpose: 'gift_voucher',
    branchId: voucher.branch_id,
  });
  const expiresAt = creditExpiry(now, GIFT_VOUCHER_VALID_DAYS, VOUCHER_TIME_ZONE);
  const code = newVoucherCode();
  await repository.updateVoucher(trx, voucher.id, {
    code,
    issued_at: now,
    expires_at: expiresAt,
    ledger_entry_id: entryId,
  });
  // The invoice names the voucher's code: recorded once it has one.
  await deps.documents?.recordPending(trx, entryId, now);
  const locale = resolveLocale(voucher.locale);
  const buyer = stored.user_id ? await findMessageContext(trx, stored.user_id, voucher.branch_id) : undefined;
  const buyerName = buyer ? buyer.first_name : deps.companyName;
  const gift = giftVoucherMessage({
    locale,
    buyer: buyerName,
    recipientName: voucher.recipient_name,
    amountCents: voucher.amount_cents,
    message: voucher.message,
    code,
    expiresAt: instantFromDate(expiresAt),
    timeZone: VOUCHER_TIME_ZONE,
    redeemUrl: `${deps.publicUrl}/${locale}?account_tab=wallet&voucher=${encodeURIComponent(code)}`,
  });
  await insertOutboxMessage(trx, {
    channel: 'email',
    recipient: voucher.recipient_email,
    locale,
    kind: 'gift_voucher',
    subject: gift.subject,
    text_body: gift.text,
    html_body: gift.html,
    dedupe_key: `gift_voucher:${voucher.id}`,
    created_at: now,
    next_attempt_at: now,
  });
  if (!buyer?.email) return;
  const receipt = giftVoucherBoughtMessage({
    locale: buyer.locale,
    firstName: buyer.first_name,
    recipientName: voucher.recipient_name,
    recipientEmail: voucher.recipient_email,
    amountCents: voucher.amount_cents,
    code,
    expiresAt: instantFromDate(expiresAt),
    timeZone: VOUCHER_TIME_ZONE,
    invoiceUrl: (await deps.documents?.linkOf(trx, entryId)) ?? null,
  });
  await insertOutboxMessage(trx, {
    channel: 'email',
    recipient: buyer.email,
    locale: buyer.locale,
    kind: 'gift_voucher_bought',
    subject: receipt.subject,
    text_body: receipt.text,
    html_body: receipt.html,
    dedupe_key: `gift_voucher_bought:${voucher.id}`,
    created_at: now,
    next_attempt_at: now,
  });
}

/**
 * What a voucher's checkout does (issue 31): paid → the sale, the code, the invoice and the e-mails, once;
 * awaiting → the method and voucher recorded; expired → the session closed. Runs in the fulfilling transaction.
 */
export const applyVoucherOutcome = creditSaleOutcome(sellVoucher);

/** What a voucher's checkout result shows: the voucher (its code once paid) and the money awaited. */
export async function voucherSessionStatus(
  db: Db,
  session: checkoutRepository.CheckoutSessionRow,
  now: Date,
): Promise<Pick<Schemas['CheckoutSessionStatus'], 'gift_voucher' | 'awaiting_payment'>> {
  const voucher = await repository.findVoucher(db, session.gift_voucher_id!);
  return {
    gift_voucher: {
      amount_eur: centsToEuros(voucher.amount_cents),
      recipient_name: voucher.recipient_name,
      recipient_email: voucher.recipient_email,
      code: voucher.code,
      expires_at: voucher.expires_at?.toISOString() ?? null,
    },
    ...awaitedCreditPayment(session, VOUCHER_TIME_ZONE, now),
  };
}

function voucherView(row: VoucherRow, now: Date): Schemas['GiftVoucher'] {
  return {
    id: row.id,
    amount_eur: centsToEuros(row.amount_cents),
    recipient_name: row.recipient_name,
    recipient_email: row.recipient_email,
    message: row.message,
    status: voucherStatus(row, now),
    code: row.code,
    issued_at: row.issued_at?.toISOString() ?? null,
    expires_at: row.expires_at?.toISOString() ?? null,
  };
}

export function createVoucherService(deps: BookingServiceDependencies) {
  const { db, clock } = deps;

  return {
    /** `POST /gift-vouchers`: a checkout for the voucher, the voucher recorded unpaid until its money arrives. */
    async buy(
      userId: string,
      input: Schemas['GiftVoucherRequest'],
      locale: Locale,
    ): Promise<Schemas['CreateBookingResponse']> {
      const now = clock.now();
      const amountCents = eurosToCents(input.amount_eur);
      // Euros with cents: 10.005 is no amount anyone can pay.
      if (Math.abs(amountCents / 100 - input.amount_eur) > 1e-9) {
        throw new AppError(
          'validation_failed',
          { problems: (locale) => translate(locale, AMOUNT_IN_CENTS) },
          { fields: [{ field: 'amount_eur', problem: 'invalid' }] },
        );
      }
      const { user, voucherId } = await runTransaction(
        db,
        { name: 'buyGiftVoucher', log: deps.log },
        async (trx) => {
          const user = await requireBuyer(trx, userId, deps.contact);
          // The sale is the revenue of the first bookable branch (a voucher is spent at any branch).
          const branchId = await catalogRepository.firstBranchId(trx);
          if (branchId === undefined) throw new AppError('branch_not_found');
          const id = await repository.insertVoucher(trx, {
            buyer_id: user.id,
            amount_cents: amountCents,
            recipient_name: input.recipient_name.trim(),
            recipient_email: input.recipient_email.trim().toLowerCase(),
            message: input.message?.trim() || null,
            locale,
            branch_id: branchId,
            created_at: dateFromInstant(now),
          });
          return { user, voucherId: id };
        },
      );
      let opened;
      try {
        opened = await deps.payments.createCheckoutSession({
          amountCents,
          currency: 'eur',
          lineItems: [{ name: `${deps.companyName}: ${input.recipient_name.trim()}`, amountCents }],
          customerEmail: user.email,
          locale,
          expiresAt: now.add({ minutes: deps.checkoutExpiryMinutes }),
          returnUrl: checkoutReturnUrl(deps.publicUrl, locale, SESSION_ID_PLACEHOLDER, null),
          idempotencyKey: `gift-voucher-${voucherId}-${randomUUID()}`,
          metadata: { gift_voucher_id: String(voucherId), user_id: user.id },
          multibanco: true,
        });
      } catch (error) {
        throw providerUnavailable(error);
      }
      await runTransaction(db, { name: 'recordVoucherCheckout', log: deps.log }, async (trx) => {
        await bookingRepository.insertCheckoutSession(trx, {
          id: opened.id,
          provider: deps.payments.name,
          user_id: user.id,
          amount_cents: amountCents,
          client_secret: opened.clientSecret,
          locale,
          booking_date: null,
          expires_at: dateFromInstant(opened.expiresAt),
          multibanco_allowed: true,
          gift_voucher_id: voucherId,
        });
        await repository.updateVoucher(trx, voucherId, { checkout_session_id: opened.id });
      });
      return { checkout_session: { clientSecret: opened.clientSecret } };
    },

    /** `GET /gift-vouchers`: what the member bought, newest first (those whose checkout never opened left out). */
    async listBought(userId: string): Promise<Schemas['GiftVoucher'][]> {
      const now = dateFromInstant(clock.now());
      const rows = await repository.listVouchersOfBuyer(db, userId);
      return rows.map((row) => voucherView(row, now));
    },

    /**
     * `POST /wallet/redeem`: the voucher's amount into the member's wallet, once ever (its row locked), as a lot
     * of euros at every branch until the voucher expires.
     */
    async redeem(userId: string, typed: string): Promise<Schemas['WalletLot']> {
      const code = normaliseVoucherCode(typed);
      if (code === null) throw new AppError('voucher_not_found');
      const now = dateFromInstant(clock.now());
      return runTransaction(db, { name: 'redeemGiftVoucher', log: deps.log }, async (trx) => {
        const voucher = await repository.lockVoucherByCode(trx, code);
        if (!voucher || voucher.issued_at === null) throw new AppError('voucher_not_found');
        if (voucher.redeemed_at !== null) throw new AppError('voucher_redeemed');
        if (voucher.expires_at! <= now) throw new AppError('voucher_expired');
        const name = `Vale ${code}`;
        const lotId = await grantLot(
          trx,
          {
            userId,
            creditPackId: null,
            name,
            unit: 'cents',
            amount: voucher.amount_cents,
            scope: { branch_ids: null, weekdays: null, from_minute: null, to_minute: null },
            ledgerEntryId: null,
            checkoutSessionId: null,
            expiresAt: voucher.expires_at!,
          },
          memberActor(userId),
          now,
        );
        await repository.linkLotToVoucher(trx, lotId, voucher.id);
        await repository.updateVoucher(trx, voucher.id, {
          redeemed_at: now,
          redeemed_by: userId,
          lot_id: lotId,
        });
        return {
          id: lotId,
          name,
          unit: 'eur',
          initial: centsToEuros(voucher.amount_cents),
          remaining: centsToEuros(voucher.amount_cents),
          bought_at: now.toISOString(),
          expires_at: voucher.expires_at!.toISOString(),
          expired: false,
          scope: { branches: null, weekdays: null, from_time: null, to_time: null },
        };
      });
    },
  };
}

/** The console's list (`GET /admin/gift-vouchers`), newest first, at most 500. */
export async function listGiftVouchersForConsole(
  db: Db,
  now: Date,
  status?: Schemas['GiftVoucherStatus'] | 'expiring',
): Promise<Schemas['AdminGiftVoucher'][]> {
  let query = db
    .selectFrom('gift_vouchers as voucher')
    .leftJoin('users as buyer', 'buyer.id', 'voucher.buyer_id')
    .leftJoin('users as redeemer', 'redeemer.id', 'voucher.redeemed_by')
    .selectAll('voucher')
    .select([
      'buyer.email as buyer_email',
      'buyer.deleted_at as buyer_deleted_at',
      'redeemer.email as redeemer_email',
    ])
    .where('voucher.checkout_session_id', 'is not', null)
    .orderBy('voucher.id', 'desc')
    .limit(500);
  if (status === 'unpaid') query = query.where('voucher.issued_at', 'is', null);
  if (status === 'redeemed') query = query.where('voucher.redeemed_at', 'is not', null);
  if (status === 'issued' || status === 'expiring' || status === 'expired') {
    query = query.where('voucher.issued_at', 'is not', null).where('voucher.redeemed_at', 'is', null);
    query =
      status === 'expired'
        ? query.where('voucher.expires_at', '<=', now)
        : query.where('voucher.expires_at', '>', now);
    if (status === 'expiring')
      query = query.where('voucher.expires_at', '<=', new Date(now.getTime() + 30 * DAY_MS));
  }
  return (await query.execute()).map((row) => ({
    id: row.id,
    code: row.code,
    amount_eur: centsToEuros(row.amount_cents),
    buyer_email: row.buyer_deleted_at === null ? row.buyer_email : null,
    recipient_name: row.recipient_name,
    recipient_email: row.recipient_email,
    status: voucherStatus(row, now),
    created_at: row.created_at.toISOString(),
    issued_at: row.issued_at?.toISOString() ?? null,
    expires_at: row.expires_at?.toISOString() ?? null,
    redeemed_at: row.redeemed_at?.toISOString() ?? null,
    redeemed_by_email: row.redeemer_email ?? null,
  }));
}

export type VoucherService = ReturnType<typeof createVoucherService>;
