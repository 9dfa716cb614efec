import { Readable } from 'node:stream';
import type { preParsingAsyncHookHandler } from 'fastify';
import { AppError } from '../../kernel/errors.ts';
import { assertDevelopmentCaller } from '../../http/dev-routes.ts';
import { defineHandlers } from '../../http/operations.ts';
import { isLocale, resolveLocale } from '../../kernel/i18n.ts';
import type { CheckoutService } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body's exact bytes, kept for the webhook route only (its signature covers them). */
    rawBody?: Buffer;
  }
}

export const WEBHOOK_ROUTE = '/api/checkout/webhook';
/** Seam's webhook is verified against its raw body too. */
export const LOCK_WEBHOOK_ROUTE = '/api/locks/webhook';
const RAW_BODY_LIMIT = 64 * 1024;

/**
 * Keeps the raw bytes of the webhook's body (Stripe signs those, not the parsed JSON), then hands the same bytes
 * on to the ordinary JSON parser. Every other route is left alone.
 */
export const keepWebhookRawBody: preParsingAsyncHookHandler = async (request, _reply, payload) => {
  if (request.routeOptions.url !== WEBHOOK_ROUTE && request.routeOptions.url !== LOCK_WEBHOOK_ROUTE)
    return payload;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > RAW_BODY_LIMIT) throw new AppError('payload_too_large');
    chunks.push(buffer);
  }
  const raw = Buffer.concat(chunks);
  request.rawBody = raw;
  const replay = Readable.from([raw]) as Readable & { receivedEncodedLength?: number };
  replay.receivedEncodedLength = raw.length;
  return replay;
};

/** The checkout operations that take no bearer token: the provider's webhook and the local test checkout. */
export function checkoutPublicHandlers(checkout: CheckoutService, options: { devRoutes: boolean }) {
  return defineHandlers({
    // Outside production only: shows an expired payment without waiting 30 minutes.
    expireDevCheckoutSession: async (request) => {
      assertDevelopmentCaller(request, options);
      return checkout.expireLocalSessionNow(request.params.session_id);
    },

    // Outside production only: shows a payment that arrived after its hold ended, and its refund.
    payDevCheckoutSessionLate: async (request) => {
      assertDevelopmentCaller(request, options);
      return checkout.payLocalSessionLate(request.params.session_id);
    },

    stripeWebhook: async (request) => {
      const signature = request.headers['stripe-signature'];
      return checkout.receiveWebhook(
        request.rawBody ?? '',
        typeof signature === 'string' ? signature : undefined,
      );
    },

    getLocalCheckoutPage: async (request, reply) => {
      // An iframe sends no `locale` header: then the language the booking was made in.
      const header = request.headers.locale;
      const locale =
        typeof header === 'string' && isLocale(header.trim().slice(0, 2).toLowerCase())
          ? resolveLocale(header)
          : null;
      const page = await checkout.localCheckoutPage({ sessionId: request.params.session_id, locale });
      return reply
        .header('content-security-policy', page.contentSecurityPolicy)
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .type('text/html; charset=utf-8')
        .send(page.html);
    },

    // Outside production only: the money of a local Multibanco voucher arrives.
    payDevCheckoutVoucher: async (request) => {
      assertDevelopmentCaller(request, options);
      return checkout.payLocalVoucher(request.params.session_id);
    },

    completeLocalCheckout: async (request) =>
      checkout.completeLocalCheckout({
        sessionId: request.params.session_id,
        method: request.body.method,
        cardNumber: request.body.card_number,
        mbWayPhone: request.body.mb_way_phone,
        mbWayResponse: request.body.mb_way_response,
      }),
  });
}
