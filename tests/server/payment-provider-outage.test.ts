import type { ErrorBody, Schemas } from './support/accounts.ts';
import http from 'node:http';
import type net from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dateFromInstant } from '../../server/kernel/clock.ts';
import { JOB_QUEUES } from '../../server/jobs/queue.ts';
import { lisbonSlot } from './bookings-fixtures.ts';
import { newClient, startAccountApp, verifiedAccount, type AccountApp } from './support/accounts.ts';
import { DATABASE_TARGETS } from './support/databases.ts';
import { createBranch, insertBooking } from './support/fixtures.ts';
import { anyOf } from './support/matchers.ts';

// Stripe's API slow or gone while members book: the slots are held in a short transaction before the provider is
// called, so the provider's silence never holds a database connection or lock. Each booking answers 503 within
// 10 s with its holds released; everyone else is served meanwhile; a member racing for a held slot is told at
// once that it is taken. Stripe here is a real HTTP server on this machine that the official SDK talks to.

const WEBHOOK_SECRET = 'whsec_test_provider_outage';
const DAY = '2026-03-26';

type FakeStripe = {
  url: string;
  /** Checkout-session creations received so far. */
  received: number;
  /** `hang`: requests are accepted and never answered (a black hole); `answer`: each gets a session at once. */
  mode: 'hang' | 'answer';
  /** Answers every request held so far with a session. */
  answerHeld(): void;
  close(): Promise<void>;
};

let sessionCounter = 0;

function stripeSession(amountCents: number) {
  sessionCounter += 1;
  const id = `cs_test_outage_${sessionCounter}`;
  return {
    id,
    object: 'checkout.session',
    client_secret: `${id}_secret_fake`,
    status: 'open',
    payment_status: 'unpaid',
    payment_intent: null,
    amount_total: amountCents,
    expires_at: Math.floor(Date.UTC(2026, 2, 20, 11, 30) / 1000),
  };
}

async function startFakeStripe(): Promise<FakeStripe> {
  const held: (() => void)[] = [];
  const sockets = new Set<net.Socket>();
  const fake: FakeStripe = {
    url: '',
    received: 0,
    mode: 'hang',
    answerHeld() {
      for (const answer of held.splice(0)) answer();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      fake.received += 1;
      const amount = [...new URLSearchParams(body).entries()]
        .filter(([key]) => key.endsWith('[unit_amount]'))
        .reduce((sum, [, value]) => sum + Number(value), 0);
      const answer = () => {
        if (response.destroyed) return;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(stripeSession(amount)));
      };
      if (fake.mode === 'answer') answer();
      else held.push(answer);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return fake;
}

async function until(condition: () => boolean, ms: number): Promise<void> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > ms) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function bookingBody(slotId: number) {
  return {
    time_slot_id: [slotId],
    max_bookings_per_slot: 1,
    coupon_code: null,
    expected_total_final_price_eur: 15,
  };
}

