import Stripe from 'stripe';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { createStripePaymentProvider } from '../../server/adapters/payments/stripe.ts';
import { AppError } from '../../server/kernel/errors.ts';

// The Stripe adapter against the official SDK with its HTTP layer replaced: no network, real request encoding.

type Captured = { method: string; url: string; headers: Headers; body: URLSearchParams };

function fakeStripe(answer: (request: Captured) => { status?: number; body: unknown }) {
  const requests: Captured[] = [];
  const fetchFn = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request: Captured = {
      method: init?.method ?? 'GET',
      url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      headers: new Headers(init?.headers),
      body: new URLSearchParams(typeof init?.body === 'string' ? init.body : ''),
    };
    requests.push(request);
    const { status = 200, body } = answer(request);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  const client = new Stripe('sk_test_123', {
    httpClient: Stripe.createFetchHttpClient(fetchFn),
    maxNetworkRetries: 0,
  });
  return { client, requests };
}

const session = {
  id: 'cs_test_abc',
  object: 'checkout.session',
  client_secret: 'cs_test_abc_secret_xyz',
  status: 'open',
  payment_status: 'unpaid',
  payment_intent: null,
  amount_total: 2750,
  expires_at: 1774003500,
};

describe('the Stripe payment provider', () => {
  it('opens an Embedded Checkout session with the return URL template and an idempotency key', async () => {
    const { client, requests } = fakeStripe(() => ({ body: session }));
    const stripe = createStripePaymentProvider({
      secretKey: 'sk_test_123',
      webhookSecret: 'whsec_x',
      client,
    });
    const expiresAt = Temporal.Now.instant().add({ minutes: 45 });
    const opened = await stripe.createCheckoutSession({
      amountCents: 2750,
      currency: 'eur',
      lineItems: [
        { name: 'Lisboa: 10:00–11:00', amountCents: 1500 },
        { name: 'Lisboa: 11:00–12:00', amountCents: 1250 },
      ],
      customerEmail: 'ana@example.com',
      locale: 'pt',
      expiresAt,
      returnUrl: 'https://gym.example/pt?stripe_session_id={CHECKOUT_SESSION_ID}&booking_date=2026-03-25',
      idempotencyKey: 'booking-checkout-abc',
      metadata: { booking_ids: '1,2' },
      multibanco: false,
    });

    expect(opened).toMatchObject({
      id: 'cs_test_abc',
      clientSecret: 'cs_test_abc_secret_xyz',
      status: 'open',
      paymentStatus: 'unpaid',
      amountCents: 2750,
    });
    expect(opened.expiresAt.epochMilliseconds).toBe(1774003500 * 1000);
    const [request] = requests;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('https://api.stripe.com/v1/checkout/sessions');
    expect(request!.headers.get('idempotency-key')).toBe('booking-checkout-abc');
    expect(request!.body.get('ui_mode')).toBe('embedded_page');
    expect(request!.body.get('mode')).toBe('payment');
    expect(request!.body.get('return_url')).toBe(
      'https://gym.example/pt?stripe_session_id={CHECKOUT_SESSION_ID}&booking_date=2026-03-25',
    );
    expect(request!.body.get('line_items[1][price_data][unit_amount]')).toBe('1250');
    expect(request!.body.get('line_items[0][price_data][currency]')).toBe('eur');
    expect(request!.body.get('expires_at')).toBe(String(Math.floor(expiresAt.epochMilliseconds / 1000)));
    expect(request!.body.get('metadata[booking_ids]')).toBe('1,2');
    // Dynamic payment methods (cards, wallets, MB WAY), less Multibanco for a booking too soon for a voucher.
    expect(request!.body.get('payment_method_types[0]')).toBeNull();
    expect(request!.body.get('excluded_payment_method_types[0]')).toBe('multibanco');
  });

  it('never asks for an expiry shorter than Stripe accepts', async () => {
    const { client, requests } = fakeStripe(() => ({ body: session }));
    const stripe = createStripePaymentProvider({
      secretKey: 'sk_test_123',
      webhookSecret: 'whsec_x',
      client,
    });
    await stripe.createCheckoutSession({
      amountCents: 1500,
      currency: 'eur',
      lineItems: [{ name: 'x', amountCents: 1500 }],
      customerEmail: null,
      locale: 'en',
      expiresAt: Temporal.Now.instant().add({ minutes: 29 }),
      returnUrl: 'https://gym.example/en',
      idempotencyKey: 'k',
      metadata: {},
      multibanco: true,
    });
    // Multibanco may be offered: nothing is excluded from the Dashboard's dynamic payment methods.
    expect(requests[0]!.body.get('excluded_payment_method_types[0]')).toBeNull();
    expect(requests[0]!.body.get('payment_method_types[0]')).toBeNull();
    const sent = Number(requests[0]!.body.get('expires_at'));
    expect(sent - Date.now() / 1000).toBeGreaterThanOrEqual(30 * 60);
  });

  it('refunds against the payment intent with the idempotency key it is given', async () => {
    const { client, requests } = fakeStripe(() => ({
      body: { id: 're_123', object: 'refund', status: 'succeeded', amount: 750 },
    }));
    const stripe = createStripePaymentProvider({
      secretKey: 'sk_test_123',
      webhookSecret: 'whsec_x',
      client,
    });
    const refund = await stripe.refund({
      sessionId: 'cs_test_abc',
      paymentIntentId: 'pi_123',
      amountCents: 750,
      idempotencyKey: 'cancel-refund-7',
      metadata: { booking_id: '7' },
    });
    expect(refund).toEqual({ id: 're_123', status: 'succeeded' });
    expect(requests[0]!.url).toBe('https://api.stripe.com/v1/refunds');
    expect(requests[0]!.headers.get('idempotency-key')).toBe('cancel-refund-7');
    expect(requests[0]!.body.get('payment_intent')).toBe('pi_123');
    expect(requests[0]!.body.get('amount')).toBe('750');
  });

  it('reports Stripe failures as provider errors and an unknown session as none', async () => {
    const { client } = fakeStripe((request) =>
      request.url.includes('/checkout/sessions/')
        ? {
            status: 404,
            body: {
              error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such session' },
            },
          }
        : { status: 500, body: { error: { type: 'api_error', message: 'boom' } } },
    );
    const stripe = createStripePaymentProvider({
      secretKey: 'sk_test_123',
      webhookSecret: 'whsec_x',
      client,
    });
    expect(await stripe.retrieveSession('cs_missing')).toBeNull();
    await expect(
      stripe.refund({
        sessionId: 'cs',
        paymentIntentId: 'pi',
        amountCents: 1,
        idempotencyKey: 'k',
        metadata: {},
      }),
    ).rejects.toMatchObject({ name: 'PaymentProviderError' });
  });

  it('reads a correctly signed checkout event and refuses a bad, stale or missing signature', () => {
    const { client } = fakeStripe(() => ({ body: {} }));
    const stripe = createStripePaymentProvider({
      secretKey: 'sk_test_123',
      webhookSecret: 'whsec_good',
      client,
    });
    const payload = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { ...session, status: 'complete', payment_status: 'paid', payment_intent: 'pi_9' } },
    });
    const event = stripe.verifyWebhook(
      payload,
      client.webhooks.generateTestHeaderString({ payload, secret: 'whsec_good' }),
    );
    expect(event).toMatchObject({
      id: 'evt_1',
      type: 'checkout.session.completed',
      session: { id: 'cs_test_abc', status: 'complete', paymentStatus: 'paid', paymentIntentId: 'pi_9' },
    });
    const refusals = [
      client.webhooks.generateTestHeaderString({ payload, secret: 'whsec_bad' }),
      client.webhooks.generateTestHeaderString({
        payload,
        secret: 'whsec_good',
        timestamp: Math.floor(Date.now() / 1000) - 301,
      }),
      undefined,
    ];
    for (const signature of refusals) {
      let caught: unknown;
      try {
        stripe.verifyWebhook(payload, signature);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(AppError);
      expect((caught as AppError).code).toBe('invalid_webhook_signature');
    }
  });
});
