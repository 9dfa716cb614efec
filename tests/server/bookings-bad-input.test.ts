import type { Schemas } from './support/accounts.ts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/database.ts';
import { lisbonSlot } from './bookings-fixtures.ts';
import { PGLITE_ONLY } from './support/databases.ts';
import { newClient, startAccountApp, verifiedAccount, type AccountApp } from './support/accounts.ts';
import { createBranch } from './support/fixtures.ts';

// Whatever a caller sends to the booking and checkout calls, the answer is a 4xx {detail, code}: never a 5xx,
// and nothing changes (no booking, hold, payment, refund, event or message).

async function rowCounts(db: Db) {
  const { rows } = await sql<Record<string, number>>`
    select (select count(*)::int from bookings) as bookings,
           (select count(*)::int from bookings where status = 'confirmed') as confirmed,
           (select count(*)::int from checkout_sessions) as sessions,
           (select count(*)::int from payment_events) as events,
           (select count(*)::int from refunds) as refunds,
           (select count(*)::int from coupon_redemptions) as redemptions,
           (select count(*)::int from outbox) as outbox`.execute(db);
  return rows[0];
}

type Case = {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
  raw?: string;
  contentType?: string;
  token?: 'none' | 'bad' | 'user';
  headers?: Record<string, string>;
};

