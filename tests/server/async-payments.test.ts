import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { createLocalPaymentProvider } from '../../server/adapters/payments/local.ts';
import { createCheckoutService } from '../../server/booking/checkout/service.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { accountTestConfig } from './support/accounts.ts';
import {
  bookingDependencies,
  bookingService,
  bookingsOf,
  errorCode,
  lisbonSlot,
  verifiedUser,
} from './bookings-fixtures.ts';
import {
  DATABASE_TARGETS,
  emptyAllTables,
  freshDatabaseConfig,
  type FreshDatabase,
} from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';

// MB WAY and Multibanco through Stripe's asynchronous events, signed as Stripe signs them (issue 29, items 4
// and 5): a voucher holds its slots until it is paid, fails, expires or 48 hours before the start; money after
// a release is refunded and the member told; no door code and no invoice before the money; a card payer racing
// for the same slots gets them only once the voucher's hold is over.

const WEBHOOK_SECRET = 'whsec_test_async';
const signer = new Stripe('sk_test_async');
const SESSION = 'cs_test_voucher_1';
// The slot starts on 25 March at 10:00 in Lisbon (UTC+0), five days after "now": Multibanco is offered.
const START = Date.parse('2026-03-25T10:00:00Z');
const HOUR = 3_600_000;

type FakeStripe = {
  url: string;
  voucherExpiresAt: number;
  method: string;
  refunds: string[];
  close(): Promise<void>;
};

