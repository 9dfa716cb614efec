import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/database.ts';
import {
  newClient,
  outboxTo,
  startAccountApp,
  verifiedAccount,
  type AccountApp,
  type Client,
  type Schemas,
} from './support/accounts.ts';
import { PGLITE_ONLY } from './support/databases.ts';
import { createBranch, insertSlot } from './support/fixtures.ts';
import { csvRows, ledgerInvariantViolations, ledgerMoneyByDay, NO_VIOLATIONS } from './support/ledger.ts';
import { ledgerCsvBatch, type LedgerPlace } from '../../server/console/repository.ts';
import { csvCell } from '../../server/console/csv.ts';
import { loggedInOperator } from './support/operators.ts';

// Issue 27, item 1: every movement of money is one row of the ledger, and every figure the product shows reads
// it. One member's money, through the real HTTP API: two slots in one checkout, a move to a dearer slot (the
// difference paid), a move to a cheaper one (the difference refunded), a cancellation, a closure, an operator's
// refund of an amount, and the account's deletion. The money report, its CSV, the console's booking and member
// pages and My bookings must each agree with the figures worked out by hand and with sums over the ledger.

const cents = (euros: number) => Math.round(euros * 100);

type LedgerRow = {
  id: number;
  kind: 'payment' | 'refund';
  purpose: string;
  amount_cents: number;
  vat_cents: number;
  user_id: string | null;
};

