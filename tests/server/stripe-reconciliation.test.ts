import http from 'node:http';
import type net from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripePaymentProvider } from '../../server/adapters/payments/stripe.ts';
import { runAdmin } from '../../server/admin/cli.ts';
import type { Db } from '../../server/db/database.ts';
import {
  newClient,
  startAccountApp,
  verifiedAccount,
  type AccountApp,
  type ErrorBody,
  type Schemas,
} from './support/accounts.ts';
import { PGLITE_ONLY } from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';
import { slotAt } from './support/invoicing.ts';
import { loggedInOperator } from './support/operators.ts';

// Issue 29, item 6, last part: Stripe's fees and payouts matched to the ledger. Stripe here is a real HTTP server
// on this machine that the official SDK talks to: it opens the checkout sessions and makes the refund the
// member's payments and cancellation need, then lists balance transactions and payouts as Stripe documents them
// (newest first, `has_more` and `starting_after`, two to a page so every listing takes several pages, `source`
// expanded only when asked). PGlite only: one request after another, no SQL the targets run differently.
//
// Figures worked by hand (fees as Stripe's 1.5 % + 0.25 € for EU cards, rounded to the cent):
//   pi_rec_1  15.00  fee 0.225 + 0.25 = 0.475 → 0.48, net 14.52, paid out by po_rec_1 (arrives 23 March, paid)
//   pi_rec_2  22.00  fee 0.33 + 0.25 = 0.58, net 21.42, paid out by po_rec_2 (arrives 24 March, in transit)
//   pi_rec_3  13.50  no balance transaction yet (Stripe has not settled it)
//   re_rec_1 −22.00  booking two cancelled, refunded in full: fee 0.00, net −22.00, in po_rec_2 too
//   pi_elsewhere 30.00 fee 0.45 + 0.25 = 0.70, net 29.30: money in Stripe that no ledger row names
// Not listed: po_rec_1's own balance transaction (a payout is the payout columns, never a line), a charge of 22
// March (inside the day of margin read around the period, outside the period) and a manual payout (Stripe
// answers `?payout=` for automatic payouts only; the fake refuses it with 400, so asking would fail the test).

const WEBHOOK_SECRET = 'whsec_test_reconciliation';
const SECRET_KEY = 'sk_test_reconciliation';
const signer = new Stripe(SECRET_KEY);
const PAGE_SIZE = 2;
const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);

type Transaction = {
  id: string;
  type: string;
  created: number;
  amount: number;
  fee: number;
  source: Record<string, unknown> | null;
  payout: string | null;
};

const charge = (id: string, paymentIntent: string) => ({
  id,
  object: 'charge',
  payment_intent: paymentIntent,
});
const TRANSACTIONS: Transaction[] = [
  {
    id: 'txn_rec_1',
    type: 'charge',
    created: at('2026-03-20T10:30:05Z'),
    amount: 1500,
    fee: 48,
    source: charge('ch_rec_1', 'pi_rec_1'),
    payout: 'po_rec_1',
  },
  {
    id: 'txn_rec_2',
    type: 'charge',
    created: at('2026-03-20T11:00:04Z'),
    amount: 2200,
    fee: 58,
    source: charge('ch_rec_2', 'pi_rec_2'),
    payout: 'po_rec_2',
  },
  {
    id: 'txn_rec_3',
    type: 'refund',
    created: at('2026-03-20T12:00:03Z'),
    amount: -2200,
    fee: 0,
    source: { id: 're_rec_1', object: 'refund', payment_intent: 'pi_rec_2' },
    payout: 'po_rec_2',
  },
  {
    id: 'txn_rec_4',
    type: 'charge',
    created: at('2026-03-20T13:00:00Z'),
    amount: 3000,
    fee: 70,
    source: charge('ch_rec_9', 'pi_elsewhere'),
    payout: null,
  },
  {
    id: 'txn_rec_5',
    type: 'payout',
    created: at('2026-03-21T06:00:00Z'),
    amount: -1452,
    fee: 0,
    source: { id: 'po_rec_1', object: 'payout' },
    payout: 'po_rec_1',
  },
  {
    id: 'txn_rec_6',
    type: 'charge',
    created: at('2026-03-22T00:30:00Z'),
    amount: 990,
    fee: 40,
    source: charge('ch_rec_10', 'pi_next_period'),
    payout: null,
  },
];
const PAYOUTS = [
  {
    id: 'po_rec_1',
    created: at('2026-03-21T06:00:00Z'),
    arrival: at('2026-03-23T00:00:00Z'),
    status: 'paid',
  },
  {
    id: 'po_rec_2',
    created: at('2026-03-22T06:00:00Z'),
    arrival: at('2026-03-24T00:00:00Z'),
    status: 'in_transit',
  },
  {
    id: 'po_rec_manual',
    created: at('2026-03-22T09:00:00Z'),
    arrival: at('2026-03-22T09:00:00Z'),
    status: 'paid',
    manual: true,
  },
].map((payout) => ({
  id: payout.id,
  object: 'payout',
  amount: 0,
  currency: 'eur',
  created: payout.created,
  arrival_date: payout.arrival,
  status: payout.status,
  automatic: !payout.manual,
}));

