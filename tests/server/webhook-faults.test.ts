import type { ErrorBody } from './support/accounts.ts';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { accountTestConfig } from './support/accounts.ts';
import { freshDatabaseConfig, type FreshDatabase, PGLITE_ONLY } from './support/databases.ts';

// Signed webhook events the server cannot act on right now, or cannot read: the provider must hear 503 when a
// retry may succeed (so it retries), and 400 for an event that will never be readable, recorded, never a 500.

const WEBHOOK_SECRET = 'whsec_test_faults';
const signer = new Stripe('sk_test_faults');

function signed(event: object) {
  const payload = JSON.stringify(event);
  return {
    payload,
    headers: {
      'content-type': 'application/json',
      'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
    },
  };
}

/** A port with nothing listening: Stripe's API unreachable (connection refused). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.each(PGLITE_ONLY)('webhook events the server cannot act on (%s)', (target) => {
  let fresh: FreshDatabase;
  let app: FastifyInstance;
  beforeAll(async () => {
    fresh = await freshDatabaseConfig(target);
    app = await buildApp(
      accountTestConfig(fresh.config, {
        STRIPE_SECRET_KEY: 'sk_test_faults',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: `http://127.0.0.1:${await closedPort()}`,
      }),
      { clock: fixedClock('2026-03-20T10:30:00Z') },
    );
  });
  afterAll(async () => {
    await app?.close();
    await fresh?.cleanup();
  });

  const recorded = async (id: string) =>
    app.db.selectFrom('payment_events').select(['id', 'type']).where('id', '=', id).execute();

  it('answers 503 to a payment that needs a refund while the provider is unreachable, and keeps it for the retry', async () => {
    const event = {
      id: 'evt_orphan_payment',
      object: 'event',
      type: 'checkout.session.completed',
      data: {
        object: {
          id: 'cs_test_unknown_here',
          object: 'checkout.session',
          status: 'complete',
          payment_status: 'paid',
          payment_intent: 'pi_test_orphan',
          amount_total: 1500,
          expires_at: 1774003500,
        },
      },
    };
    const response = await app.inject({ method: 'POST', url: '/api/checkout/webhook', ...signed(event) });
    expect(response.statusCode).toBe(503);
    expect(response.json<ErrorBody>().code).toBe('payment_provider_unavailable');
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    // Not recorded: the provider's retry is processed in full, refund included.
    expect(await recorded(event.id)).toEqual([]);
  }, 60_000);

  it('answers 400 to a signed checkout event without a session id or expiry, and records it', async () => {
    const event = {
      id: 'evt_malformed_session',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { object: 'checkout.session', status: 'complete', payment_status: 'paid' } },
    };
    const response = await app.inject({ method: 'POST', url: '/api/checkout/webhook', ...signed(event) });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().code).toBe('invalid_webhook_event');
    expect(await recorded(event.id)).toEqual([{ id: event.id, type: event.type }]);
    // The same event again is answered the same way and recorded once.
    const again = await app.inject({ method: 'POST', url: '/api/checkout/webhook', ...signed(event) });
    expect(again.statusCode).toBe(400);
    expect(await recorded(event.id)).toHaveLength(1);
  });
});