describe.each(PGLITE_ONLY)('the money ledger on %s', (target) => {
  let server: AccountApp;
  let owner: Awaited<ReturnType<typeof loggedInOperator>>;
  let branchId: number;

  beforeAll(async () => {
    server = await startAccountApp(target);
    owner = await loggedInOperator(server.app, server.clock, `owner-${target}@gym.example`, 'owner');
    branchId = await createBranch(server.app.db);
  });
  afterAll(async () => server?.close());

  const db = (): Db => server.app.db;

  /**
   * The ledger CSV's lines of a period, read a batch of `limit` rows at a time (at most `most` batches, a walk
   * that would not end), as cells: the rows, how many batches it took and whether the last said it was the last.
   */
  const ledgerCsvLines = async (
    filter: { branchId?: number; from: string; to: string },
    limit: number,
    most = 1000,
  ) => {
    const rows: string[][] = [];
    let after: LedgerPlace | null = null;
    let batches = 0;
    do {
      const batch = await ledgerCsvBatch(db(), filter, { after, limit });
      rows.push(...csvRows(batch.csv));
      after = batch.last;
      batches += 1;
    } while (after !== null && batches < most);
    return { rows, batches, ended: after === null };
  };

  /** A one-hour slot at a UTC start (Lisbon is on UTC until 29 March) with its price. */
  const slot = (start: string, priceEur: number) =>
    insertSlot(db(), {
      branchId,
      start,
      end: new Date(Date.parse(start) + 3_600_000).toISOString(),
      localDate: start.slice(0, 10),
      priceCents: cents(priceEur),
    });

  async function payLocally(client: Client, clientSecret: string) {
    const sessionId = clientSecret.split('_secret_')[0]!;
    const paid = await client.json('POST', `/api/checkout/local/${sessionId}/complete`, {
      card_number: '4242 4242 4242 4242',
    });
    expect(paid.statusCode).toBe(200);
    return sessionId;
  }

  /** Books the slots in one checkout and pays it; answers the bookings' ids in slot order. */
  async function bookAndPay(client: Client, token: string, slotIds: number[], totalEur: number) {
    const created = await client.json(
      'POST',
      '/api/bookings/',
      {
        time_slot_id: slotIds,
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: totalEur,
      },
      token,
    );
    expect(created.statusCode).toBe(201);
    await payLocally(client, created.json<Schemas['CreateBookingResponse']>().checkout_session.clientSecret!);
    const ids: number[] = [];
    for (const slotId of slotIds) {
      const row = await db()
        .selectFrom('bookings')
        .select('id')
        .where('slot_id', '=', slotId)
        .where('status', '=', 'confirmed')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    return ids;
  }

  const ledger = async (): Promise<LedgerRow[]> =>
    (
      await sql<LedgerRow>`select id, kind, purpose, amount_cents, vat_cents, user_id
        from ledger_entries order by id`.execute(db())
    ).rows;

  /** Per booking: what its payments brought in, what was refunded of it, and of that what its moves refunded. */
  const ledgerOfBooking = async (bookingId: number) => {
    const { rows } = await sql<{ paid: number; refunded: number; moves_refunded: number; ending: number }>`
      select
        coalesce(sum(share.amount_cents) filter (where entry.kind = 'payment'), 0)::int as paid,
        coalesce(sum(share.amount_cents) filter (where entry.kind = 'refund'), 0)::int as refunded,
        coalesce(sum(share.amount_cents) filter (where entry.purpose in ('move_to_cheaper_slot', 'move_late_payment')), 0)::int as moves_refunded,
        coalesce(sum(share.amount_cents) filter (where entry.kind = 'refund'
          and entry.purpose not in ('move_to_cheaper_slot', 'move_late_payment')), 0)::int as ending
      from ledger_entry_bookings as share join ledger_entries as entry on entry.id = share.entry_id
      where share.booking_id = ${bookingId}`.execute(db());
    return rows[0]!;
  };

  it('shows the same money everywhere: report, CSV, booking and member pages and My bookings, all sums over the ledger', async () => {
    const client = newClient(server.app);
    const member = await verifiedAccount(client, server.app, { locale: 'en' });
    const { id: memberId } = await db()
      .selectFrom('users')
      .select('id')
      .where('email', '=', member.email.toLowerCase())
      .executeTakeFirstOrThrow();

    // 1. Two slots in one checkout: 13.50 + 22.00 = 35.50.
    const first = await slot('2026-03-26T10:00:00Z', 13.5);
    const second = await slot('2026-03-26T12:00:00Z', 22);
    const [x, y] = (await bookAndPay(client, member.token, [first, second], 35.5)) as [number, number];

    // 2. x moves to a dearer slot: the 6.30 difference is paid through a checkout of its own.
    const dearer = await slot('2026-03-27T10:00:00Z', 19.8);
    const dearerMove = await client.json(
      'POST',
      `/api/bookings/${x}/move`,
      { time_slot_id: dearer, expected_price_difference_eur: 6.3 },
      member.token,
    );
    expect(dearerMove.json<Schemas['MoveBookingResponse']>().status).toBe('awaiting_payment');
    await payLocally(
      client,
      dearerMove.json<Schemas['MoveBookingResponse']>().checkout_session!.clientSecret,
    );

    // 3. y moves to a cheaper slot: 7.00 back at once.
    const cheaper = await slot('2026-03-27T12:00:00Z', 15);
    const cheaperMove = await client.json(
      'POST',
      `/api/bookings/${y}/move`,
      { time_slot_id: cheaper, expected_price_difference_eur: -7 },
      member.token,
    );
    expect(cheaperMove.json<Schemas['MoveBookingResponse']>()).toMatchObject({
      status: 'moved',
      refunded_eur: 7,
    });

    // 4. The member cancels both, six days ahead: everything still held comes back (19.80 and 15.00).
    const canceled = await client.json(
      'POST',
      '/api/bookings/cancel-bookings',
      {
        booking: [
          { booking_id: x, expected_refund_eur: 19.8 },
          { booking_id: y, expected_refund_eur: 15 },
        ],
      },
      member.token,
    );
    expect(canceled.statusCode).toBe(200);

    // 5. A closure cancels a 16.00 booking with a full refund.
    const [closed] = (await bookAndPay(
      client,
      member.token,
      [await slot('2026-03-28T18:00:00Z', 16)],
      16,
    )) as [number];
    const closure = await owner.client.json(
      'POST',
      '/api/admin/closures',
      {
        branch_id: branchId,
        starts_at: '2026-03-28T17:30:00Z',
        ends_at: '2026-03-28T20:30:00Z',
        reason: 'water leak',
      },
      owner.token,
    );
    expect(closure.statusCode).toBe(201);

    // 6. An operator cancels a 15.00 booking and refunds 5.00 of it.
    const [overridden] = (await bookAndPay(
      client,
      member.token,
      [await slot('2026-03-29T10:00:00Z', 15)],
      15,
    )) as [number];
    const operatorCancel = await owner.client.json(
      'POST',
      `/api/admin/bookings/${overridden}/cancel`,
      { refund: { mode: 'amount', amount_eur: 5 }, reason: 'broken shower' },
      owner.token,
    );
    expect(operatorCancel.statusCode).toBe(200);

    // 7. An 18.00 booking 33.5 hours ahead, within the policy's 50 % tier, is refunded 9.00 when the account goes.
    const [kept] = (await bookAndPay(client, member.token, [await slot('2026-03-21T20:00:00Z', 18)], 18)) as [
      number,
    ];

    // My bookings, read before the account is deleted.
    const mine = (await client.get('/api/bookings/my-bookings', member.token)).json<Schemas['Booking'][]>();
    const myBooking = (id: number) => mine.find((booking) => booking.id === id)!;

    const mails = await outboxTo(server.app, member.email.toLowerCase());
    const deleted = await client.json('DELETE', '/api/auth/delete-account', undefined, member.token);
    expect(deleted.statusCode).toBe(200);

    // --- The figures worked out by hand --------------------------------------------------------------------
    // Payments: 35.50 + 6.30 + 16.00 + 15.00 + 18.00 = 90.80 (5).
    // Refunds: 7.00 (cheaper move) + 6.30 + 13.50 (x cancelled) + 15.00 (y cancelled) + 16.00 (closure)
    //          + 5.00 (operator) + 9.00 (account deletion) = 71.80 (7). Revenue 19.00.
    const byHand = {
      payments_eur: 90.8,
      payments_count: 5,
      refunds_eur: 71.8,
      refunds_count: 7,
      revenue_eur: 19,
    };
    /** Per booking: price now, paid in, refunded in all, and what My bookings says was refunded when it ended. */
    const bookings = {
      [x]: { price: 19.8, paid: 19.8, refunded: 19.8, ended: 19.8 },
      [y]: { price: 15, paid: 22, refunded: 22, ended: 15 },
      [closed]: { price: 16, paid: 16, refunded: 16, ended: 16 },
      [overridden]: { price: 15, paid: 15, refunded: 5, ended: 5 },
      [kept]: { price: 18, paid: 18, refunded: 9, ended: 9 },
    };

    // The money report and its CSV.
    const query = `from=2026-03-01&to=2026-03-31&branch_id=${branchId}`;
    const report = (await owner.client.get(`/api/admin/reports/money?${query}`, owner.token)).json<
      Schemas['MoneyReport']
    >();
    expect.soft(report.totals, 'money report totals').toEqual(byHand);
    const csv = (await owner.client.get(`/api/admin/reports/money/csv?${query}`, owner.token)).body
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    // Every day of March is a row, the days without money with zeros.
    expect.soft(csv.length - 1, 'money report CSV: a row a day').toBe(31);
    expect
      .soft(
        csv.slice(1).filter((cells) => cells[3] !== '0.00' || cells[4] !== '0.00'),
        'money report CSV: the day money moved',
      )
      .toEqual([['2026-03-20', String(branchId), expect.any(String), '90.80', '71.80', '19.00', '5', '7']]);
    expect
      .soft(
        csv.slice(1).filter((cells) => cells[0] === '2026-03-19'),
        'money report CSV: a day without money',
      )
      .toEqual([['2026-03-19', String(branchId), expect.any(String), '0.00', '0.00', '0.00', '0', '0']]);

    // The console's booking pages: price, paid in, refunded; the history lists each payment, move and refund.
    const detailOf = async (id: number) =>
      (await owner.client.get(`/api/admin/bookings/${id}`, owner.token)).json<
        Schemas['AdminBookingDetail']
      >();
    for (const [id, figures] of Object.entries(bookings)) {
      const detail = await detailOf(Number(id));
      expect
        .soft(
          {
            final_price_eur: detail.booking.final_price_eur,
            paid_eur: detail.booking.paid_eur,
            refunded_eur: detail.booking.refunded_eur,
          },
          `console booking page of #${id}`,
        )
        .toEqual({ final_price_eur: figures.price, paid_eur: figures.paid, refunded_eur: figures.refunded });
    }
    const moneyHistory = (detail: Schemas['AdminBookingDetail']) =>
      detail.history
        .filter((event) => ['paid', 'refunded', 'moved'].includes(event.kind))
        .map((event) => (event.amount_cents === null ? event.kind : `${event.kind} ${event.amount_cents}`));
    expect
      .soft(moneyHistory(await detailOf(x)), 'history of the booking moved to a dearer slot')
      .toEqual(['paid 1350', 'paid 630', 'moved', 'refunded 630', 'refunded 1350']);
    expect
      .soft(moneyHistory(await detailOf(y)), 'history of the booking moved to a cheaper slot')
      .toEqual(['paid 2200', 'moved', 'refunded 700', 'refunded 1500']);
    const xDetail = await detailOf(x);
    expect
      .soft(
        xDetail.payments.map((movement) => [movement.kind, movement.amount_eur]),
        'the payments listed on the booking page',
      )
      .toEqual(
        expect.arrayContaining([
          ['payment', 35.5],
          ['payment', 6.3],
          ['refund', 6.3],
          ['refund', 13.5],
        ]),
      );

    // The member's page: every payment and refund of theirs.
    const memberPage = (await owner.client.get(`/api/admin/members/${memberId}`, owner.token)).json<
      Schemas['MemberDetail']
    >();
    const sumOf = (kind: 'payment' | 'refund') =>
      memberPage.payments
        .filter((movement) => movement.kind === kind)
        .reduce((sum, movement) => sum + cents(movement.amount_eur), 0);
    expect
      .soft(
        { payments: sumOf('payment'), refunds: sumOf('refund'), rows: memberPage.payments.length },
        'member page',
      )
      .toEqual({ payments: 9080, refunds: 7180, rows: 12 });
    for (const [id, figures] of Object.entries(bookings)) {
      const listed = memberPage.bookings.find((booking) => booking.id === Number(id));
      expect
        .soft([listed?.paid_eur, listed?.refunded_eur], `member page booking #${id}`)
        .toEqual([figures.paid, figures.refunded]);
    }

    // My bookings: the price as it stands, paid, and what came back when the booking ended.
    for (const [id, figures] of Object.entries(bookings)) {
      const booking = myBooking(Number(id));
      const ended = Number(id) === kept ? null : figures.ended;
      expect
        .soft(
          {
            final_price_eur: booking.final_price_eur,
            paid: booking.paid,
            refunded_eur: booking.refunded_eur,
          },
          `My bookings #${id}`,
        )
        .toEqual({ final_price_eur: figures.price, paid: true, refunded_eur: ended });
    }

    // The receipt of the two-slot checkout and the cancellation's message state the ledger's figures.
    // The outbox answers newest first: the first checkout's confirmation is the last one.
    const confirmation = mails.filter((mail) => mail.subject?.startsWith('Bookings confirmed')).at(-1);
    expect.soft(confirmation?.text, 'receipt').toContain('Total (VAT included): €35.50');
    expect.soft(confirmation?.text, 'receipt VAT').toContain('VAT 23% included: €6.64');
    const cancellation = mails.find((mail) => mail.text.includes('You cancelled these bookings'));
    expect.soft(cancellation?.text, 'cancellation message').toContain('Total refund: €34.80');

    // --- The same figures as sums over the ledger -------------------------------------------------------------
    const rows = await ledger();
    const total = (kind: 'payment' | 'refund') =>
      rows.filter((row) => row.kind === kind).reduce((sum, row) => sum + row.amount_cents, 0);
    expect(rows.map((row) => `${row.kind} ${row.purpose} ${row.amount_cents}`)).toEqual([
      'payment booking 3550',
      'payment move_difference 630',
      'refund move_to_cheaper_slot 700',
      'refund cancellation 630',
      'refund cancellation 1350',
      'refund cancellation 1500',
      'payment booking 1600',
      'refund closure 1600',
      'payment booking 1500',
      'refund operator 500',
      'payment booking 1800',
      'refund account_deletion 900',
    ]);
    expect(rows.every((row) => row.user_id === memberId)).toBe(true);
    // VAT included at 23 %, on each row's own amount.
    expect(rows[0]!.vat_cents).toBe(664);
    expect({
      payments_eur: total('payment') / 100,
      payments_count: rows.filter((row) => row.kind === 'payment').length,
      refunds_eur: total('refund') / 100,
      refunds_count: rows.filter((row) => row.kind === 'refund').length,
      revenue_eur: (total('payment') - total('refund')) / 100,
    }).toEqual(report.totals);
    expect(report.totals).toEqual(byHand);
    for (const [id, figures] of Object.entries(bookings)) {
      const sums = await ledgerOfBooking(Number(id));
      expect({ paid: sums.paid, refunded: sums.refunded, price: sums.paid - sums.moves_refunded }).toEqual({
        paid: cents(figures.paid),
        refunded: cents(figures.refunded),
        price: cents(figures.price),
      });
      expect(sums.ending).toBe(cents(figures.ended));
    }

    // The invariants, in SQL: shares add up, no refund beyond its payment, every paid booking and move has its
    // payment, every refund that moved money is a row.
    expect(await ledgerInvariantViolations(db())).toEqual(NO_VIOLATIONS);
    // The report over the whole period is the ledger.
    const fromLedger = await sql<{ payments: number; refunds: number }>`
      select coalesce(sum(amount_cents) filter (where kind = 'payment'), 0)::int as payments,
        coalesce(sum(amount_cents) filter (where kind = 'refund'), 0)::int as refunds
      from ledger_entries where branch_id = ${branchId}`.execute(db());
    expect(fromLedger.rows[0]).toEqual({
      payments: cents(report.totals.payments_eur),
      refunds: cents(report.totals.refunds_eur),
    });

    // The ledger cannot be rewritten.
    await expect(sql`update ledger_entries set amount_cents = 1`.execute(db())).rejects.toThrow(/immutable/);
    await expect(sql`delete from ledger_entry_bookings`.execute(db())).rejects.toThrow(/immutable/);
  });
  it('records a payment that came after its hold ended, and its refund, for a booking and for a move', async () => {
    const client = newClient(server.app);
    const member = await verifiedAccount(client, server.app, { locale: 'en' });
    const { id: memberId } = await db()
      .selectFrom('users')
      .select('id')
      .where('email', '=', member.email.toLowerCase())
      .executeTakeFirstOrThrow();
    // A development route: only a caller on the loopback address reaches it.
    const payLate = (clientSecret: string) =>
      server.app.inject({
        method: 'POST',
        url: `/api/dev/checkout/${clientSecret.split('_secret_')[0]!}/pay-late`,
      });

    // A booking paid after its hold ended: 12.00 in, 12.00 back, the slot never booked.
    const lateSlot = await slot('2026-04-02T10:00:00Z', 12);
    const created = await client.json(
      'POST',
      '/api/bookings/',
      {
        time_slot_id: [lateSlot],
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: 12,
      },
      member.token,
    );
    expect(created.statusCode, created.body).toBe(201);
    const late = await payLate(
      created.json<Schemas['CreateBookingResponse']>().checkout_session.clientSecret!,
    );
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json<Schemas['CheckoutSessionStatus']>().bookings).toEqual([
      expect.objectContaining({ status: 'expired', refunded_eur: 12 }),
    ]);
    const { id: lateBooking } = await db()
      .selectFrom('bookings')
      .select('id')
      .where('slot_id', '=', lateSlot)
      .executeTakeFirstOrThrow();

    // A move's difference paid after its hold ended: 3.00 in, 3.00 back, the booking where it was.
    const [kept] = (await bookAndPay(client, member.token, [await slot('2026-04-03T10:00:00Z', 15)], 15)) as [
      number,
    ];
    const dearer = await slot('2026-04-04T10:00:00Z', 18);
    const moving = await client.json(
      'POST',
      `/api/bookings/${kept}/move`,
      { time_slot_id: dearer, expected_price_difference_eur: 3 },
      member.token,
    );
    await payLate(moving.json<Schemas['MoveBookingResponse']>().checkout_session!.clientSecret);

    const rows = (await ledger()).filter((row) => row.user_id === memberId);
    expect(rows.map((row) => `${row.kind} ${row.purpose} ${row.amount_cents}`)).toEqual([
      'payment booking 1200',
      'refund late_payment 1200',
      'payment booking 1500',
      'payment move_difference 300',
      'refund move_late_payment 300',
    ]);
    const mine = (await client.get('/api/bookings/my-bookings', member.token)).json<Schemas['Booking'][]>();
    const listed = (id: number) => {
      const booking = mine.find((entry) => entry.id === id)!;
      return [booking.status, booking.paid, booking.final_price_eur, booking.refunded_eur];
    };
    expect(listed(lateBooking)).toEqual(['expired', true, 12, 12]);
    expect(listed(kept)).toEqual(['confirmed', true, 15, null]);
    const page = async (id: number) => {
      const { booking } = (await owner.client.get(`/api/admin/bookings/${id}`, owner.token)).json<
        Schemas['AdminBookingDetail']
      >();
      return [booking.final_price_eur, booking.paid_eur, booking.refunded_eur];
    };
    expect(await page(lateBooking)).toEqual([12, 12, 12]);
    expect(await page(kept)).toEqual([15, 18, 3]);
    const sums = await ledgerOfBooking(kept);
    expect(sums).toEqual({ paid: 1800, refunded: 300, moves_refunded: 300, ending: 0 });
    expect(await ledgerInvariantViolations(db())).toEqual(NO_VIOLATIONS);
  });

  it("reads a report from the ledger's day sums, which follow a branch's time zone, and streams the ledger CSV a batch at a time", async () => {
    // The work of the tests above is in the ledger: the report by day over it must be the ledger's own sums.
    const period = { from: '2026-01-01', to: '2026-12-31' };
    /** The branch's money report of the period, its granularity and its rows in cents. */
    const report = async (granularity: 'day' | 'week' | 'month') => {
      const answer = (
        await owner.client.get(
          `/api/admin/reports/money?from=${period.from}&to=${period.to}&branch_id=${branchId}&granularity=${granularity}`,
          owner.token,
        )
      ).json<Schemas['MoneyReport']>();
      return {
        granularity: answer.granularity,
        rows: answer.rows.map((row) => ({
          period: row.period,
          branch_id: row.branch.id,
          payments_cents: cents(row.payments_eur),
          refunds_cents: cents(row.refunds_eur),
          payments_count: row.payments_count,
          refunds_count: row.refunds_count,
        })),
      };
    };
    const reportByDay = async () => (await report('day')).rows;
    const fromLedger = async () => (await ledgerMoneyByDay(db(), { ...period, branchId })).everyDay;
    const moneyDays = async () =>
      (await fromLedger()).filter((row) => row.payments_count + row.refunds_count > 0);
    const before = await moneyDays();
    expect(before.length).toBeGreaterThan(0);
    expect(await reportByDay()).toEqual(await fromLedger());
    expect((await reportByDay()).length, 'a row for each day of the year').toBe(365);

    // By ISO week (its Monday, the one before the period's first day included) and by month: the days' sums.
    const periodOf = (day: string, granularity: 'week' | 'month') => {
      if (granularity === 'month') return `${day.slice(0, 8)}01`;
      const date = Date.parse(`${day}T00:00:00Z`);
      const sinceMonday = (new Date(date).getUTCDay() + 6) % 7;
      return new Date(date - sinceMonday * 86_400_000).toISOString().slice(0, 10);
    };
    for (const granularity of ['week', 'month'] as const) {
      const grouped = new Map<string, Awaited<ReturnType<typeof fromLedger>>[number]>();
      for (const day of await fromLedger()) {
        const key = periodOf(day.period, granularity);
        const sum = grouped.get(key) ?? {
          ...day,
          period: key,
          payments_cents: 0,
          refunds_cents: 0,
          payments_count: 0,
          refunds_count: 0,
        };
        sum.payments_cents += day.payments_cents;
        sum.refunds_cents += day.refunds_cents;
        sum.payments_count += day.payments_count;
        sum.refunds_count += day.refunds_count;
        grouped.set(key, sum);
      }
      const answer = await report(granularity);
      expect(answer.granularity).toBe(granularity);
      expect(answer.rows, granularity).toEqual([...grouped.values()]);
    }

    // A branch moved to another time zone: its movements fall on other local days, at once.
    const days = new Set<string>();
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Europe/Lisbon']) {
      await sql`update branches set time_zone = ${zone} where id = ${branchId}`.execute(db());
      for (const row of await moneyDays()) days.add(row.period);
      expect(await reportByDay(), zone).toEqual(await fromLedger());
      expect(await ledgerInvariantViolations(db())).toEqual(NO_VIOLATIONS);
    }
    expect(days.size, 'some movement changed day with the zone').toBeGreaterThan(before.length);

    // The ledger a batch at a time, however small the batches, is the ledger read at once: no row twice or lost,
    // rows of one instant included (this server's clock stands still, so every movement shares it).
    const filter = { branchId, ...period };
    const whole = await ledgerCsvLines(filter, 10_000);
    expect(whole.batches).toBe(1);
    expect(whole.rows.length).toBeGreaterThan(3);
    expect(new Set(whole.rows.map((row) => row[0])).size).toBeLessThan(whole.rows.length);
    for (const limit of [1, 2, 3]) {
      expect((await ledgerCsvLines(filter, limit)).rows, `batches of ${limit}`).toEqual(whole.rows);
    }
    // The days just before the movements': their instants are in the range read, but none is on those days.
    const dayOf = whole.rows[0]![1]!;
    const dayBefore = new Date(Date.parse(`${dayOf}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const edge = await ledgerCsvBatch(
      db(),
      { branchId, from: '2026-01-01', to: dayBefore },
      { after: null, limit: 2 },
    );
    expect(edge.csv).toBe('');
    expect(edge.last, 'more rows of the range were left to read').not.toBeNull();
    const exported = async () =>
      (
        await owner.client.get(
          `/api/admin/reports/ledger/csv?from=${period.from}&to=${period.to}&branch_id=${branchId}`,
          owner.token,
        )
      ).body;
    expect(csvRows((await exported()).replace(/^[^\r]*\r\n/, ''))).toEqual(whole.rows);

    // The database writes the lines: a text cell comes out as csvCell writes it, a would-be formula defused.
    const named = await db()
      .selectFrom('branches')
      .select('name')
      .where('id', '=', branchId)
      .executeTakeFirstOrThrow();
    for (const name of [
      '=SUM(A1:A9)',
      '+1 "quoted", and more',
      '-5',
      '-2.50',
      '@home',
      '\tTab',
      'Line\nbreak',
      'Gym, Porto',
      'The "Box"',
      'Carriage\rreturn',
      'Plain name',
    ]) {
      await sql`update branches set name = ${name} where id = ${branchId}`.execute(db());
      const text = await exported();
      expect(text, name).toContain(`,${branchId},${csvCell(name)},`);
      const first = csvRows(text.replace(/^[^\r]*\r\n/, ''))[0];
      expect(first?.[7], `${name} read back`).toBe(csvCell(name).startsWith(`"'`) ? `'${name}` : name);
    }
    await sql`update branches set name = ${named.name} where id = ${branchId}`.execute(db());
  });

  it('walks the ledger whole when more rows than a batch share one instant to the microsecond', async () => {
    // Rows written by one transaction's now() (a migration's backfill, a bulk import) share their instant to the
    // microsecond. The next batch's place was a JavaScript Date (milliseconds), which fell before its own row: the
    // row came twice, and with more such rows than a batch the export read the same batch again, forever.
    const client = newClient(server.app);
    const member = await verifiedAccount(client, server.app, { locale: 'en' });
    const [paid] = (await bookAndPay(client, member.token, [await slot('2026-07-02T10:00:00Z', 15)], 15)) as [
      number,
    ];
    const source = await db()
      .selectFrom('ledger_entry_bookings')
      .select('entry_id as id')
      .where('booking_id', '=', paid)
      .executeTakeFirstOrThrow();
    await db()
      .transaction()
      .execute(async (trx) => {
        await sql`create temp table session_copies on commit drop as
          select session.*, copy from checkout_sessions as session
            join ledger_entries as entry on entry.checkout_session_id = session.id,
            generate_series(1, 8) as copy
          where entry.id = ${source.id}`.execute(trx);
        await sql`update session_copies set id = id || '-copy-' || copy`.execute(trx);
        await sql`create temp table session_rows on commit drop as select * from session_copies`.execute(trx);
        await sql`alter table session_rows drop column copy`.execute(trx);
        await sql`insert into checkout_sessions select * from session_rows`.execute(trx);
        await sql`with added as (
            insert into ledger_entries (kind, purpose, amount_cents, currency, vat_rate, vat_cents, provider,
              provider_reference, checkout_session_id, branch_id, user_id, actor_type, actor_id, actor_name,
              occurred_at)
            select entry.kind, entry.purpose, entry.amount_cents, entry.currency, entry.vat_rate, entry.vat_cents,
              entry.provider, entry.provider_reference, copy.id, entry.branch_id, entry.user_id, entry.actor_type,
              entry.actor_id, entry.actor_name,
              timestamptz '2026-07-01 10:00:00.123456+00' + (copy.copy > 5)::int * interval '1 microsecond'
            from ledger_entries as entry cross join session_copies as copy where entry.id = ${source.id}
            returning id)
          insert into ledger_entry_bookings (entry_id, booking_id, amount_cents)
          select added.id, share.booking_id, share.amount_cents
          from added cross join ledger_entry_bookings as share where share.entry_id = ${source.id}`.execute(
          trx,
        );
      });
    const filter = { branchId, from: '2026-01-01', to: '2026-12-31' };
    const whole = await ledgerCsvLines(filter, 10_000);
    expect(whole.rows.filter((row) => row[0] === '2026-07-01T10:00:00.123Z')).toHaveLength(8);
    for (const limit of [1, 2, 3, 7]) {
      const walked = await ledgerCsvLines(filter, limit, 2 * whole.rows.length + 2);
      expect(walked.ended, `batches of ${limit} came to an end`).toBe(true);
      expect(walked.rows, `batches of ${limit}`).toEqual(whole.rows);
    }
  });
});