type FakeStripe = {
  url: string;
  /** `answer` as Stripe does; `fail`: every listing answers 500; `hang`: listings are never answered. */
  mode: 'answer' | 'fail' | 'hang';
  /** The listings asked, each `path?query`. */
  listings: string[];
  close(): Promise<void>;
};

/** Stripe's paging: newest first, `starting_after` the last id seen, `has_more` while more remain. */
function page<T extends { id: string; created: number }>(items: T[], query: URLSearchParams) {
  const gte = query.get('created[gte]');
  const lt = query.get('created[lt]');
  const sorted = items
    .filter(
      (item) => (gte === null || item.created >= Number(gte)) && (lt === null || item.created < Number(lt)),
    )
    .sort((a, b) => b.created - a.created);
  const after = query.get('starting_after');
  const start = after === null ? 0 : sorted.findIndex((item) => item.id === after) + 1;
  const size = Math.min(PAGE_SIZE, Number(query.get('limit') ?? 10));
  return { data: sorted.slice(start, start + size), has_more: start + size < sorted.length };
}

async function startFakeStripe(): Promise<FakeStripe> {
  let sessions = 0;
  let refunds = 0;
  const sockets = new Set<net.Socket>();
  const fake: FakeStripe = {
    url: '',
    mode: 'answer',
    listings: [],
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stripe.test');
      const answer = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      const form = new URLSearchParams(body);
      if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        sessions += 1;
        const amount = [...form.entries()]
          .filter(([key]) => key.endsWith('[unit_amount]'))
          .reduce((sum, [, value]) => sum + Number(value), 0);
        const id = `cs_test_rec_${sessions}`;
        return answer(200, {
          id,
          object: 'checkout.session',
          client_secret: `${id}_secret_fake`,
          status: 'open',
          payment_status: 'unpaid',
          payment_intent: null,
          amount_total: amount,
          expires_at: Number(form.get('expires_at')),
        });
      }
      if (request.method === 'POST' && url.pathname === '/v1/refunds') {
        refunds += 1;
        return answer(200, { id: `re_rec_${refunds}`, object: 'refund', status: 'succeeded' });
      }
      if (request.method !== 'GET') return answer(404, { error: { type: 'invalid_request_error' } });
      fake.listings.push(`${url.pathname}${url.search}`);
      if (fake.mode === 'hang') return; // accepted, never answered
      if (fake.mode === 'fail') {
        return answer(500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
      }
      const query = url.searchParams;
      if (url.pathname === '/v1/payouts') {
        return answer(200, { object: 'list', url: '/v1/payouts', ...page(PAYOUTS, query) });
      }
      if (url.pathname === '/v1/balance_transactions') {
        const payout = query.get('payout');
        if (payout && !PAYOUTS.find((known) => known.id === payout)?.automatic) {
          return answer(400, {
            error: {
              type: 'invalid_request_error',
              message: 'Balance transaction history can only be filtered on automatic transfers, not manual.',
            },
          });
        }
        const expanded = [...query.entries()].some(
          ([key, value]) => key.startsWith('expand') && value === 'data.source',
        );
        const listed = page(
          TRANSACTIONS.filter((transaction) => payout === null || transaction.payout === payout),
          query,
        );
        return answer(200, {
          object: 'list',
          url: '/v1/balance_transactions',
          has_more: listed.has_more,
          data: listed.data.map((transaction) => ({
            id: transaction.id,
            object: 'balance_transaction',
            type: transaction.type,
            created: transaction.created,
            currency: 'eur',
            amount: transaction.amount,
            fee: transaction.fee,
            net: transaction.amount - transaction.fee,
            reporting_category: transaction.type,
            status: 'available',
            source: expanded ? transaction.source : (transaction.source?.id ?? null),
          })),
        });
      }
      return answer(404, { error: { type: 'invalid_request_error', message: 'no such route' } });
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

describe.each(PGLITE_ONLY)("Stripe's fees and payouts matched to the ledger (%s)", (target) => {
  let stripe: FakeStripe;
  let server: AccountApp;
  let owner: Awaited<ReturnType<typeof loggedInOperator>>;
  const db = (): Db => server.app.db;
  const PATH = '/api/admin/reports/stripe-reconciliation/csv?from=2026-03-20&to=2026-03-21';

  beforeAll(async () => {
    stripe = await startFakeStripe();
    server = await startAccountApp(target, {
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
      PAYMENT_PROVIDER_TIMEOUT_MS: '500',
    });
    owner = await loggedInOperator(server.app, server.clock, `owner-rec-${target}@gym.example`, 'owner');
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
  });

  /** Stripe tells the server a session is paid, signed as Stripe signs. */
  async function paid(sessionId: string, paymentIntent: string, amountCents: number) {
    const payload = JSON.stringify({
      id: `evt_${paymentIntent}`,
      object: 'event',
      type: 'checkout.session.completed',
      data: {
        object: {
          id: sessionId,
          object: 'checkout.session',
          status: 'complete',
          payment_status: 'paid',
          payment_intent: paymentIntent,
          amount_total: amountCents,
          expires_at: at('2026-03-20T23:00:00Z'),
        },
      },
    });
    const response = await server.app.inject({
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

  it('lists each ledger row with its gross, fee, net and payout, and what matches nothing on either side', async () => {
    const client = newClient(server.app);
    const member = await verifiedAccount(client, server.app, { locale: 'en' });
    const branchId = await createBranch(db());
    const book = async (start: string, priceEur: number) => {
      const slot = await slotAt(db(), branchId, start, priceEur);
      const created = await client.json(
        'POST',
        '/api/bookings/',
        {
          time_slot_id: [slot],
          max_bookings_per_slot: 1,
          coupon_code: null,
          expected_total_final_price_eur: priceEur,
        },
        member.token,
      );
      expect(created.statusCode, created.body).toBe(201);
      const session = created.json<Schemas['CreateBookingResponse']>().checkout_session;
      return session.clientSecret!.split('_secret_')[0]!;
    };

    server.clock.set('2026-03-20T10:30:00Z');
    await paid(await book('2026-03-26T10:00:00Z', 15), 'pi_rec_1', 1500);
    server.clock.set('2026-03-20T11:00:00Z');
    await paid(await book('2026-03-26T12:00:00Z', 22), 'pi_rec_2', 2200);
    server.clock.set('2026-03-20T11:30:00Z');
    await paid(await book('2026-03-26T14:00:00Z', 13.5), 'pi_rec_3', 1350);
    const second = await db()
      .selectFrom('bookings')
      .innerJoin('checkout_sessions', 'checkout_sessions.id', 'bookings.checkout_session_id')
      .select('bookings.id')
      .where('checkout_sessions.payment_intent_id', '=', 'pi_rec_2')
      .executeTakeFirstOrThrow();
    server.clock.set('2026-03-20T12:00:00Z');
    const canceled = await client.json(
      'POST',
      '/api/bookings/cancel-bookings',
      { booking: [{ booking_id: second.id, expected_refund_eur: 22 }] },
      member.token,
    );
    expect(canceled.statusCode, canceled.body).toBe(200);

    const entries = await db()
      .selectFrom('ledger_entries')
      .select(['id', 'kind', 'amount_cents', 'provider', 'provider_reference'])
      .orderBy('id')
      .execute();
    expect(
      entries.map((entry) => [entry.kind, entry.amount_cents, entry.provider, entry.provider_reference]),
    ).toEqual([
      ['payment', 1500, 'stripe', 'pi_rec_1'],
      ['payment', 2200, 'stripe', 'pi_rec_2'],
      ['payment', 1350, 'stripe', 'pi_rec_3'],
      ['refund', 2200, 'stripe', 're_rec_1'],
    ]);
    const [one, two, three, refund] = entries.map((entry) => entry.id);

    stripe.listings.length = 0;
    const answer = await owner.client.get(PATH, owner.token);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe(
      'attachment; filename="stripe-reconciliation-2026-03-20-2026-03-21.csv"',
    );
    expect(answer.headers['cache-control']).toBe('no-store');
    const expected = [
      'match,entry_id,date,kind,provider_reference,amount_eur,balance_transaction,type,created,gross_eur,fee_eur,net_eur,payout,payout_arrival_date,payout_status',
      `matched,${one},2026-03-20T10:30:00.000Z,payment,pi_rec_1,15.00,txn_rec_1,charge,2026-03-20T10:30:05.000Z,15.00,0.48,14.52,po_rec_1,2026-03-23,paid`,
      `matched,${two},2026-03-20T11:00:00.000Z,payment,pi_rec_2,22.00,txn_rec_2,charge,2026-03-20T11:00:04.000Z,22.00,0.58,21.42,po_rec_2,2026-03-24,in_transit`,
      `no_balance_transaction,${three},2026-03-20T11:30:00.000Z,payment,pi_rec_3,13.50,,,,,,,,,`,
      `matched,${refund},2026-03-20T12:00:00.000Z,refund,re_rec_1,-22.00,txn_rec_3,refund,2026-03-20T12:00:03.000Z,-22.00,0.00,-22.00,po_rec_2,2026-03-24,in_transit`,
      'no_ledger_row,,,,pi_elsewhere,,txn_rec_4,charge,2026-03-20T13:00:00.000Z,30.00,0.70,29.30,,,',
    ];
    expect(answer.body.split('\r\n')).toEqual([...expected, '']);

    // Read the documented way: the period's transactions with their source expanded, a day of margin either
    // side (19 March 00:00 to 23 March 00:00, Lisbon on UTC), page after page; the payouts created from then
    // to 31 days after the period, and the transactions of each automatic payout, never the manual one's.
    const transactionPages = stripe.listings.filter(
      (listing) => listing.startsWith('/v1/balance_transactions?') && !listing.includes('payout='),
    );
    expect(transactionPages.length).toBeGreaterThanOrEqual(2);
    const first = new URLSearchParams(transactionPages[0]!.split('?')[1]);
    expect(first.get('created[gte]')).toBe(String(at('2026-03-19T00:00:00Z')));
    expect(first.get('created[lt]')).toBe(String(at('2026-03-23T00:00:00Z')));
    expect([...first.values()]).toContain('data.source');
    expect(transactionPages.slice(1).every((listing) => listing.includes('starting_after='))).toBe(true);
    const payoutListing = new URLSearchParams(
      stripe.listings.find((listing) => listing.startsWith('/v1/payouts?'))!.split('?')[1],
    );
    expect(payoutListing.get('created[gte]')).toBe(String(at('2026-03-19T00:00:00Z')));
    expect(payoutListing.get('created[lt]')).toBe(String(at('2026-04-22T00:00:00Z')));
    expect(stripe.listings.filter((listing) => listing.includes('payout=po_rec_manual'))).toEqual([]);
    expect(stripe.listings.some((listing) => listing.includes('payout=po_rec_1'))).toBe(true);

    // The CLI prints the same lines.
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(['payments', 'stripe-reconciliation', '2026-03-20', '2026-03-21'], {
      db: db(),
      clock: server.clock,
      horizonDays: 2,
      io: { out: (line) => out.push(line), err: (line) => err.push(line) },
      payments: createStripePaymentProvider({
        secretKey: SECRET_KEY,
        webhookSecret: WEBHOOK_SECRET,
        apiUrl: stripe.url,
      }),
    });
    expect(code, err.join('\n')).toBe(0);
    expect(out).toEqual(expected);
    // Without a provider that keeps a balance, the CLI says so.
    const local: string[] = [];
    expect(
      await runAdmin(['payments', 'stripe-reconciliation', '2026-03-20', '2026-03-21'], {
        db: db(),
        clock: server.clock,
        horizonDays: 2,
        io: { out: () => {}, err: (line) => local.push(line) },
      }),
    ).toBe(2);
    expect(local[0]).toBe('payments stripe-reconciliation: provider_balance_missing');
  });

  it('is for owners: staff 403, a member 401, a period over a year 400', async () => {
    const staff = await loggedInOperator(
      server.app,
      server.clock,
      `staff-rec-${target}@gym.example`,
      'staff',
    );
    const refused = await staff.client.get(PATH, staff.token);
    expect([refused.statusCode, refused.json<ErrorBody>().code]).toEqual([403, 'operator_forbidden']);
    const client = newClient(server.app);
    const member = await verifiedAccount(client, server.app);
    const asMember = await client.get(PATH, member.token);
    expect([asMember.statusCode, asMember.json<ErrorBody>().code]).toEqual([401, 'unauthorized']);
    const tooLong = await owner.client.get(
      '/api/admin/reports/stripe-reconciliation/csv?from=2025-01-01&to=2026-03-21',
      owner.token,
    );
    expect([tooLong.statusCode, tooLong.json<ErrorBody>().code]).toEqual([400, 'invalid_period']);
  });

  it("answers 502 with Stripe's status when Stripe fails, and 503 when it does not answer, never a 500", async () => {
    stripe.mode = 'fail';
    try {
      const failed = await owner.client.get(PATH, owner.token, { locale: 'en' });
      expect(failed.statusCode, failed.body).toBe(502);
      expect(failed.json<ErrorBody>()).toEqual({
        code: 'provider_balance_refused',
        detail:
          'Stripe refused or failed to list the balance transactions and payouts (HTTP 500). Check that the key may read “Balance transactions” and “Payouts”, then try again.',
      });
      stripe.mode = 'hang';
      const started = performance.now();
      const silent = await owner.client.get(PATH, owner.token, { locale: 'en' });
      expect(silent.statusCode, silent.body).toBe(503);
      expect(silent.json<ErrorBody>()).toEqual({
        code: 'provider_balance_unavailable',
        detail:
          'Stripe did not answer the balance transactions listing in time. Nothing was changed; please try again in a moment.',
      });
      expect(silent.headers['retry-after']).toBeDefined();
      // Two tries of 500 ms and the SDK's pause between them.
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      stripe.mode = 'answer';
    }
  });
});

describe.each(PGLITE_ONLY)('the reconciliation without Stripe (%s)', (target) => {
  let server: AccountApp;
  beforeAll(async () => {
    server = await startAccountApp(target);
  }, 60_000);
  afterAll(async () => server?.close());

  it('answers 409: the local provider has no fees or payouts', async () => {
    const owner = await loggedInOperator(
      server.app,
      server.clock,
      `owner-local-${target}@gym.example`,
      'owner',
    );
    const answer = await owner.client.get(
      '/api/admin/reports/stripe-reconciliation/csv?from=2026-03-20&to=2026-03-21',
      owner.token,
      { locale: 'en' },
    );
    expect(answer.statusCode).toBe(409);
    expect(answer.json<ErrorBody>()).toEqual({
      code: 'provider_balance_missing',
      detail:
        "This server's payment provider is the local one (no Stripe): there are no fees or payouts to reconcile.",
    });
  });
});
