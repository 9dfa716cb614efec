import type { ErrorBody, Schemas } from './support/accounts.ts';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lisbonSlot } from './bookings-fixtures.ts';
import { DATABASE_TARGETS } from './support/databases.ts';
import { newClient, startAccountApp, verifiedAccount, type AccountApp } from './support/accounts.ts';
import { createBranch } from './support/fixtures.ts';
import { type ServerProcess, useServerProcesses } from './support/server-process.ts';

// A local checkout paid many times at once, and a payment racing the end of its hold: exactly one payment per
// session, and never a "paid" for bookings the member does not have.

const CARD = { card_number: '4242 4242 4242 4242' };

describe.each(DATABASE_TARGETS)('racing a local checkout (%s)', (target) => {
  let server: AccountApp;
  let slotTime = 0;
  beforeAll(async () => {
    server = await startAccountApp(target);
  });
  afterAll(async () => server?.close());

  async function openCheckout() {
    const { app } = server;
    const branchId = await createBranch(app.db);
    const hour = 8 + (slotTime++ % 12);
    const slot = await lisbonSlot(app.db, branchId, `2026-03-26T${String(hour).padStart(2, '0')}:00`);
    const client = newClient(app);
    const { token } = await verifiedAccount(client, app);
    const created = await client.json(
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
    expect(created.statusCode).toBe(201);
    const sessionId = (
      created.json<Schemas['CreateBookingResponse']>().checkout_session.clientSecret as string
    ).split('_secret_')[0]!;
    return { client, token, sessionId };
  }

  it('takes exactly one payment when ten completions arrive at once; the others answer 409', async () => {
    const { client, token, sessionId } = await openCheckout();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        client.json('POST', `/api/checkout/local/${sessionId}/complete`, CARD),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, ...Array<number>(9).fill(409)]);
    expect(answers.find((answer) => answer.statusCode === 200)!.json()).toMatchObject({ outcome: 'paid' });
    for (const answer of answers.filter((candidate) => candidate.statusCode === 409)) {
      expect(answer.json<ErrorBody>().code).toBe('checkout_session_closed');
    }
    const { rows } = await sql<{ events: number }>`
      select count(*)::int as events from payment_events
      where type = 'checkout.session.completed' and payload->'data'->'object'->>'id' = ${sessionId}`.execute(
      server.app.db,
    );
    expect(rows[0]!.events).toBe(1);
    const mine = (await client.get('/api/bookings/my-bookings', token)).json<{ status: string }[]>();
    expect(mine.map((booking) => booking.status)).toEqual(['confirmed']);
  });

  it('never tells a payer "paid" for bookings whose hold ended first (15 races with the expiry)', async () => {
    const outcomes: string[] = [];
    for (let race = 0; race < 15; race += 1) {
      const { client, token, sessionId } = await openCheckout();
      const [paid, expired] = await Promise.all([
        client.json('POST', `/api/checkout/local/${sessionId}/complete`, CARD),
        server.app.inject({ method: 'POST', url: `/api/dev/checkout/${sessionId}/expire` }),
      ]);
      expect(expired.statusCode).toBe(200);
      const status = (
        await client.get(`/api/checkout/session-status?stripe_session_id=${sessionId}`, token)
      ).json<Schemas['CheckoutSessionStatus']>();
      const mine = (await client.get('/api/bookings/my-bookings', token)).json<
        {
          status: string;
          paid: boolean;
        }[]
      >();
      if (paid.statusCode === 200) {
        outcomes.push('paid');
        expect(paid.json<Schemas['LocalCheckoutCompleteResponse']>().outcome).toBe('paid');
        expect(status.status).toBe('complete');
        expect(mine.map((booking) => [booking.status, booking.paid])).toEqual([['confirmed', true]]);
      } else {
        outcomes.push('expired');
        expect(paid.statusCode).toBe(409);
        expect(paid.json<ErrorBody>().code).toBe('checkout_session_closed');
        expect(status.status).toBe('expired');
        expect(mine.map((booking) => [booking.status, booking.paid])).toEqual([['expired', false]]);
      }
    }
    expect(outcomes).toHaveLength(15);
  }, 90_000);
});

