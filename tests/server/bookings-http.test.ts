import type { ErrorBody, Schemas } from './support/accounts.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCoupon, lisbonSlot } from './bookings-fixtures.ts';
import { DATABASE_TARGETS, emptyAllTables } from './support/databases.ts';
import { newClient, startAccountApp, verifiedAccount, type AccountApp } from './support/accounts.ts';
import { createBranch } from './support/fixtures.ts';
import { anyOf } from './support/matchers.ts';

// The booking calls a logged-in client makes, over HTTP: coupon, booking, paying, listing, cancelling.

type Booking = {
  id: number;
  canceled: boolean;
  paid: boolean;
  final_price_eur: number;
  refundable_eur: number;
  refunded_eur: number | null;
  is_cancelable: boolean;
};

describe.each(DATABASE_TARGETS)('the booking calls on %s', (target) => {
  let server: AccountApp;
  let branchId: number;
  let slots: number[];

  beforeAll(async () => {
    server = await startAccountApp(target);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    server.clock.set('2026-03-20T10:30:00Z');
    await emptyAllTables(server.app.db);
    branchId = await createBranch(server.app.db);
    // Both are more than 48 hours ahead, so a cancellation refunds everything.
    slots = [
      await lisbonSlot(server.app.db, branchId, '2026-03-25T10:00', { priceCents: 2000 }),
      await lisbonSlot(server.app.db, branchId, '2026-03-26T18:00', { priceCents: 1500 }),
    ];
  });

  async function client() {
    const caller = newClient(server.app);
    const account = await verifiedAccount(caller, server.app);
    return { caller, token: account.token, account };
  }

  async function bookAndPay(caller: ReturnType<typeof newClient>, token: string, total: number) {
    const created = await caller.json(
      'POST',
      '/api/bookings/',
      {
        time_slot_id: slots,
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: total,
      },
      token,
    );
    expect(created.statusCode).toBe(201);
    const sessionId = (
      created.json<Schemas['CreateBookingResponse']>().checkout_session.clientSecret as string
    ).split('_secret_')[0]!;
    const paid = await caller.json('POST', `/api/checkout/local/${sessionId}/complete`, {
      card_number: '4242 4242 4242 4242',
    });
    expect(paid.json()).toMatchObject({ status: 'complete', outcome: 'paid' });
    return sessionId;
  }

  it('needs a login for coupons, booking, session status, my bookings and cancelling', async () => {
    const caller = newClient(server.app);
    const calls = [
      caller.get('/api/bookings/coupon-code/WELCOME'),
      caller.json('POST', '/api/bookings/', {
        time_slot_id: slots,
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: 35,
      }),
      caller.get('/api/checkout/session-status?stripe_session_id=cs_local_x'),
      caller.get('/api/bookings/my-bookings'),
      caller.json('POST', '/api/bookings/cancel-bookings', {
        booking: [{ booking_id: 1, expected_refund_eur: 1 }],
      }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 'unauthorized' });
    }
    expect(await server.app.db.selectFrom('bookings').select('id').execute()).toEqual([]);
  });

  it('finds a coupon whatever its case, and answers a localised 404 for an unusable code', async () => {
    const couponId = await createCoupon(server.app.db, { code: 'WELCOME5', discount: 0.05 });
    const { caller, token } = await client();
    const found = await caller.get('/api/bookings/coupon-code/welcome5', token);
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual({ id: couponId, discount: 0.05, remaining_uses: null });
    const unknown = await caller.get('/api/bookings/coupon-code/NOPE', token, { locale: 'en' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: 'Invalid coupon code.', code: 'invalid_coupon' });
  });

  it('books with a coupon, refusing a stale total with 409 and holding nothing then', async () => {
    const couponId = await createCoupon(server.app.db, { code: 'TEN', discount: 0.1 });
    const { caller, token } = await client();
    const body = { time_slot_id: slots, max_bookings_per_slot: 1, coupon_code: couponId };
    const stale = await caller.json(
      'POST',
      '/api/bookings/',
      { ...body, expected_total_final_price_eur: 35 },
      token,
    );
    expect(stale.statusCode).toBe(409);
    expect(stale.json<ErrorBody>().code).toBe('price_changed');
    expect(await server.app.db.selectFrom('bookings').select('id').execute()).toEqual([]);

    const created = await caller.json(
      'POST',
      '/api/bookings/',
      { ...body, expected_total_final_price_eur: 31.5 },
      token,
    );
    expect(created.statusCode).toBe(201);
    expect(created.json<Schemas['CreateBookingResponse']>().checkout_session.clientSecret).toMatch(
      /^cs_local_[0-9a-f]+_secret_[0-9a-f]+$/,
    );
    const listed = (await caller.get(`/api/bookings/slots/${branchId}/2026-03-25`)).json<
      {
        id: number;
        is_bookeable: boolean;
      }[]
    >();
    expect(listed.find((slot) => slot.id === slots[0])?.is_bookeable).toBe(false);
  });

  it('shows the session as open, then complete once paid, to its owner only', async () => {
    const { caller, token } = await client();
    const created = await caller.json(
      'POST',
      '/api/bookings/',
      {
        time_slot_id: slots,
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: 35,
      },
      token,
    );
    const secret = created.json<Schemas['CreateBookingResponse']>().checkout_session.clientSecret as string;
    const sessionId = secret.split('_secret_')[0]!;
    const status = () => caller.get(`/api/checkout/session-status?stripe_session_id=${sessionId}`, token);
    expect((await status()).json()).toEqual({
      status: 'open',
      clientSecret: secret,
      bookings: anyOf(Array),
    });

    const stranger = await client();
    const foreign = await stranger.caller.get(
      `/api/checkout/session-status?stripe_session_id=${sessionId}`,
      stranger.token,
    );
    expect(foreign.statusCode).toBe(404);

    await caller.json('POST', `/api/checkout/local/${sessionId}/complete`, {
      card_number: '4242424242424242',
    });
    expect((await status()).json()).toEqual({
      status: 'complete',
      clientSecret: null,
      bookings: anyOf(Array),
    });
  });

  it('lists the paid bookings and cancels them all with a full refund, once however often it is asked', async () => {
    const { caller, token } = await client();
    await bookAndPay(caller, token, 35);
    const mine = (await caller.get('/api/bookings/my-bookings', token)).json<Booking[]>();
    expect(mine.map((booking) => [booking.paid, booking.is_cancelable, booking.refundable_eur])).toEqual([
      [true, true, 20],
      [true, true, 15],
    ]);

    const stranger = await client();
    const foreign = await stranger.caller.json(
      'POST',
      '/api/bookings/cancel-bookings',
      {
        booking: mine.map((booking) => ({
          booking_id: booking.id,
          expected_refund_eur: booking.refundable_eur,
        })),
      },
      stranger.token,
    );
    expect(foreign.statusCode).toBe(404);
    expect((await stranger.caller.get('/api/bookings/my-bookings', stranger.token)).json()).toEqual([]);

    const request = {
      booking: mine.map((booking) => ({
        booking_id: booking.id,
        expected_refund_eur: booking.refundable_eur,
      })),
    };
    const canceled = await caller.json('POST', '/api/bookings/cancel-bookings', request, token);
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json<Schemas['Message']>().message).toMatch(/cancelad/);
    expect((await caller.json('POST', '/api/bookings/cancel-bookings', request, token)).statusCode).toBe(200);

    const after = (await caller.get('/api/bookings/my-bookings', token)).json<Booking[]>();
    expect(after.map((booking) => [booking.canceled, booking.refunded_eur])).toEqual([
      [true, 20],
      [true, 15],
    ]);
    const refunds = await server.app.db.selectFrom('refunds').select('amount_cents').execute();
    expect(refunds.map((refund) => refund.amount_cents).sort()).toEqual([1500, 2000]);
  });

  it('refuses a cancellation whose refund figure is stale with 409, cancelling nothing', async () => {
    const { caller, token } = await client();
    await bookAndPay(caller, token, 35);
    const mine = (await caller.get('/api/bookings/my-bookings', token)).json<Booking[]>();
    const refused = await caller.json(
      'POST',
      '/api/bookings/cancel-bookings',
      {
        booking: [
          { booking_id: mine[0]!.id, expected_refund_eur: mine[0]!.refundable_eur },
          { booking_id: mine[1]!.id, expected_refund_eur: 0.01 },
        ],
      },
      token,
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json<ErrorBody>().code).toBe('refund_changed');
    const after = (await caller.get('/api/bookings/my-bookings', token)).json<Booking[]>();
    expect(after.every((booking) => !booking.canceled)).toBe(true);
  });

  it('cancels and refunds upcoming bookings when the account is deleted', async () => {
    const { caller, token } = await client();
    await bookAndPay(caller, token, 35);
    const deleted = await caller.json('DELETE', '/api/auth/delete-account', undefined, token);
    expect(deleted.statusCode).toBe(200);
    const bookings = await server.app.db.selectFrom('bookings').select(['status']).execute();
    expect(bookings.map((booking) => booking.status)).toEqual(['canceled', 'canceled']);
    const refunds = await server.app.db.selectFrom('refunds').select('amount_cents').execute();
    expect(refunds.map((refund) => refund.amount_cents).sort()).toEqual([1500, 2000]);
    // The erasure of the account's messages spares the one telling of these cancellations.
    const told = await server.app.db
      .selectFrom('outbox')
      .select(['channel', 'kind', 'attachments'])
      .where('kind', '=', 'booking_canceled')
      .execute();
    // One message, with a calendar file removing each of the two bookings' events.
    expect(
      told.map((row) => [row.channel, row.attachments.map((attachment) => attachment.filename)]),
    ).toEqual([['email', ['cancel-1.ics', 'cancel-2.ics']]]);
    const listed = (await newClient(server.app).get(`/api/bookings/slots/${branchId}/2026-03-25`)).json<
      {
        id: number;
        is_bookeable: boolean;
      }[]
    >();
    expect(listed.find((slot) => slot.id === slots[0])?.is_bookeable).toBe(true);
  });
});
