import Stripe from 'stripe';
import { Temporal } from 'temporal-polyfill';
import { AppError } from '../../kernel/errors.ts';
import {
  PaymentProviderError,
  type BalanceReader,
  type BalanceTransaction,
  type PaymentProvider,
  type PaymentMethodKind,
  type PaymentStatus,
  type ProviderSession,
  type RefundResult,
  type SessionStatus,
} from './provider.ts';

// Stripe through its official SDK: Embedded Checkout sessions (`ui_mode: 'embedded_page'`, the name this SDK's
// pinned API version gives Embedded Checkout), refunds against the payment intent, and signed webhooks.
// Every write carries an idempotency key.

/** Stripe refuses a session that expires sooner than 30 minutes after it is created; leave a minute of slack. */
const SHORTEST_EXPIRY_SECONDS = 30 * 60 + 60;
/** How old a webhook signature may be; older is a replay. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export type StripeProviderOptions = {
  secretKey: string;
  webhookSecret: string;
  /** Tests pass a client with a fake HTTP layer; production builds one. */
  client?: Stripe;
  /** Another address for Stripe's API (stripe-mock, tests); Stripe's own when null. */
  apiUrl?: string | null;
  /** Each try of a call; one retry follows a network failure. */
  timeoutMs?: number;
};

