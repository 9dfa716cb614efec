import type { ErrorBody } from './support/accounts.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLocalPaymentProvider } from '../../server/adapters/payments/local.ts';
import { buildApp } from '../../server/app.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import { bookingService, bookingsOf, lisbonSlot, verifiedUser } from './bookings-fixtures.ts';
import { emptyAllTables, freshDatabaseConfig, PGLITE_ONLY } from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';

// The checkout routes that need no bearer token: the local test checkout and Stripe's webhook.

const clientDist = mkdtempSync(path.join(tmpdir(), 'gym-dist-'));
writeFileSync(path.join(clientDist, 'index.html'), '<!doctype html><title>app</title><div id="root"></div>');
afterAll(() => rmSync(clientDist, { recursive: true, force: true }));

const WEBHOOK_SECRET = 'whsec_test_secret';

function testConfig(database: Config['database'], overrides: Record<string, string> = {}): Config {
  return {
    ...loadConfig({
      NODE_ENV: 'test',
      SEED_DEMO_DATA: 'false',
      SLOT_HORIZON_DAYS: '1',
      CLIENT_DIST_DIR: clientDist,
      PUBLIC_URL: 'https://gym.example',
      LOG_LEVEL: 'silent',
      ...overrides,
    }),
    database,
  };
}

