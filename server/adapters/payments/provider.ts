import type { Temporal } from 'temporal-polyfill';
import type { Locale } from '../../kernel/i18n.ts';

// One interface for every card payment provider: `local` (simulated, offline) and `stripe`.

export type ProviderName = 'local' | 'stripe';
export type SessionStatus = 'open' | 'complete' | 'expired';
export type PaymentStatus = 'paid' | 'unpaid' | 'no_payment_required';
/** How a checkout was paid (or is being paid): Stripe's dynamic methods the product knows by name. */
export type PaymentMethodKind = 'card' | 'mb_way' | 'multibanco';

/** A Multibanco voucher: what the payer types at an ATM or in a banking app, until it expires. */
export type MultibancoVoucher = {
  entity: string;
  reference: string;
  expiresAt: Temporal.Instant;
  /** The provider's printable voucher page, when it has one. */
  url: string | null;
};

/** A checkout session as the provider sees it. */
export type ProviderSession = {
  id: string;
  /** Mounts the embedded checkout; Stripe's shape `{id}_secret_{random}`. Absent from webhook payloads. */
  clientSecret: string | null;
  status: SessionStatus;
  paymentStatus: PaymentStatus;
  /** What a refund is issued against, once paid. */
  paymentIntentId: string | null;
  amountCents: number;
  expiresAt: Temporal.Instant;
  /** The card that paid, when the provider's answer names it (the local provider's form does). */
  card?: { brand: string; last4: string } | null;
  /** The method that completed the session, when the provider's answer names it. */
  paymentMethod?: PaymentMethodKind | null;
  /** A Multibanco payment awaiting its money: the voucher the payer was given. */
  voucher?: MultibancoVoucher | null;
};

export type CheckoutLineItem = { name: string; amountCents: number };

export type CreateCheckoutSessionInput = {
  amountCents: number;
  currency: 'eur';
  lineItems: readonly CheckoutLineItem[];
  customerEmail: string | null;
  locale: Locale;
  /** When the session (and the holds it pays for) expires. */
  expiresAt: Temporal.Instant;
  /** Where the checkout sends the payer afterwards; `{CHECKOUT_SESSION_ID}` is replaced by the provider. */
  returnUrl: string;
  /** The same key for the same request, so a retried create never opens two sessions. */
  idempotencyKey: string;
  metadata: Record<string, string>;
  /**
   * Whether Multibanco may be offered: its money arrives days later, so only bookings far enough ahead
   * (MULTIBANCO_MIN_DAYS_AHEAD). Cards, MB WAY, Apple Pay and Google Pay are always offered.
   */
  multibanco: boolean;
};

export type RefundInput = {
  sessionId: string;
  paymentIntentId: string | null;
  amountCents: number;
  /** Deterministic per refunded thing, so a retried refund is never paid twice. */
  idempotencyKey: string;
  metadata: Record<string, string>;
};

export type RefundResult = { id: string; status: 'pending' | 'succeeded' | 'failed' };

/** A verified provider event about a checkout session. */
export type PaymentEvent = {
  id: string;
  type: string;
  /** The session the event is about; null for events this product does not act on. */
  session: ProviderSession | null;
  payload: unknown;
  /** Well signed, but a checkout session in it lacks its id or expiry: recorded, refused (400), never acted on. */
  malformed?: boolean;
};

/** One movement of the provider's balance (Stripe's balance transaction), in cents of its currency. */
export type BalanceTransaction = {
  id: string;
  /** Stripe's `type`: `charge`, `payment`, `refund`, `payment_refund`, `stripe_fee`, `adjustment`, … */
  type: string;
  /** When it happened at the provider. */
  created: Temporal.Instant;
  currency: string;
  /** Gross: positive money in, negative money out (a refund). */
  amountCents: number;
  /** What the provider kept (its fee; 0 for most refunds). */
  feeCents: number;
  /** Gross less fee: what reaches the bank. */
  netCents: number;
  /**
   * What the ledger calls it (`provider_reference`): a charge's payment intent, a refund's id; else the source's
   * own id (or null when the transaction has no source).
   */
  reference: string | null;
  /** The automatic payout that took it to the bank, when there is one yet. */
  payout: { id: string; arrivalDate: string; status: string } | null;
};

/** The balance movements created in [from, until), with their payouts (payouts listed up to `payoutsUntil`). */
export type BalancePeriod = {
  from: Temporal.Instant;
  until: Temporal.Instant;
  /** How late a payout of these movements may be created (a payout follows its money by days). */
  payoutsUntil: Temporal.Instant;
};

/**
 * Optional: a provider that keeps a balance (fees, payouts) lists its movements. Stripe has it; the local provider
 * moves no real money and has none.
 */
export type BalanceReader = {
  listBalanceTransactions(period: BalancePeriod): Promise<BalanceTransaction[]>;
};

export type PaymentProvider = {
  readonly name: ProviderName;
  /** Present only for a provider with a balance (Stripe). */
  readonly balance?: BalanceReader;
  createCheckoutSession: (input: CreateCheckoutSessionInput) => Promise<ProviderSession>;
  /** The session's current state at the provider; null when the provider does not know it. */
  retrieveSession(sessionId: string): Promise<ProviderSession | null>;
  refund: (input: RefundInput) => Promise<RefundResult>;
  /** Checks the signature of a webhook body (raw bytes) and reads the event, else throws `invalid_webhook_signature`. */
  verifyWebhook(rawBody: Buffer | string, signature: string | undefined): PaymentEvent;
};

/** The provider could not be reached or refused the request; callers answer 503 and change nothing. */
export class PaymentProviderError extends Error {
  /** The provider's HTTP status when it answered with an error; null when no answer came (timeout, network). */
  readonly status: number | null;
  constructor(message: string, options?: { cause?: unknown; status?: number | null }) {
    super(message, options);
    this.name = 'PaymentProviderError';
    this.status = options?.status ?? null;
  }
}

/** The template Stripe fills in with the session id; the local provider fills it in itself. */
export const SESSION_ID_PLACEHOLDER = '{CHECKOUT_SESSION_ID}';