function stripeClient(options: StripeProviderOptions): Stripe {
  const api = options.apiUrl ? new URL(options.apiUrl) : null;
  return new Stripe(options.secretKey, {
    maxNetworkRetries: 1,
    timeout: options.timeoutMs ?? 3000,
    ...(api
      ? {
          host: api.hostname,
          port: Number(api.port || (api.protocol === 'http:' ? 80 : 443)),
          protocol: api.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
  });
}

/** A checkout session in an event that lacks what every session has: it can never be acted on. */
function isReadableSession(object: { id?: unknown; expires_at?: unknown }): boolean {
  return typeof object.id === 'string' && object.id !== '' && Number.isFinite(object.expires_at);
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

function sessionStatus(status: Stripe.Checkout.Session['status']): SessionStatus {
  if (status === 'complete') return 'complete';
  return status === 'expired' ? 'expired' : 'open';
}

function paymentStatus(status: Stripe.Checkout.Session['payment_status']): PaymentStatus {
  if (status === 'paid') return 'paid';
  return status === 'no_payment_required' ? 'no_payment_required' : 'unpaid';
}

const KNOWN_METHODS: readonly PaymentMethodKind[] = ['card', 'mb_way', 'multibanco'];

/** The method and the Multibanco voucher, when the session's payment intent was expanded (retrieveSession). */
function asyncPaymentOf(
  session: Stripe.Checkout.Session,
): Pick<ProviderSession, 'paymentMethod' | 'voucher'> {
  const intent = session.payment_intent;
  if (!intent || typeof intent === 'string') return {};
  const method = intent.payment_method;
  const type = method && typeof method !== 'string' ? method.type : null;
  const details = intent.next_action?.multibanco_display_details;
  const voucher =
    details?.entity && details.reference && details.expires_at
      ? {
          entity: details.entity,
          reference: details.reference,
          expiresAt: Temporal.Instant.fromEpochMilliseconds(details.expires_at * 1000),
          url: details.hosted_voucher_url ?? null,
        }
      : null;
  const paymentMethod = KNOWN_METHODS.find((known) => known === type) ?? (voucher ? 'multibanco' : null);
  return { paymentMethod, voucher };
}

export function sessionFromStripe(session: Stripe.Checkout.Session): ProviderSession {
  return {
    ...asyncPaymentOf(session),
    id: session.id,
    clientSecret: session.client_secret ?? null,
    status: sessionStatus(session.status),
    paymentStatus: paymentStatus(session.payment_status),
    paymentIntentId: idOf(session.payment_intent),
    amountCents: session.amount_total ?? 0,
    expiresAt: Temporal.Instant.fromEpochMilliseconds(session.expires_at * 1000),
  };
}

function refundStatus(status: string | null): RefundResult['status'] {
  if (status === 'succeeded') return 'succeeded';
  if (status === 'failed' || status === 'canceled') return 'failed';
  return 'pending';
}

async function call<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new PaymentProviderError(`stripe: ${what} failed`, { cause: error });
  }
}

const seconds = (instant: Temporal.Instant) => Math.floor(instant.epochMilliseconds / 1000);

/** What the ledger calls a balance transaction's source: a charge's payment intent, otherwise the source's id. */
function referenceOf(source: Stripe.BalanceTransaction['source']): string | null {
  if (!source) return null;
  if (typeof source === 'string') return source;
  if (source.object === 'charge') return idOf(source.payment_intent) ?? source.id;
  return source.id;
}

/**
 * Stripe's balance for reconciliation. Documented ways only: `GET /v1/balance_transactions` by `created` with
 * `data.source` expanded (a charge names its payment intent, a refund is its own id), and, to know the payout of
 * each, `GET /v1/payouts` by `created` then `GET /v1/balance_transactions?payout=` per automatic payout (Stripe
 * answers that filter for automatic payouts only). The SDK's auto-pagination follows `has_more` with
 * `starting_after`.
 */
function balanceReader(stripe: Stripe): BalanceReader {
  return {
    async listBalanceTransactions(period) {
      try {
        const payoutOf = new Map<string, NonNullable<BalanceTransaction['payout']>>();
        for await (const payout of stripe.payouts.list({
          created: { gte: seconds(period.from), lt: seconds(period.payoutsUntil) },
          limit: 100,
        })) {
          if (!payout.automatic) continue;
          const view = {
            id: payout.id,
            arrivalDate: new Date(payout.arrival_date * 1000).toISOString().slice(0, 10),
            status: payout.status,
          };
          for await (const carried of stripe.balanceTransactions.list({ payout: payout.id, limit: 100 })) {
            payoutOf.set(carried.id, view);
          }
        }
        const transactions: BalanceTransaction[] = [];
        for await (const transaction of stripe.balanceTransactions.list({
          created: { gte: seconds(period.from), lt: seconds(period.until) },
          limit: 100,
          expand: ['data.source'],
        })) {
          transactions.push({
            id: transaction.id,
            type: transaction.type,
            created: Temporal.Instant.fromEpochMilliseconds(transaction.created * 1000),
            currency: transaction.currency,
            amountCents: transaction.amount,
            feeCents: transaction.fee,
            netCents: transaction.net,
            reference: referenceOf(transaction.source),
            payout: payoutOf.get(transaction.id) ?? null,
          });
        }
        return transactions;
      } catch (error) {
        const status = (error as { statusCode?: unknown }).statusCode;
        throw new PaymentProviderError('stripe: reading the balance failed', {
          cause: error,
          status: typeof status === 'number' ? status : null,
        });
      }
    },
  };
}

export function createStripePaymentProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe = options.client ?? stripeClient(options);

  return {
    name: 'stripe',
    balance: balanceReader(stripe),

    async createCheckoutSession(input) {
      const earliest = Math.floor(Date.now() / 1000) + SHORTEST_EXPIRY_SECONDS;
      const session = await call('creating a checkout session', () =>
        stripe.checkout.sessions.create(
          {
            ui_mode: 'embedded_page',
            mode: 'payment',
            currency: input.currency,
            line_items: input.lineItems.map((item) => ({
              quantity: 1,
              price_data: {
                currency: input.currency,
                unit_amount: item.amountCents,
                product_data: { name: item.name },
              },
            })),
            ...(input.customerEmail ? { customer_email: input.customerEmail } : {}),
            locale: input.locale,
            expires_at: Math.max(Math.floor(input.expiresAt.epochMilliseconds / 1000), earliest),
            return_url: input.returnUrl,
            metadata: input.metadata,
            payment_intent_data: { metadata: input.metadata },
            // Dynamic payment methods: whatever the Dashboard enables for the payer (cards, Apple Pay, Google Pay,
            // MB WAY for Portuguese payers in EUR), less Multibanco when the booking is too soon for a voucher.
            ...(input.multibanco ? {} : { excluded_payment_method_types: ['multibanco' as const] }),
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      if (!session.client_secret)
        throw new PaymentProviderError('stripe: the session came without a client secret');
      return sessionFromStripe(session);
    },

    async retrieveSession(sessionId) {
      try {
        // The payment intent says which method paid and, for Multibanco, the voucher (`next_action`).
        return sessionFromStripe(
          await stripe.checkout.sessions.retrieve(sessionId, { expand: ['payment_intent.payment_method'] }),
        );
      } catch (error) {
        if ((error as { code?: string }).code === 'resource_missing') return null;
        throw new PaymentProviderError('stripe: reading a checkout session failed', { cause: error });
      }
    },

    async refund(input) {
      if (!input.paymentIntentId)
        throw new PaymentProviderError('stripe: nothing to refund without a payment intent');
      const refund = await call('refunding', () =>
        stripe.refunds.create(
          { payment_intent: input.paymentIntentId!, amount: input.amountCents, metadata: input.metadata },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      return { id: refund.id, status: refundStatus(refund.status) };
    },

    verifyWebhook(rawBody, signature) {
      if (!signature) throw new AppError('invalid_webhook_signature');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          signature,
          options.webhookSecret,
          WEBHOOK_TOLERANCE_SECONDS,
        );
      } catch {
        throw new AppError('invalid_webhook_signature');
      }
      const object = (event.data?.object ?? {}) as { object?: string; id?: unknown; expires_at?: unknown };
      const isSession = event.type.startsWith('checkout.session.') && object.object === 'checkout.session';
      if (isSession && !isReadableSession(object)) {
        return { id: event.id, type: event.type, session: null, payload: event, malformed: true };
      }
      const session = isSession ? sessionFromStripe(object as Stripe.Checkout.Session) : null;
      return { id: event.id, type: event.type, session, payload: event };
    },
  };
}