/**
 * The demo member's token, and a checkout of one slot (its session id) on the first bookable slots of the smart-lock
 * branch `daysAhead` days from now, through a server process as a member's app asks.
 */
async function demoCheckouts(server: ServerProcess, daysAhead: number, count: number) {
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: 'demo@example.com', password: 'Demo-gym-2026!' }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const branches = (await (await fetch(`${server.url}/api/bookings/branches`)).json()) as {
    id: number;
    active_with_smart_lock: boolean;
  }[];
  const branch = branches.find((candidate) => candidate.active_with_smart_lock)!;
  const day = new Date(Date.now() + daysAhead * 86_400_000).toISOString().slice(0, 10);
  const slots = (
    (await (await fetch(`${server.url}/api/bookings/slots/${branch.id}/${day}`)).json()) as {
      id: number;
      basic_price_eur: number;
      is_bookeable: boolean;
    }[]
  ).filter((candidate) => candidate.is_bookeable);
  expect(slots.length).toBeGreaterThanOrEqual(count);
  const sessions: string[] = [];
  for (const slot of slots.slice(0, count)) {
    const created = await fetch(`${server.url}/api/bookings/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        time_slot_id: [slot.id],
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: slot.basic_price_eur,
      }),
    });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { checkout_session: { clientSecret: string } };
    sessions.push(body.checkout_session.clientSecret.split('_secret_')[0]!);
  }
  return { token, sessions };
}

describe('one local checkout paid ten times at once over two server processes (postgres)', () => {
  const shared = useServerProcesses();
  const { servers } = shared;

  it('records exactly one payment; the other nine answer 409', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess];
    const {
      sessions: [sessionId],
    } = await demoCheckouts(first, 3, 1);

    const statuses = await Promise.all(
      Array.from({ length: 10 }, async (_, index) => {
        const response = await fetch(
          `${[first, second][index % 2]!.url}/api/checkout/local/${sessionId}/complete`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(CARD),
          },
        );
        await response.arrayBuffer();
        return response.status;
      }),
    );
    expect(statuses.sort()).toEqual([200, ...Array<number>(9).fill(409)]);
    const client = new pg.Client({
      connectionString: shared.url,
    });
    await client.connect();
    try {
      const { rows } = await client.query<{ events: number }>(
        `select count(*)::int as events from payment_events
         where type = 'checkout.session.completed' and payload->'data'->'object'->>'id' = $1`,
        [sessionId],
      );
      expect(rows[0]!.events).toBe(1);
    } finally {
      await client.end();
    }
  }, 120_000);

  // The payment storm of the bench (bench/run.ts): twenty checkouts of one branch's day paid at once, each by
  // twelve calls (three declined cards, nine paying ones) and four status reads, spread over both processes. Their
  // ledger rows all add to the same day's sums (migration 0024), as a busy evening's payments do.
  it('pays twenty checkouts of one day at once, each once, without a 5xx', async () => {
    const [first] = servers as [ServerProcess, ServerProcess];
    const { token, sessions } = await demoCheckouts(first, 5, 20);
    const answers = await Promise.all(
      sessions.flatMap((sessionId) =>
        Array.from({ length: 16 }, async (_, index) => {
          const server = servers[index % 2]!;
          const response =
            index % 4 === 0
              ? await fetch(`${server.url}/api/checkout/session-status?stripe_session_id=${sessionId}`, {
                  headers: { authorization: `Bearer ${token}` },
                })
              : await fetch(`${server.url}/api/checkout/local/${sessionId}/complete`, {
                  method: 'POST',
                  headers: { 'content-type': 'application/json' },
                  body: JSON.stringify({ card_number: index < 4 ? '4000 0000 0000 0002' : CARD.card_number }),
                });
          return `${response.status} ${await response.text()}`;
        }),
      ),
    );
    expect(answers.filter((answer) => !/^(200|409) /.test(answer))).toEqual([]);
    const { rows } = await sql<{ session: string; confirmed: number }>`
      select session.id as session, (select count(*)::int from bookings as booking
        where booking.checkout_session_id = session.id and booking.status = 'confirmed') as confirmed
      from checkout_sessions as session where session.id = any(${sessions})`.execute(shared.db);
    expect(rows.map((row) => row.confirmed)).toEqual(sessions.map(() => 1));
  }, 120_000);
});