describe.each(DATABASE_TARGETS)('a payment provider that does not answer (%s)', (target) => {
  let server: AccountApp;
  let stripe: FakeStripe;
  let branchId: number;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    // The default provider timeout and retry: what an operator gets without tuning anything.
    server = await startAccountApp(target, {
      STRIPE_SECRET_KEY: 'sk_test_provider_outage',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
      CHECKOUT_EXPIRY_MINUTES: '30',
    });
    branchId = await createBranch(server.app.db);
  }, 60_000);
  beforeEach(() => {
    stripe.mode = 'hang';
  });
  afterAll(async () => {
    stripe?.answerHeld();
    await server?.close();
    await stripe?.close();
  });

  const listSlots = async (client: ReturnType<typeof newClient>) =>
    (await client.get(`/api/bookings/slots/${branchId}/${DAY}`)).json<
      {
        id: number;
        is_bookeable: boolean;
      }[]
    >();

  it('answers 20 concurrent bookings 503 within 10 s, serves everyone else meanwhile, and frees the slots', async () => {
    const { app } = server;
    const members = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const client = newClient(app);
        const { token } = await verifiedAccount(client, app);
        const slot = await lisbonSlot(app.db, branchId, `${DAY}T${String(index + 1).padStart(2, '0')}:00`, {
          minutes: 30,
        });
        return { client, token, slot };
      }),
    );
    const received = stripe.received;

    let settled = 0;
    const bookings = members.map(async ({ client, token, slot }) => {
      const started = performance.now();
      const response = await client.json('POST', '/api/bookings/', bookingBody(slot), token);
      settled += 1;
      return { response, elapsedMs: performance.now() - started };
    });

    // While the provider holds the bookings' calls, the rest of the product answers: these calls complete before
    // any booking has heard back, so none of them waited for a booking's connection or lock.
    await until(() => stripe.received > received, 30_000);
    const observer = newClient(app);
    const others: [string, LightMyRequestResponse][] = [];
    for (const url of ['/api/health', '/api/bookings/branches', `/api/bookings/slots/${branchId}/${DAY}`]) {
      others.push([url, await observer.get(url)]);
    }
    expect(settled, 'bookings answered before the unrelated calls did').toBe(0);
    for (const [url, response] of others) expect(response.statusCode, url).toBe(200);
    // Every booking reached the provider at once: none queued behind another's provider call.
    await until(() => stripe.received >= received + 20, 5000);
    expect(settled).toBe(0);

    for (const { response, elapsedMs } of await Promise.all(bookings)) {
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ detail: anyOf(String), code: 'payment_provider_unavailable' });
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      expect(elapsedMs).toBeLessThan(10_000);
    }

    // The holds are gone at once: every slot is bookable again, and nobody is left with a booking.
    const slots = new Set(members.map((member) => member.slot));
    const listed = (await listSlots(observer)).filter((slot) => slots.has(slot.id));
    expect(listed).toHaveLength(20);
    expect(listed.every((slot) => slot.is_bookeable)).toBe(true);
    const mine = (await members[0]!.client.get('/api/bookings/my-bookings', members[0]!.token)).json<
      Schemas['Booking'][]
    >();
    expect(mine).toEqual([]);
    stripe.mode = 'answer';
    const again = await members[0]!.client.json(
      'POST',
      '/api/bookings/',
      bookingBody(members[0]!.slot),
      members[0]!.token,
    );
    expect(again.statusCode).toBe(201);
  }, 120_000);

  it('tells a second member at once that a slot held for a first member waiting on the provider is taken', async () => {
    const { app } = server;
    const slot = await lisbonSlot(app.db, branchId, `${DAY}T21:00`, { minutes: 30 });
    const first = newClient(app);
    const second = newClient(app);
    const firstToken = (await verifiedAccount(first, app)).token;
    const secondToken = (await verifiedAccount(second, app)).token;
    const received = stripe.received;

    let firstAnswered = false;
    const firstBooking = first
      .json('POST', '/api/bookings/', bookingBody(slot), firstToken)
      .then((response) => {
        firstAnswered = true;
        return response;
      });
    await until(() => stripe.received > received, 10_000);
    const racing = await second.json('POST', '/api/bookings/', bookingBody(slot), secondToken);
    expect(firstAnswered, 'the first booking answered before the second').toBe(false);
    expect(racing.statusCode).toBe(409);
    expect(racing.json<ErrorBody>().code).toBe('slot_unavailable');

    stripe.answerHeld();
    const created = await firstBooking;
    expect(created.statusCode).toBe(201);
    expect(created.json<Schemas['CreateBookingResponse']>().checkout_session.clientSecret).toMatch(
      /^cs_test_outage_\d+_secret_fake$/,
    );
    const [booking] = (await first.get('/api/bookings/my-bookings', firstToken)).json<
      {
        status: string;
      }[]
    >();
    expect(booking?.status).toBe('pending');
  }, 60_000);

  it('releases a hold whose provider call never came back with the hold-expiry sweep, and never attaches a late session to it', async () => {
    const { app, clock } = server;
    const slot = await lisbonSlot(app.db, branchId, `${DAY}T22:00`, { minutes: 30 });
    const first = newClient(app);
    const second = newClient(app);
    const firstToken = (await verifiedAccount(first, app)).token;
    const secondToken = (await verifiedAccount(second, app)).token;
    const received = stripe.received;

    // The state a crash while waiting on the provider leaves behind: a pending hold without a session, which
    // ends by itself within minutes (not after the whole checkout time).
    const firstBooking = first.json('POST', '/api/bookings/', bookingBody(slot), firstToken);
    await until(() => stripe.received > received, 10_000);
    const held = await app.db
      .selectFrom('bookings')
      .select(['status', 'checkout_session_id', 'hold_expires_at'])
      .where('slot_id', '=', slot)
      .execute();
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ status: 'pending', checkout_session_id: null });
    const holdMinutes = (held[0]!.hold_expires_at!.getTime() - clock.now().epochMilliseconds) / 60_000;
    expect(holdMinutes).toBeGreaterThan(0);
    expect(holdMinutes).toBeLessThanOrEqual(5);

    clock.advance({ minutes: 6 });
    await app.jobs.boss.send(JOB_QUEUES.holdExpiry, null, { startAfter: dateFromInstant(clock.now()) });
    await app.jobs.runDue([JOB_QUEUES.holdExpiry]);
    expect((await listSlots(second)).find((candidate) => candidate.id === slot)?.is_bookeable).toBe(true);

    // The provider answers the first call late, after the slot went to someone else: that session is never
    // attached to the released hold, and the first member hears 503 (nothing was charged).
    stripe.mode = 'answer';
    const secondBooking = await second.json('POST', '/api/bookings/', bookingBody(slot), secondToken);
    expect(secondBooking.statusCode).toBe(201);
    stripe.answerHeld();
    const late = await firstBooking;
    expect(late.statusCode).toBe(503);
    const rows = await app.db
      .selectFrom('bookings')
      .select(['status', 'checkout_session_id'])
      .where('slot_id', '=', slot)
      .orderBy('id')
      .execute();
    expect(rows.map((row) => row.status)).toEqual(['expired', 'pending']);
    expect(rows[0]!.checkout_session_id).toBeNull();
    expect(rows[1]!.checkout_session_id).not.toBeNull();
  }, 60_000);

  it('holds a move’s dearer slot without holding a transaction while the provider is silent, keeps the old booking and frees the new slot when the provider fails', async () => {
    const { app } = server;
    const member = newClient(app);
    const account = await verifiedAccount(member, app);
    const { id: userId } = await app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', account.email.toLowerCase())
      .executeTakeFirstOrThrow();
    const oldSlot = await lisbonSlot(app.db, branchId, '2026-03-27T10:00', { priceCents: 1500 });
    const newSlot = await lisbonSlot(app.db, branchId, '2026-03-27T12:00', { priceCents: 2000 });
    const bookingId = await insertBooking(app.db, { slotId: oldSlot, status: 'confirmed', userId });
    await app.db
      .updateTable('bookings')
      .set({ paid_at: new Date('2026-03-19T00:00:00Z') })
      .where('id', '=', bookingId)
      .execute();
    const received = stripe.received;

    const started = performance.now();
    let answered = false;
    const move = member
      .json(
        'POST',
        `/api/bookings/${bookingId}/move`,
        { time_slot_id: newSlot, expected_price_difference_eur: 5 },
        account.token,
      )
      .then((response) => {
        answered = true;
        return response;
      });
    await until(() => stripe.received > received, 10_000);

    // No transaction waits on the provider: the booking's row can be locked at once, and the rest answers.
    await app.db
      .transaction()
      .execute((trx) => sql`select id from bookings where id = ${bookingId} for update nowait`.execute(trx));
    const observer = newClient(app);
    for (const url of ['/api/health', `/api/bookings/slots/${branchId}/2026-03-27`]) {
      expect((await observer.get(url)).statusCode, url).toBe(200);
    }
    // The new slot is held meanwhile: another member is told at once that it is taken.
    const rival = newClient(app);
    const rivalToken = (await verifiedAccount(rival, app)).token;
    const racing = await rival.json(
      'POST',
      '/api/bookings/',
      { ...bookingBody(newSlot), expected_total_final_price_eur: 20 },
      rivalToken,
    );
    expect(racing.statusCode).toBe(409);
    expect(racing.json<ErrorBody>().code).toBe('slot_unavailable');
    expect(answered, 'the move answered before the others').toBe(false);

    const response = await move;
    expect(response.statusCode).toBe(503);
    expect(response.json<ErrorBody>().code).toBe('payment_provider_unavailable');
    expect(performance.now() - started).toBeLessThan(10_000);
    // The old booking is as it was, the new slot free again, and no move was recorded.
    const booking = await app.db
      .selectFrom('bookings')
      .select(['status', 'slot_id'])
      .where('id', '=', bookingId)
      .executeTakeFirstOrThrow();
    expect(booking).toEqual({ status: 'confirmed', slot_id: oldSlot });
    const listed = (await observer.get(`/api/bookings/slots/${branchId}/2026-03-27`)).json<
      { id: number; is_bookeable: boolean }[]
    >();
    expect(listed.find((slot) => slot.id === newSlot)?.is_bookeable).toBe(true);
    const moves = await app.db
      .selectFrom('booking_moves')
      .select('id')
      .where('booking_id', '=', bookingId)
      .execute();
    expect(moves).toEqual([]);
  }, 60_000);
});