describe.each(PGLITE_ONLY)('bad input to the booking and checkout calls on %s', (target) => {
  let server: AccountApp;
  let token: string;
  let slot: number;
  let sessionId: string;

  beforeAll(async () => {
    server = await startAccountApp(target);
    const branchId = await createBranch(server.app.db);
    slot = await lisbonSlot(server.app.db, branchId, '2026-03-25T10:00');
    const caller = newClient(server.app);
    token = (await verifiedAccount(caller, server.app)).token;
    const created = await caller.json(
      'POST',
      '/api/bookings/',
      {
        time_slot_id: [slot],
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: 15,
      },
      token,
    );
    sessionId = (
      created.json<Schemas['CreateBookingResponse']>().checkout_session.clientSecret as string
    ).split('_secret_')[0]!;
  });
  afterAll(async () => server?.close());

  const huge = 'x'.repeat(10 * 1024);
  const booking = () => ({
    time_slot_id: [slot],
    max_bookings_per_slot: 1,
    coupon_code: null,
    expected_total_final_price_eur: 15,
  });

  const cases: Case[] = [
    { name: 'a booking without a token', method: 'POST', url: '/api/bookings/', body: {}, token: 'none' },
    { name: 'a booking with a forged token', method: 'POST', url: '/api/bookings/', body: {}, token: 'bad' },
    { name: 'a booking without a body', method: 'POST', url: '/api/bookings/' },
    { name: 'a booking of malformed JSON', method: 'POST', url: '/api/bookings/', raw: '{"time_slot_id": [' },
    {
      name: 'a booking of a form body',
      method: 'POST',
      url: '/api/bookings/',
      raw: 'time_slot_id=1',
      contentType: 'application/x-www-form-urlencoded',
    },
    {
      name: 'a booking with slot ids as strings',
      method: 'POST',
      url: '/api/bookings/',
      body: {
        time_slot_id: ['1'],
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: 15,
      },
    },
    {
      name: 'a booking with no slots',
      method: 'POST',
      url: '/api/bookings/',
      body: {
        time_slot_id: [],
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: 0,
      },
    },
    {
      name: 'a booking of a huge slot id',
      method: 'POST',
      url: '/api/bookings/',
      body: {
        time_slot_id: [1e300],
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: 15,
      },
    },
    {
      name: 'a booking of an unknown slot',
      method: 'POST',
      url: '/api/bookings/',
      body: {
        time_slot_id: [2147483647],
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: 15,
      },
    },
    {
      name: 'a booking with a negative total',
      method: 'POST',
      url: '/api/bookings/',
      body: {
        time_slot_id: [1],
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: -1,
      },
    },
    {
      name: 'a booking with a text total',
      method: 'POST',
      url: '/api/bookings/',
      body: {
        time_slot_id: [1],
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: 'NaN',
      },
    },
    {
      name: 'a booking with two per slot',
      method: 'POST',
      url: '/api/bookings/',
      body: {
        time_slot_id: [1],
        max_bookings_per_slot: 2,
        coupon_code: null,
        expected_total_final_price_eur: 15,
      },
    },
    { name: 'a booking with an unknown coupon', method: 'POST', url: '/api/bookings/', body: 'coupon' },
    {
      name: 'a booking that sets its own price and status',
      method: 'POST',
      url: '/api/bookings/',
      body: 'extra',
    },
    {
      name: 'a booking with a prototype-polluting key',
      method: 'POST',
      url: '/api/bookings/',
      raw: '{"__proto__":{"admin":true},"time_slot_id":[1],"max_bookings_per_slot":1,"coupon_code":null,"expected_total_final_price_eur":15}',
    },
    { name: 'a booking of an already held slot', method: 'POST', url: '/api/bookings/', body: 'held' },
    {
      name: 'a coupon without a token',
      method: 'GET',
      url: '/api/bookings/coupon-code/WELCOME5',
      token: 'none',
    },
    {
      name: 'a coupon code of SQL',
      method: 'GET',
      url: `/api/bookings/coupon-code/${encodeURIComponent("' OR 1=1 --")}`,
    },
    { name: 'a 10 kB coupon code', method: 'GET', url: `/api/bookings/coupon-code/${huge}` },
    { name: 'a session status without an id', method: 'GET', url: '/api/checkout/session-status' },
    {
      name: 'a session status of an unknown id',
      method: 'GET',
      url: '/api/checkout/session-status?stripe_session_id=cs_local_nope',
    },
    {
      name: 'a session status of a 10 kB id',
      method: 'GET',
      url: `/api/checkout/session-status?stripe_session_id=${huge}`,
    },
    {
      name: 'a session status without a token',
      method: 'GET',
      url: '/api/checkout/session-status?stripe_session_id=x',
      token: 'none',
    },
    {
      name: 'my bookings with a forged token',
      method: 'GET',
      url: '/api/bookings/my-bookings',
      token: 'bad',
    },
    { name: 'a cancellation without a body', method: 'POST', url: '/api/bookings/cancel-bookings' },
    {
      name: 'a cancellation of nothing',
      method: 'POST',
      url: '/api/bookings/cancel-bookings',
      body: { booking: [] },
    },
    {
      name: 'a cancellation with wrong types',
      method: 'POST',
      url: '/api/bookings/cancel-bookings',
      body: { booking: [{ booking_id: 'one', expected_refund_eur: '15' }] },
    },
    {
      name: 'a cancellation of an unknown booking',
      method: 'POST',
      url: '/api/bookings/cancel-bookings',
      body: { booking: [{ booking_id: 2147483647, expected_refund_eur: 0 }] },
    },
    {
      name: 'a cancellation of an unpaid booking',
      method: 'POST',
      url: '/api/bookings/cancel-bookings',
      body: 'unpaid',
    },
    {
      name: 'a cancellation of malformed JSON',
      method: 'POST',
      url: '/api/bookings/cancel-bookings',
      raw: '{"booking":',
    },
    {
      name: 'a webhook without a signature',
      method: 'POST',
      url: '/api/checkout/webhook',
      body: { id: 'evt_1', type: 'checkout.session.completed' },
      token: 'none',
    },
    {
      name: 'a webhook with a forged signature',
      method: 'POST',
      url: '/api/checkout/webhook',
      body: { id: 'evt_1', type: 'checkout.session.completed' },
      token: 'none',
      headers: { 'stripe-signature': 't=1,v1=00' },
    },
    {
      name: 'a local checkout page of an unknown session',
      method: 'GET',
      url: '/api/checkout/local/cs_local_nope',
      token: 'none',
    },
    {
      name: 'a local payment with a card of letters',
      method: 'POST',
      url: '/api/checkout/local/SESSION/complete',
      body: { card_number: 'abcd' },
      token: 'none',
    },
    {
      name: 'a local payment with a 10 kB card',
      method: 'POST',
      url: '/api/checkout/local/SESSION/complete',
      body: { card_number: huge },
      token: 'none',
    },
    {
      name: 'a local payment without a card',
      method: 'POST',
      url: '/api/checkout/local/SESSION/complete',
      body: {},
      token: 'none',
    },
    {
      name: 'a local payment of an unknown session',
      method: 'POST',
      url: '/api/checkout/local/cs_local_nope/complete',
      body: { card_number: '4242424242424242' },
      token: 'none',
    },
    {
      name: 'slots of a date that does not exist',
      method: 'GET',
      url: '/api/bookings/slots/1/2026-02-30',
      token: 'none',
    },
    {
      name: 'slots of a text branch id',
      method: 'GET',
      url: '/api/bookings/slots/abc/2026-03-25',
      token: 'none',
    },
    {
      name: 'the local time of an unknown branch',
      method: 'GET',
      url: '/api/bookings/local-time/branch/999999',
      token: 'none',
    },
  ];

  function resolveBody(testCase: Case): unknown {
    if (testCase.body === 'coupon') return { ...booking(), coupon_code: 2147483647 };
    if (testCase.body === 'extra')
      return { ...booking(), final_price_eur: 0, status: 'confirmed', user_id: 'x' };
    if (testCase.body === 'held') return booking();
    if (testCase.body === 'unpaid') return { booking: [{ booking_id: 1, expected_refund_eur: 15 }] };
    return testCase.body;
  }

  it.each(cases)('$name gets a 4xx {detail, code} and changes nothing', async (testCase) => {
    const before = await rowCounts(server.app.db);
    const headers: Record<string, string> = { ...testCase.headers };
    if (testCase.token === 'bad') headers.authorization = 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.';
    else if (testCase.token !== 'none') headers.authorization = `Bearer ${token}`;
    if (testCase.contentType) headers['content-type'] = testCase.contentType;
    else if (testCase.raw !== undefined) headers['content-type'] = 'application/json';
    const body = resolveBody(testCase);
    const response = await newClient(server.app).call({
      method: testCase.method,
      url: testCase.url.replace('SESSION', sessionId),
      headers,
      ...(testCase.raw !== undefined
        ? { payload: testCase.raw }
        : body !== undefined
          ? { payload: body as object }
          : {}),
    });
    expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
    expect(response.statusCode, response.body).toBeLessThan(500);
    // {detail, code}; a validation error adds the refused fields (the contract's FieldProblem).
    const errorBody = response.json<{ code: string; fields?: unknown[] }>();
    expect(Object.keys(errorBody).sort()).toEqual(
      errorBody.code === 'validation_failed' ? ['code', 'detail', 'fields'] : ['code', 'detail'],
    );
    expect(await rowCounts(server.app.db)).toEqual(before);
  });
});