describe.each(PGLITE_ONLY)('the checkout routes on %s', (target) => {
  const clock = fixedClock('2026-03-20T10:00:00Z');

  describe('with the local provider', () => {
    let app: FastifyInstance;
    let cleanup: () => Promise<void>;
    let user: string;
    let sessionId: string;

    beforeAll(async () => {
      const database = await freshDatabaseConfig(target);
      cleanup = database.cleanup;
      app = await buildApp(testConfig(database.config), { clock });
    });
    afterAll(async () => {
      await app?.close();
      await cleanup?.();
    });
    beforeEach(async () => {
      clock.set('2026-03-20T10:00:00Z');
      await emptyAllTables(app.db);
      const branchId = await createBranch(app.db);
      user = await verifiedUser(app.db);
      const slot = await lisbonSlot(app.db, branchId, '2026-03-25T10:00');
      const { checkout_session } = await bookingService(app.db, clock).createBooking({
        userId: user,
        slotIds: [slot],
        couponId: null,
        expectedTotalEur: 15,
        locale: 'fr',
      });
      sessionId = checkout_session.clientSecret!.split('_secret_')[0]!;
    });

    it('ends an open local session on request (development only), releasing its holds like the expiry job', async () => {
      const expired = await app.inject({ method: 'POST', url: `/api/dev/checkout/${sessionId}/expire` });
      expect(expired.statusCode).toBe(200);
      const released = [
        expect.objectContaining({ status: 'expired', refunded_eur: 0, time_zone: 'Europe/Lisbon' }),
      ];
      expect(expired.json()).toEqual({ status: 'expired', clientSecret: null, bookings: released });
      expect((await bookingsOf(app.db, user)).map((booking) => booking.status)).toEqual(['expired']);
      // Paying it afterwards is refused, and asking again changes nothing.
      const late = await app.inject({
        method: 'POST',
        url: `/api/checkout/local/${sessionId}/complete`,
        payload: { card_number: '4242 4242 4242 4242' },
      });
      expect(late.statusCode).toBeGreaterThanOrEqual(400);
      const again = await app.inject({ method: 'POST', url: `/api/dev/checkout/${sessionId}/expire` });
      expect(again.json()).toEqual({ status: 'expired', clientSecret: null, bookings: released });
      const unknown = await app.inject({ method: 'POST', url: '/api/dev/checkout/cs_local_nope/expire' });
      expect(unknown.statusCode).toBe(404);
    });

    it('serves the test card page in the request’s language, with a CSP of its own', async () => {
      const response = await app.inject({
        url: `/api/checkout/local/${sessionId}`,
        headers: { locale: 'de' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('<html lang="de">');
      expect(response.body).toContain('Kartennummer');
      expect(response.body).toContain('15,00');
      const policy = String(response.headers['content-security-policy']);
      const nonce = /script-src 'nonce-([^']+)'/.exec(policy)?.[1];
      expect(nonce).toBeTruthy();
      expect(response.body).toContain(`<script nonce="${nonce}">`);
      expect(policy).toContain("frame-ancestors 'self'");
    });

    it('falls back to the language the booking was made in when the frame sends none', async () => {
      const response = await app.inject(`/api/checkout/local/${sessionId}`);
      expect(response.body).toContain('<html lang="fr">');
      expect(response.body).toContain('Numéro de carte');
    });

    it('answers 404 for a session that does not exist', async () => {
      const response = await app.inject({
        url: '/api/checkout/local/cs_local_nope',
        headers: { locale: 'en' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        code: 'checkout_session_not_found',
        detail: 'Checkout session not found.',
      });
    });

    it('declines 4000 0000 0000 0002 and keeps the session open, then 4242 4242 4242 4242 pays', async () => {
      const complete = (card: string) =>
        app.inject({
          method: 'POST',
          url: `/api/checkout/local/${sessionId}/complete`,
          payload: { card_number: card },
        });
      const declined = await complete('4000 0000 0000 0002');
      expect(declined.statusCode).toBe(200);
      expect(declined.json()).toEqual({
        status: 'open',
        outcome: 'declined',
        return_url: `https://gym.example/fr?stripe_session_id=${sessionId}&booking_date=2026-03-25`,
      });
      expect((await bookingsOf(app.db, user)).map((b) => b.status)).toEqual(['pending']);

      const paid = await complete('4242 4242 4242 4242');
      expect(paid.statusCode).toBe(200);
      expect(paid.json()).toMatchObject({ status: 'complete', outcome: 'paid' });
      expect((await bookingsOf(app.db, user)).map((b) => b.status)).toEqual(['confirmed']);
      const events = await app.db.selectFrom('payment_events').select(['provider', 'type']).execute();
      expect(events).toEqual([{ provider: 'local', type: 'checkout.session.completed' }]);

      const again = await complete('4242424242424242');
      expect(again.statusCode).toBe(409);
      expect(again.json<ErrorBody>().code).toBe('checkout_session_closed');
    });

    it('refuses to pay an expired session and releases its hold', async () => {
      clock.advance({ minutes: 31 });
      const response = await app.inject({
        method: 'POST',
        url: `/api/checkout/local/${sessionId}/complete`,
        payload: { card_number: '4242424242424242' },
      });
      expect(response.statusCode).toBe(409);
      expect((await bookingsOf(app.db, user)).map((b) => b.status)).toEqual(['expired']);
    });

    it('refuses any webhook when Stripe is not configured', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/checkout/webhook',
        headers: { 'stripe-signature': 't=1,v1=abc', 'content-type': 'application/json' },
        payload: JSON.stringify({ id: 'evt_1', type: 'checkout.session.completed' }),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json<ErrorBody>().code).toBe('invalid_webhook_signature');
    });
  });

  describe('with Stripe configured', () => {
    let app: FastifyInstance;
    let cleanup: () => Promise<void>;
    let user: string;
    const sessionId = 'cs_test_webhook_1';
    const stripe = new Stripe('sk_test_123');

    beforeAll(async () => {
      const database = await freshDatabaseConfig(target);
      cleanup = database.cleanup;
      app = await buildApp(
        testConfig(database.config, {
          STRIPE_SECRET_KEY: 'sk_test_123',
          STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        }),
        { clock },
      );
    });
    afterAll(async () => {
      await app?.close();
      await cleanup?.();
    });
    beforeEach(async () => {
      await emptyAllTables(app.db);
      const branchId = await createBranch(app.db);
      user = await verifiedUser(app.db);
      const slot = await lisbonSlot(app.db, branchId, '2026-03-25T10:00');
      // The booking as the Stripe provider would have opened it, without the network.
      const local = createLocalPaymentProvider({ db: app.db, clock });
      await bookingService(app.db, clock, {
        payments: {
          ...local,
          name: 'stripe',
          createCheckoutSession: async (input) => ({
            ...(await local.createCheckoutSession(input)),
            id: sessionId,
            clientSecret: `${sessionId}_secret_x`,
          }),
        },
      }).createBooking({ userId: user, slotIds: [slot], couponId: null, expectedTotalEur: 15, locale: 'pt' });
    });

    const completedEvent = JSON.stringify({
      id: 'evt_test_completed',
      object: 'event',
      type: 'checkout.session.completed',
      data: {
        object: {
          id: sessionId,
          object: 'checkout.session',
          status: 'complete',
          payment_status: 'paid',
          payment_intent: 'pi_test_1',
          amount_total: 1500,
          expires_at: 1774002600,
          client_secret: null,
        },
      },
    });

    function post(payload: string, signature: string) {
      return app.inject({
        method: 'POST',
        url: '/api/checkout/webhook',
        headers: { 'stripe-signature': signature, 'content-type': 'application/json' },
        payload,
      });
    }

    it('accepts an event signed over the raw body and fulfils the session once', async () => {
      const signature = stripe.webhooks.generateTestHeaderString({
        payload: completedEvent,
        secret: WEBHOOK_SECRET,
      });
      const first = await post(completedEvent, signature);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ received: true });
      expect((await bookingsOf(app.db, user)).map((b) => b.status)).toEqual(['confirmed']);
      const again = await post(completedEvent, signature);
      expect(again.statusCode).toBe(200);
      expect(await app.db.selectFrom('outbox').selectAll().execute()).toHaveLength(1);
    });

    it('answers 400 and changes nothing for a wrong signature, a re-serialised body or a stale signature', async () => {
      const wrongSecret = stripe.webhooks.generateTestHeaderString({
        payload: completedEvent,
        secret: 'whsec_other',
      });
      expect((await post(completedEvent, wrongSecret)).statusCode).toBe(400);

      const signature = stripe.webhooks.generateTestHeaderString({
        payload: completedEvent,
        secret: WEBHOOK_SECRET,
      });
      const reformatted = JSON.stringify(JSON.parse(completedEvent), null, 2);
      expect((await post(reformatted, signature)).statusCode).toBe(400);

      const stale = stripe.webhooks.generateTestHeaderString({
        payload: completedEvent,
        secret: WEBHOOK_SECRET,
        timestamp: Math.floor(Date.now() / 1000) - 600,
      });
      const response = await post(completedEvent, stale);
      expect(response.statusCode).toBe(400);
      expect(response.json<ErrorBody>().code).toBe('invalid_webhook_signature');

      expect((await bookingsOf(app.db, user)).map((b) => b.status)).toEqual(['pending']);
      expect(await app.db.selectFrom('payment_events').selectAll().execute()).toEqual([]);
    });

    it('needs the signature header (422 from the contract)', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/checkout/webhook',
        headers: { 'content-type': 'application/json' },
        payload: completedEvent,
      });
      expect(response.statusCode).toBe(422);
    });
  });
});