/** Stripe's API as the adapter reads it: the session with its payment intent expanded, and refunds. */
async function fakeStripeApi(): Promise<FakeStripe> {
  const state: Omit<FakeStripe, 'url' | 'close'> = {
    voucherExpiresAt: START,
    method: 'multibanco',
    refunds: [],
  };
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      if (request.method === 'POST' && request.url === '/v1/refunds') {
        state.refunds.push(new URLSearchParams(body).get('amount') ?? '');
        response.end(
          JSON.stringify({ id: `re_test_${state.refunds.length}`, object: 'refund', status: 'succeeded' }),
        );
        return;
      }
      const id = /^\/v1\/checkout\/sessions\/([^?]+)/.exec(request.url ?? '')?.[1];
      const multibanco = state.method === 'multibanco';
      response.end(
        JSON.stringify({
          id,
          object: 'checkout.session',
          status: 'complete',
          payment_status: 'unpaid',
          amount_total: 1500,
          expires_at: 1774002600,
          payment_intent: {
            id: 'pi_test_async',
            object: 'payment_intent',
            payment_method: { id: 'pm_test', object: 'payment_method', type: state.method },
            next_action: multibanco
              ? {
                  type: 'multibanco_display_details',
                  multibanco_display_details: {
                    entity: '11249',
                    reference: '123456789',
                    expires_at: Math.floor(state.voucherExpiresAt / 1000),
                    hosted_voucher_url: 'https://payments.stripe.com/multibanco/voucher/test',
                  },
                }
              : null,
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

function sessionEvent(id: string, type: string, paymentStatus: 'paid' | 'unpaid', sessionId = SESSION) {
  return {
    id,
    object: 'event',
    type,
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        status: 'complete',
        payment_status: paymentStatus,
        payment_intent: 'pi_test_async',
        amount_total: 1500,
        expires_at: 1774002600,
      },
    },
  };
}

describe.each(DATABASE_TARGETS)('MB WAY and Multibanco payments (%s)', (target) => {
  const clock = fixedClock('2026-03-20T10:00:00Z');
  let fresh: FreshDatabase;
  let stripeApi: FakeStripe;
  let app: FastifyInstance;
  let member: string;
  let rival: string;
  let slot: number;

  beforeAll(async () => {
    fresh = await freshDatabaseConfig(target);
    stripeApi = await fakeStripeApi();
    app = await buildApp(
      accountTestConfig(fresh.config, {
        STRIPE_SECRET_KEY: 'sk_test_async',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: stripeApi.url,
      }),
      { clock },
    );
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await stripeApi?.close();
    await fresh?.cleanup();
  });

  /** A booking service whose provider opens sessions as Stripe would, without the network. */
  function bookings(sessionId: string) {
    const local = createLocalPaymentProvider({ db: app.db, clock });
    return bookingService(app.db, clock, {
      payments: {
        ...local,
        name: 'stripe',
        createCheckoutSession: async (input) => ({
          ...(await local.createCheckoutSession(input)),
          id: sessionId,
          clientSecret: `${sessionId}_secret_x`,
        }),
      },
    });
  }
  const book = (userId: string, sessionId: string) =>
    bookings(sessionId).createBooking({
      userId,
      slotIds: [slot],
      couponId: null,
      expectedTotalEur: 15,
      locale: 'pt',
    });

  async function deliver(event: object) {
    const payload = JSON.stringify(event);
    const response = await app.inject({
      method: 'POST',
      url: '/api/checkout/webhook',
      payload,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  const rows = (table: 'lock_codes' | 'ledger_entries' | 'tax_documents' | 'refunds') =>
    app.db.selectFrom(table).selectAll().execute();
  const kinds = async () =>
    (await app.db.selectFrom('outbox').select('kind').execute()).map((row) => row.kind);
  const session = () =>
    app.db.selectFrom('checkout_sessions').selectAll().where('id', '=', SESSION).executeTakeFirstOrThrow();

  beforeEach(async () => {
    clock.set('2026-03-20T10:00:00Z');
    stripeApi.method = 'multibanco';
    stripeApi.voucherExpiresAt = Date.parse('2026-03-22T10:00:00Z');
    stripeApi.refunds.length = 0;
    await emptyAllTables(app.db);
    const branch = await createBranch(app.db);
    member = await verifiedUser(app.db, { email: 'ana@example.com' });
    rival = await verifiedUser(app.db, { email: 'rui@example.com' });
    slot = await lisbonSlot(app.db, branch, '2026-03-25T10:00');
    await book(member, SESSION);
  });

  it('offers Multibanco only for bookings far enough ahead', async () => {
    expect((await session()).multibanco_allowed).toBe(true);
    const soon = await lisbonSlot(app.db, await createBranch(app.db), '2026-03-22T10:00');
    await bookings('cs_test_soon').createBooking({
      userId: rival,
      slotIds: [soon],
      couponId: null,
      expectedTotalEur: 15,
      locale: 'pt',
    });
    const row = await app.db
      .selectFrom('checkout_sessions')
      .selectAll()
      .where('id', '=', 'cs_test_soon')
      .executeTakeFirstOrThrow();
    expect(row.multibanco_allowed).toBe(false);
  });

  it('holds the slot while the voucher is unpaid, then confirms it when the money arrives', async () => {
    await deliver(sessionEvent('evt_mb_completed', 'checkout.session.completed', 'unpaid'));
    const stored = await session();
    expect(stored).toMatchObject({
      status: 'complete',
      payment_status: 'unpaid',
      payment_method: 'multibanco',
      voucher_entity: '11249',
      voucher_reference: '123456789',
      voucher_url: 'https://payments.stripe.com/multibanco/voucher/test',
    });
    // Held until the voucher expires (before 48 hours ahead of the start), long after the checkout's 30 minutes.
    const [held] = await bookingsOf(app.db, member);
    expect(held).toMatchObject({ status: 'pending' });
    expect(held!.hold_expires_at?.toISOString()).toBe('2026-03-22T10:00:00.000Z');
    // No money yet: no door code, no ledger row, no invoice, no confirmation.
    expect(await rows('lock_codes')).toEqual([]);
    expect(await rows('ledger_entries')).toEqual([]);
    expect(await rows('tax_documents')).toEqual([]);
    expect(await kinds()).toEqual(['payment_voucher']);

    // A day later a card payer wants the same slot: still the voucher's.
    clock.set('2026-03-21T10:00:00Z');
    expect(await errorCode(book(rival, 'cs_test_rival'))).toBe('slot_unavailable');
    // The session status says what to pay.
    const status = await createCheckoutService({
      ...bookingDependencies(app.db, clock),
      db: app.db,
    }).reconcileSession({
      sessionId: SESSION,
    });
    expect(status.awaiting_payment).toMatchObject({
      method: 'multibanco',
      amount_eur: 15,
      held_until: '2026-03-22T10:00:00+00:00',
      voucher: { entity: '11249', reference: '123456789', expires_at: '2026-03-22T10:00:00+00:00' },
    });

    await deliver(sessionEvent('evt_mb_paid', 'checkout.session.async_payment_succeeded', 'paid'));
    expect((await bookingsOf(app.db, member)).map((b) => b.status)).toEqual(['confirmed']);
    expect(await rows('lock_codes')).toHaveLength(1);
    expect((await rows('ledger_entries')).map((row) => [row.kind, row.amount_cents])).toEqual([
      ['payment', 1500],
    ]);
    expect(await rows('tax_documents')).toHaveLength(1);
    expect(await kinds()).toContain('booking_confirmed');
    expect(stripeApi.refunds).toEqual([]);
  });

  it('releases the slot when the voucher payment fails', async () => {
    await deliver(sessionEvent('evt_mb_completed', 'checkout.session.completed', 'unpaid'));
    await deliver(sessionEvent('evt_mb_failed', 'checkout.session.async_payment_failed', 'unpaid'));
    expect((await bookingsOf(app.db, member)).map((b) => b.status)).toEqual(['expired']);
    await book(rival, 'cs_test_rival');
    expect((await bookingsOf(app.db, rival)).map((b) => b.status)).toEqual(['pending']);
    expect(await rows('ledger_entries')).toEqual([]);
  });

  it('releases the slot when the voucher expires, and refunds money that arrives afterwards', async () => {
    await deliver(sessionEvent('evt_mb_completed', 'checkout.session.completed', 'unpaid'));
    clock.set('2026-03-22T10:00:01Z');
    // The card payer takes the slot the expired voucher held, and pays.
    await book(rival, 'cs_test_rival');
    await deliver(sessionEvent('evt_rival_paid', 'checkout.session.completed', 'paid', 'cs_test_rival'));
    await deliver(sessionEvent('evt_mb_late', 'checkout.session.async_payment_succeeded', 'paid'));
    expect((await bookingsOf(app.db, member)).map((b) => b.status)).toEqual(['expired']);
    expect((await bookingsOf(app.db, rival)).map((b) => b.status)).toEqual(['confirmed']);
    expect(stripeApi.refunds).toEqual(['1500']);
    expect(await kinds()).toContain('late_payment_refunded');
    // Only the card payer has a door code.
    expect(await rows('lock_codes')).toHaveLength(1);
  });

  it('releases the slot 48 hours before the start when the voucher is still unpaid', async () => {
    stripeApi.voucherExpiresAt = Date.parse('2026-03-27T10:00:00Z');
    await deliver(sessionEvent('evt_mb_completed', 'checkout.session.completed', 'unpaid'));
    const [held] = await bookingsOf(app.db, member);
    expect(held!.hold_expires_at?.getTime()).toBe(START - 48 * HOUR);
    // Just after that moment, the money and a card payer arrive together, before any sweep: the card payer wins.
    clock.set(new Date(START - 48 * HOUR + 1000).toISOString());
    const [rivalBooking] = await Promise.all([
      book(rival, 'cs_test_rival'),
      deliver(sessionEvent('evt_mb_late', 'checkout.session.async_payment_succeeded', 'paid')),
    ]);
    expect(rivalBooking.checkout_session.clientSecret).toBe('cs_test_rival_secret_x');
    expect((await bookingsOf(app.db, member)).map((b) => b.status)).toEqual(['expired']);
    expect((await bookingsOf(app.db, rival)).map((b) => b.status)).toEqual(['pending']);
    expect(stripeApi.refunds).toEqual(['1500']);
    expect(await rows('lock_codes')).toEqual([]);
  });

  it('confirms an MB WAY payment approved on the phone, and holds the slot while it waits', async () => {
    stripeApi.method = 'mb_way';
    clock.set('2026-03-20T10:29:00Z');
    await deliver(sessionEvent('evt_mbway_completed', 'checkout.session.completed', 'unpaid'));
    expect((await session()).payment_method).toBe('mb_way');
    const [held] = await bookingsOf(app.db, member);
    // Ten minutes to approve, past the checkout's own expiry.
    expect(held!.hold_expires_at?.toISOString()).toBe('2026-03-20T10:39:00.000Z');
    expect(await errorCode(book(rival, 'cs_test_rival'))).toBe('slot_unavailable');
    await deliver(sessionEvent('evt_mbway_paid', 'checkout.session.async_payment_succeeded', 'paid'));
    expect((await bookingsOf(app.db, member)).map((b) => b.status)).toEqual(['confirmed']);
    expect(await rows('lock_codes')).toHaveLength(1);
  });
});
