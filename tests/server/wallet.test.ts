import type { FastifyInstance } from 'fastify';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { dateFromInstant, fixedClock } from '../../server/kernel/clock.ts';
import { JOB_QUEUES } from '../../server/jobs/queue.ts';
import { lisbonSlot } from './bookings-fixtures.ts';
import {
  accountTestConfig,
  newClient,
  outboxTo,
  RELAXED_RATE_LIMITS,
  STRONG_PASSWORD,
  verifiedAccount,
  type Client,
  type ErrorBody,
  type Schemas,
} from './support/accounts.ts';
import {
  DATABASE_TARGETS,
  emptyAllTables,
  freshDatabaseConfig,
  type FreshDatabase,
} from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';
import { loggedInOperator } from './support/operators.ts';
import { runAdmin } from '../../server/admin/cli.ts';

// Issue 31, item 2: prepaid packs and a credit wallet. An operator puts packs on sale; a member buys one through
// the normal checkout (a money-ledger payment with its invoice, a lot with its grant); at booking the credit pays
// the slots it covers, earliest expiry first and within scope, the rest through checkout; a cancellation gives
// credit back to its lot by the tiered policy; a hold that ends unpaid gives it back whole; a lot is announced
// 14 days before it expires and written off after; a lot is never spent below zero by concurrent bookings.
// Every credit movement is a row, and each lot's balance is the sum of its rows.

const START = '2026-03-02T09:00:00Z';

describe.each(DATABASE_TARGETS)('prepaid packs and the credit wallet (%s)', (target) => {
  const clock = fixedClock(START);
  let database: FreshDatabase;
  let app: FastifyInstance;
  let lisboa: number;
  let porto: number;
  let owner: Awaited<ReturnType<typeof loggedInOperator>>;

  beforeAll(async () => {
    database = await freshDatabaseConfig(target);
    app = await buildApp(
      accountTestConfig(database.config, {
        SLOT_HORIZON_DAYS: '3',
        RATE_LIMITS: RELAXED_RATE_LIMITS.replace(/voucher\.redeem=[^,]+/, 'voucher.redeem=3/1h'),
      }),
      { clock },
    );
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  beforeEach(async () => {
    clock.set(START);
    await emptyAllTables(app.db);
    await app.jobs.boss.deleteAllJobs();
    lisboa = await createBranch(app.db, { name: 'Lisboa' });
    porto = await createBranch(app.db, { name: 'Porto' });
    owner = await loggedInOperator(app, clock, `owner-${Math.random()}@gym.example`, 'owner');
  });

  async function createPack(body: Schemas['AdminCreditPackCreate']): Promise<Schemas['AdminCreditPack']> {
    const created = await owner.client.json('POST', '/api/admin/credit-packs', body, owner.token);
    expect(created.statusCode, created.body).toBe(201);
    return created.json<Schemas['AdminCreditPack']>();
  }

  type Member = { caller: Client; token: string; email: string };
  async function member(): Promise<Member> {
    const caller = newClient(app);
    const account = await verifiedAccount(caller, app, { locale: 'en' });
    return { caller, token: account.token, email: account.email.toLowerCase() };
  }

  async function buy(who: Member, packId: number, pay: 'card' | 'none' = 'card'): Promise<string> {
    const bought = await who.caller.json('POST', `/api/credit-packs/${packId}/purchase`, {}, who.token);
    expect(bought.statusCode, bought.body).toBe(201);
    const sessionId = bought
      .json<Schemas['CreateBookingResponse']>()
      .checkout_session.clientSecret!.split('_secret_')[0]!;
    if (pay === 'card') {
      const paid = await who.caller.json('POST', `/api/checkout/local/${sessionId}/complete`, {
        card_number: '4242 4242 4242 4242',
      });
      expect(paid.statusCode, paid.body).toBe(200);
    }
    return sessionId;
  }

  const wallet = async (who: Member) =>
    (await who.caller.get('/api/wallet', who.token)).json<Schemas['Wallet']>();

  const cover = async (who: Member, slotIds: number[]) => {
    const answer = await who.caller.json('POST', '/api/wallet/cover', { time_slot_id: slotIds }, who.token);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<Schemas['CreditCover']>();
  };

  const book = (who: Member, slotIds: number[], dueEur: number, useCredit = true) =>
    who.caller.json(
      'POST',
      '/api/bookings/',
      { time_slot_id: slotIds, expected_total_final_price_eur: dueEur, use_credit: useCredit },
      who.token,
    );

  const payCheckout = (who: Member, clientSecret: string) =>
    who.caller.json('POST', `/api/checkout/local/${clientSecret.split('_secret_')[0]}/complete`, {
      card_number: '4242 4242 4242 4242',
    });

  async function myBookings(who: Member) {
    const answer = await who.caller.get('/api/bookings/my-bookings', who.token);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<Schemas['Booking'][]>();
  }

  /** Every lot's balance against the sum of its movements, and never below zero. */
  async function lotsBalance(): Promise<void> {
    const lots = await app.db.selectFrom('credit_lots').select(['id', 'remaining']).execute();
    for (const lot of lots) {
      const movements = await app.db
        .selectFrom('credit_movements')
        .select(['kind', 'amount'])
        .where('lot_id', '=', lot.id)
        .execute();
      const sum = movements.reduce(
        (total, movement) =>
          total +
          (['grant', 'return', 'release'].includes(movement.kind) ? movement.amount : -movement.amount),
        0,
      );
      expect(lot.remaining).toBe(sum);
      expect(lot.remaining).toBeGreaterThanOrEqual(0);
    }
  }

  /** The hourly job, now. */
  async function sweepExpiries() {
    await app.jobs.boss.send(JOB_QUEUES.creditExpiry, null, { startAfter: dateFromInstant(clock.now()) });
    await app.jobs.runDue([JOB_QUEUES.creditExpiry]);
  }

  const movementsOf = (lotId: number) =>
    app.db
      .selectFrom('credit_movements')
      .select(['kind', 'amount', 'value_cents', 'booking_id'])
      .where('lot_id', '=', lotId)
      .orderBy('id')
      .execute();

  it('sells a pack through the checkout: a ledger payment with its invoice, a lot with its grant, an e-mail', async () => {
    const pack = await createPack({
      name: 'Dez horas',
      branch_id: lisboa,
      unit: 'hours',
      credit: 10,
      price_eur: 90,
      validity_days: 90,
    });
    expect(pack).toMatchObject({ unit: 'hours', credit: 10, price_eur: 90, active: true, sold: 0 });
    const onSale = (await newClient(app).get('/api/credit-packs')).json<Schemas['CreditPack'][]>();
    expect(onSale).toEqual([
      expect.objectContaining({
        id: pack.id,
        name: 'Dez horas',
        credit: 10,
        price_eur: 90,
        scope: { branches: [{ id: lisboa, name: 'Lisboa' }], weekdays: null, from_time: null, to_time: null },
      }),
    ]);

    const ana = await member();
    const sessionId = await buy(ana, pack.id);
    const status = (
      await ana.caller.get(`/api/checkout/session-status?stripe_session_id=${sessionId}`, ana.token)
    ).json<Schemas['CheckoutSessionStatus']>();
    expect(status).toMatchObject({
      status: 'complete',
      bookings: [],
      credit_pack: { name: 'Dez horas', credit: 10 },
    });
    expect(status.credit_pack!.expires_at).toMatch(/^2026-05-31T/);

    const { lots, movements } = await wallet(ana);
    expect(lots).toEqual([
      expect.objectContaining({
        name: 'Dez horas',
        unit: 'hours',
        initial: 10,
        remaining: 10,
        expired: false,
      }),
    ]);
    expect(movements).toEqual([expect.objectContaining({ kind: 'grant', amount: 10, unit: 'hours' })]);

    const sale = await app.db
      .selectFrom('ledger_entries')
      .selectAll()
      .where('checkout_session_id', '=', sessionId)
      .executeTakeFirstOrThrow();
    expect(sale).toMatchObject({
      kind: 'payment',
      purpose: 'credit_pack',
      amount_cents: 9000,
      branch_id: lisboa,
    });
    const shares = await app.db
      .selectFrom('ledger_entry_bookings')
      .selectAll()
      .where('entry_id', '=', sale.id)
      .execute();
    expect(shares).toEqual([]);
    const invoice = await app.db
      .selectFrom('tax_documents')
      .selectAll()
      .where('ledger_entry_id', '=', sale.id)
      .executeTakeFirstOrThrow();
    expect(invoice.total_cents).toBe(9000);
    expect(invoice.lines, JSON.stringify(invoice.lines)).toEqual([
      expect.objectContaining({
        // The local provider writes the member's language.
        description: 'Prepaid pack «Dez horas»',
        detail: '10 hours of credit for sessions, valid until 2026-05-31',
        amount_cents: 9000,
      }),
    ]);
    const mails = await outboxTo(app, ana.email);
    const bought = mails.find((mail) => mail.subject?.includes('Dez horas'))!;
    expect(bought.subject).toBe('Your pack “Dez horas” is in your wallet');
    expect(bought.text).toContain('10 hours');
    expect((await owner.client.get('/api/admin/credit-packs', owner.token)).json()).toEqual([
      expect.objectContaining({ id: pack.id, sold: 1 }),
    ]);
    // The money report counts the sale.
    const report = (
      await owner.client.get('/api/admin/reports/money?from=2026-03-01&to=2026-03-31', owner.token)
    ).json<Schemas['MoneyReport']>();
    expect(report.totals.payments_eur).toBe(90);
    await lotsBalance();
  });

  it('pays with credit first and the rest by card; a cancellation gives credit back by the policy', async () => {
    const pack = await createPack({
      name: 'Vinte euros',
      branch_id: lisboa,
      all_branches: true,
      unit: 'eur',
      credit: 20,
      price_eur: 18,
      validity_days: 60,
    });
    const ana = await member();
    await buy(ana, pack.id);
    const first = await lisbonSlot(app.db, lisboa, '2026-03-12T10:00');
    const second = await lisbonSlot(app.db, porto, '2026-03-05T10:00');
    // Not yet: a slot of Porto the pack covers (all branches), priced 15 each: 20 of 30 by credit.
    const plan = await cover(ana, [first, second]);
    expect(plan).toMatchObject({ credit_eur: 20, due_eur: 10 });
    // Two branches in one basket are refused, as always: one booking per branch.
    const twoBranches = await book(ana, [first, second], 10);
    expect(twoBranches.json<ErrorBody>().code).toBe('slots_of_several_branches');

    const lisbonToo = await lisbonSlot(app.db, lisboa, '2026-03-13T10:00');
    expect(await cover(ana, [first, lisbonToo])).toMatchObject({
      credit_eur: 20,
      due_eur: 10,
      slots: [
        { time_slot_id: first, price_eur: 15, credit_eur: 15, due_eur: 0 },
        { time_slot_id: lisbonToo, price_eur: 15, credit_eur: 5, due_eur: 10 },
      ],
    });
    // A client that showed the full price hears the new total.
    const stale = await book(ana, [first, lisbonToo], 30);
    expect(stale.statusCode).toBe(409);
    expect(stale.json<ErrorBody>().code).toBe('price_changed');

    const created = await book(ana, [first, lisbonToo], 10);
    expect(created.statusCode, created.body).toBe(201);
    const paid = await payCheckout(
      ana,
      created.json<Schemas['CreateBookingResponse']>().checkout_session.clientSecret!,
    );
    expect(paid.statusCode).toBe(200);

    const bookings = await myBookings(ana);
    expect(bookings.map((booking) => [booking.status, booking.final_price_eur, booking.credit_eur])).toEqual([
      ['confirmed', 0, 15],
      ['confirmed', 10, 5],
    ]);
    expect(bookings.every((booking) => booking.paid)).toBe(true);
    const [lot] = (await wallet(ana)).lots;
    expect(lot!.remaining).toBe(0);
    const payment = await app.db
      .selectFrom('ledger_entries')
      .select(['id', 'amount_cents'])
      .where('purpose', '=', 'booking')
      .executeTakeFirstOrThrow();
    expect(payment.amount_cents).toBe(1000);

    // Cancelled 12 days ahead: the whole policy (100 %): the card part back as money, the credit part as credit.
    const cancel = await ana.caller.json(
      'POST',
      '/api/bookings/cancel-bookings',
      { booking: [{ booking_id: bookings[1]!.id, expected_refund_eur: 10 }] },
      ana.token,
    );
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect((await wallet(ana)).lots[0]!.remaining).toBe(5);
    // 30 hours before the first: the policy gives 50 %, so 7.50 of its 15 comes back as credit.
    clock.set('2026-03-11T04:00:00Z');
    const late = await ana.caller.json(
      'POST',
      '/api/bookings/cancel-bookings',
      { booking: [{ booking_id: bookings[0]!.id, expected_refund_eur: 0 }] },
      ana.token,
    );
    expect(late.statusCode, late.body).toBe(200);
    expect((await wallet(ana)).lots[0]!.remaining).toBe(12.5);
    // The cancellation e-mail says what came back, and where.
    const cancelled = (await outboxTo(app, ana.email)).filter((mail) => mail.subject?.includes('cancel'));
    expect(cancelled.map((mail) => mail.text).join('\n')).toContain(
      '€7.50 of the credit that paid for these hours is back in your wallet.',
    );
    const rows = await movementsOf(lot!.id);
    expect(rows.map((row) => [row.kind, row.amount])).toEqual([
      ['grant', 2000],
      ['spend', 1500],
      ['spend', 500],
      ['return', 500],
      ['return', 750],
    ]);
    const refunds = await app.db
      .selectFrom('ledger_entries')
      .select(['amount_cents'])
      .where('kind', '=', 'refund')
      .execute();
    expect(refunds).toEqual([{ amount_cents: 1000 }]);
    await lotsBalance();
  });

  it('confirms at once when hours pay it all; a member cannot move it; an operator closure gives it all back', async () => {
    const pack = await createPack({
      name: 'Cinco horas',
      branch_id: lisboa,
      unit: 'hours',
      credit: 5,
      price_eur: 50,
      validity_days: 30,
    });
    const ana = await member();
    await buy(ana, pack.id);
    const slot = await lisbonSlot(app.db, lisboa, '2026-03-04T18:00', { priceCents: 2500 });
    expect(await cover(ana, [slot])).toMatchObject({ credit_eur: 25, due_eur: 0 });
    const created = await book(ana, [slot], 0);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<Schemas['CreateBookingResponse']>().checkout_session.clientSecret).toBeNull();
    const [booking] = await myBookings(ana);
    expect(booking).toMatchObject({ status: 'confirmed', paid: true, final_price_eur: 0, credit_eur: 25 });
    expect(booking!.is_movable).toBe(false);
    expect((await wallet(ana)).lots[0]!.remaining).toBe(4);
    // No money moved: no ledger row for the booking; its door code is issued like any confirmed booking's.
    expect(await app.db.selectFrom('ledger_entry_bookings').selectAll().execute()).toEqual([]);
    const row = await app.db
      .selectFrom('bookings')
      .select(['lock_code_id'])
      .where('id', '=', booking!.id)
      .executeTakeFirstOrThrow();
    expect(row.lock_code_id).not.toBeNull();

    const other = await lisbonSlot(app.db, lisboa, '2026-03-05T18:00', { priceCents: 2500 });
    const move = await ana.caller.json(
      'POST',
      `/api/bookings/${booking!.id}/move`,
      { time_slot_id: other, expected_price_difference_eur: 0 },
      ana.token,
    );
    expect(move.statusCode).toBe(409);
    expect(move.json<ErrorBody>().code).toBe('booking_paid_with_credit');

    // A closure of the evening: all the credit comes back, whatever the policy says.
    clock.set('2026-03-04T12:00:00Z');
    owner = await loggedInOperator(app, clock, `owner-${Math.random()}@gym.example`, 'owner');
    const closed = await owner.client.json(
      'POST',
      '/api/admin/closures',
      {
        branch_id: lisboa,
        starts_at: '2026-03-04T17:00:00Z',
        ends_at: '2026-03-04T20:00:00Z',
        reason: 'Avaria no ar condicionado',
      },
      owner.token,
    );
    expect(closed.statusCode, closed.body).toBe(201);
    expect((await wallet(ana)).lots[0]!.remaining).toBe(5);
    await lotsBalance();
  });

  it('gives the credit of a hold back when its checkout expires unpaid', async () => {
    const pack = await createPack({
      name: 'Dez euros',
      branch_id: lisboa,
      unit: 'eur',
      credit: 10,
      price_eur: 10,
      validity_days: 30,
    });
    const ana = await member();
    await buy(ana, pack.id);
    const slot = await lisbonSlot(app.db, lisboa, '2026-03-09T10:00');
    const created = await book(ana, [slot], 5);
    expect(created.statusCode, created.body).toBe(201);
    expect((await wallet(ana)).lots[0]!.remaining).toBe(0);
    const sessionId = created
      .json<Schemas['CreateBookingResponse']>()
      .checkout_session.clientSecret!.split('_secret_')[0]!;
    const expired = await app.inject({ method: 'POST', url: `/api/dev/checkout/${sessionId}/expire` });
    expect(expired.statusCode, expired.body).toBe(200);
    const { lots, movements } = await wallet(ana);
    expect(lots[0]!.remaining).toBe(10);
    expect(movements.map((movement) => movement.kind)).toEqual(['release', 'spend', 'grant']);
    // And the slot can be booked again, the credit paying as before.
    const again = await book(ana, [slot], 5);
    expect(again.statusCode, again.body).toBe(201);
    await lotsBalance();
  });

  it('covers only its branches, weekdays and hours, earliest expiry first', async () => {
    const offPeak = await createPack({
      name: 'Manhãs de semana',
      branch_id: lisboa,
      unit: 'hours',
      credit: 2,
      price_eur: 15,
      validity_days: 20,
      weekdays: [1, 2, 3, 4, 5],
      from_time: '07:00',
      to_time: '12:00',
    });
    const anyTime = await createPack({
      name: 'Qualquer hora',
      branch_id: lisboa,
      unit: 'hours',
      credit: 1,
      price_eur: 30,
      validity_days: 60,
    });
    const ana = await member();
    await buy(ana, anyTime.id);
    await buy(ana, offPeak.id);
    const mondayMorning = await lisbonSlot(app.db, lisboa, '2026-03-09T09:00');
    const mondayEvening = await lisbonSlot(app.db, lisboa, '2026-03-09T19:00');
    const saturday = await lisbonSlot(app.db, lisboa, '2026-03-07T09:00');
    const created = await book(ana, [saturday, mondayMorning, mondayEvening], 15);
    expect(created.statusCode, created.body).toBe(201);
    const lots = (await wallet(ana)).lots;
    // The off-peak lot expires first and covers Monday morning only; the other covers Saturday (the first slot it
    // can), and nothing is left for Monday evening, which is paid by card.
    expect(lots.find((lot) => lot.name === 'Manhãs de semana')!.remaining).toBe(1);
    expect(lots.find((lot) => lot.name === 'Qualquer hora')!.remaining).toBe(0);
    const porto9 = await lisbonSlot(app.db, porto, '2026-03-10T09:00');
    expect(await cover(ana, [porto9])).toMatchObject({ credit_eur: 0, due_eur: 15 });
  });

  /** A member who bought, now (the START), a pack of 30 € of credit valid 30 days. */
  async function memberWithMonthPack(): Promise<Member> {
    const pack = await createPack({
      name: 'Mês',
      branch_id: lisboa,
      unit: 'eur',
      credit: 30,
      price_eur: 25,
      validity_days: 30,
    });
    const ana = await member();
    await buy(ana, pack.id);
    return ana;
  }

  it('announces a lot 14 days before it expires, once, and writes off what is left after', async () => {
    const ana = await memberWithMonthPack();
    clock.set('2026-03-17T09:00:00Z');
    await sweepExpiries();
    const expiring = async () =>
      (await outboxTo(app, ana.email)).filter((mail) => mail.subject?.includes('expires'));
    expect(await expiring()).toEqual([]);
    clock.set('2026-03-18T09:30:00Z');
    await sweepExpiries();
    clock.set('2026-03-19T09:30:00Z');
    await sweepExpiries();
    const notices = await expiring();
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toContain('€30.00');
    expect(notices[0]!.subject).toContain('1 April');

    // A month later, on its last day, the member signs in again: the lot still holds its credit all day.
    clock.set('2026-04-01T09:30:00Z');
    await sweepExpiries();
    ana.token = (await ana.caller.login(ana.email, STRONG_PASSWORD)).json<
      Schemas['LoginResponse']
    >().access_token;
    expect((await wallet(ana)).lots[0]).toMatchObject({ remaining: 30, expired: false });
    // The day after (00:30 in Lisbon), it has been written off.
    clock.set('2026-04-01T23:30:00Z');
    await sweepExpiries();
    const { lots, movements } = await wallet(ana);
    expect(lots[0]).toMatchObject({ remaining: 0, expired: true });
    expect(movements[0]).toMatchObject({ kind: 'expire', amount: 30 });
    const slot = await lisbonSlot(app.db, lisboa, '2026-04-03T10:00');
    expect(await cover(ana, [slot])).toMatchObject({ credit_eur: 0 });
    await lotsBalance();
  });

  it('covers sessions all through the last day its e-mail and wallet name, not only until the hour it was bought', async () => {
    // Bought on 2 March at 09:00 UTC: the e-mail says sessions starting until 1 April.
    const ana = await memberWithMonthPack();
    const bought = (await outboxTo(app, ana.email)).find((mail) => mail.subject?.includes('Mês'))!;
    expect(bought.text).toContain('starting by Wednesday, 1 April 2026');
    const [lot] = (await wallet(ana)).lots;
    expect(
      Temporal.Instant.from(lot!.expires_at).toZonedDateTimeISO('Europe/Lisbon').toPlainDate().toString(),
    ).toBe('2026-04-01');
    // An evening session that day is covered; the next morning's is not.
    const lastEvening = await lisbonSlot(app.db, lisboa, '2026-04-01T21:00');
    const nextMorning = await lisbonSlot(app.db, lisboa, '2026-04-02T07:00');
    expect(await cover(ana, [lastEvening])).toMatchObject({ credit_eur: 15, due_eur: 0 });
    expect(await cover(ana, [nextMorning])).toMatchObject({ credit_eur: 0, due_eur: 15 });
    // The same for a gift voucher: a year from its payment, to the end of that day.
    const voucher = await ana.caller.json(
      'POST',
      '/api/gift-vouchers',
      { amount_eur: 20, recipient_name: 'Rui', recipient_email: 'rui@example.pt' },
      ana.token,
    );
    const secret = voucher.json<Schemas['CreateBookingResponse']>().checkout_session.clientSecret!;
    await payCheckout(ana, secret);
    const status = (
      await ana.caller.get(
        `/api/checkout/session-status?stripe_session_id=${secret.split('_secret_')[0]}`,
        ana.token,
      )
    ).json<Schemas['CheckoutSessionStatus']>();
    expect(status.gift_voucher!.expires_at).toBe('2027-03-02T23:59:59.000Z');
  });

  it('never spends a lot twice: bookings racing for its last hour, one wins and the other hears the new total', async () => {
    const pack = await createPack({
      name: 'Uma hora',
      branch_id: lisboa,
      unit: 'hours',
      credit: 1,
      price_eur: 12,
      validity_days: 30,
    });
    for (let round = 0; round < 3; round += 1) {
      const ana = await member();
      await buy(ana, pack.id);
      const slots = await Promise.all(
        [10, 12, 14, 16].map((hour) => lisbonSlot(app.db, lisboa, `2026-03-${10 + round}T${hour}:00`)),
      );
      const answers = await Promise.all(slots.map((slot) => book(ana, [slot], 0)));
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses).toEqual([201, 409, 409, 409]);
      for (const answer of answers.filter((candidate) => candidate.statusCode === 409)) {
        expect(answer.json<ErrorBody>().code).toBe('price_changed');
      }
      expect((await wallet(ana)).lots[0]!.remaining).toBe(0);
      const confirmed = (await myBookings(ana)).filter((booking) => booking.status === 'confirmed');
      expect(confirmed).toHaveLength(1);
    }
    await lotsBalance();
  });

  it('refuses bad pack settings clearly, keeps staff out, and takes a pack off sale', async () => {
    const badHours = await owner.client.json(
      'POST',
      '/api/admin/credit-packs',
      {
        name: 'Noite',
        branch_id: lisboa,
        unit: 'hours',
        credit: 5,
        price_eur: 40,
        validity_days: 30,
        from_time: '22:00',
        to_time: '06:00',
      },
      owner.token,
    );
    expect(badHours.statusCode).toBe(400);
    expect(badHours.json<ErrorBody>().code).toBe('invalid_credit_pack_hours');
    const zero = await owner.client.json(
      'POST',
      '/api/admin/credit-packs',
      { name: 'Nada', branch_id: lisboa, unit: 'eur', credit: 0, price_eur: 10, validity_days: 30 },
      owner.token,
    );
    expect(zero.statusCode).toBe(422);
    const staff = await loggedInOperator(app, clock, `staff-${Math.random()}@gym.example`, 'staff');
    expect((await staff.client.get('/api/admin/credit-packs', staff.token)).statusCode).toBe(403);

    const pack = await createPack({
      name: 'Dez horas',
      branch_id: lisboa,
      unit: 'hours',
      credit: 10,
      price_eur: 90,
      validity_days: 90,
    });
    const changed = await owner.client.json(
      'PATCH',
      `/api/admin/credit-packs/${pack.id}`,
      { price_eur: 85, active: false },
      owner.token,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<Schemas['AdminCreditPack']>()).toMatchObject({
      price_eur: 85,
      active: false,
      credit: 10,
    });
    expect((await newClient(app).get('/api/credit-packs')).json()).toEqual([]);
    const ana = await member();
    const refused = await ana.caller.json('POST', `/api/credit-packs/${pack.id}/purchase`, {}, ana.token);
    expect(refused.statusCode).toBe(404);
    expect(refused.json<ErrorBody>().code).toBe('credit_pack_not_found');
    const audit = await app.db
      .selectFrom('audit_log')
      .select(['action'])
      .where('entity_type', '=', 'credit_pack')
      .orderBy('id')
      .execute();
    expect(audit.map((row) => row.action)).toEqual(['credit_pack.create', 'credit_pack.update']);
  });

  it('puts packs on sale and changes them from the CLI, through the same use cases (audited as the CLI)', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const cli = (...argv: string[]) =>
      runAdmin(argv, {
        db: app.db,
        clock,
        horizonDays: 3,
        io: { out: (text) => out.push(text), err: (text) => err.push(text) },
      });
    const created = await cli(
      'pack',
      'create',
      '--name',
      'Manhãs',
      '--branch',
      String(lisboa),
      '--unit',
      'hours',
      '--credit',
      '2.5',
      '--price',
      '20',
      '--valid-days',
      '45',
      '--weekdays',
      '1,2,3,4,5',
      '--from',
      '07:00',
      '--to',
      '12:00',
    );
    expect(created, err.join('\n')).toBe(0);
    expect(out.at(-1)).toMatch(/^created pack \d+$/);
    const packs = (await newClient(app).get('/api/credit-packs')).json<Schemas['CreditPack'][]>();
    expect(packs).toEqual([
      expect.objectContaining({
        name: 'Manhãs',
        unit: 'hours',
        credit: 2.5,
        price_eur: 20,
        validity_days: 45,
      }),
    ]);
    expect(packs[0]!.scope).toMatchObject({
      weekdays: [1, 2, 3, 4, 5],
      from_time: '07:00',
      to_time: '12:00',
    });
    // Hours that end before they start are refused with the reason, and nothing changes.
    expect(await cli('pack', 'update', String(packs[0]!.id), '--from', '13:00')).toBe(2);
    expect(err.join('\n')).toContain('invalid_credit_pack_hours');
    expect(await cli('pack', 'update', String(packs[0]!.id), '--inactive', '--price', '18')).toBe(0);
    expect((await newClient(app).get('/api/credit-packs')).json()).toEqual([]);
    expect(await cli('pack', 'list', '--json')).toBe(0);
    expect(JSON.parse(out.at(-1)!)).toEqual([
      expect.objectContaining({ name: 'Manhãs', price_eur: 18, active: false, hours: '07:00-12:00' }),
    ]);
    const audit = await app.db
      .selectFrom('audit_log')
      .select(['action', 'operator_email'])
      .where('entity_type', '=', 'credit_pack')
      .orderBy('id')
      .execute();
    expect(audit.map((row) => row.action)).toEqual(['credit_pack.create', 'credit_pack.update']);
  });

  describe('gift vouchers', () => {
    async function buyVoucher(who: Member, body: Schemas['GiftVoucherRequest']) {
      const bought = await who.caller.json('POST', '/api/gift-vouchers', body, who.token);
      expect(bought.statusCode, bought.body).toBe(201);
      const secret = bought.json<Schemas['CreateBookingResponse']>().checkout_session.clientSecret!;
      const sessionId = secret.split('_secret_')[0]!;
      const paid = await payCheckout(who, secret);
      expect(paid.statusCode, paid.body).toBe(200);
      return sessionId;
    }
    const redeem = (who: Member, code: string) =>
      who.caller.json('POST', '/api/wallet/redeem', { code }, who.token);

    it('sells a voucher (ledger, invoice, e-mails with the code) that the recipient redeems once into their wallet', async () => {
      const ana = await member();
      const sessionId = await buyVoucher(ana, {
        amount_eur: 40,
        recipient_name: 'Rita',
        recipient_email: 'Rita.Gomes@example.pt',
        message: 'Parabéns!\nBons treinos.',
      });
      const status = (
        await ana.caller.get(`/api/checkout/session-status?stripe_session_id=${sessionId}`, ana.token)
      ).json<Schemas['CheckoutSessionStatus']>();
      expect(status).toMatchObject({
        status: 'complete',
        bookings: [],
        gift_voucher: { amount_eur: 40, recipient_name: 'Rita', recipient_email: 'rita.gomes@example.pt' },
      });
      const code = status.gift_voucher!.code!;
      expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
      expect(status.gift_voucher!.expires_at).toBe('2027-03-02T23:59:59.000Z');

      const sale = await app.db
        .selectFrom('ledger_entries')
        .selectAll()
        .where('checkout_session_id', '=', sessionId)
        .executeTakeFirstOrThrow();
      expect(sale).toMatchObject({ kind: 'payment', purpose: 'gift_voucher', amount_cents: 4000 });
      const invoice = await app.db
        .selectFrom('tax_documents')
        .select(['lines', 'total_cents'])
        .where('ledger_entry_id', '=', sale.id)
        .executeTakeFirstOrThrow();
      expect(invoice.lines).toEqual([expect.objectContaining({ description: `Gift voucher ${code}` })]);

      const [gift] = await outboxTo(app, 'rita.gomes@example.pt');
      // In the language the buyer bought it in (the request's: Portuguese here).
      expect(gift!.subject).toMatch(/^Ana ofereceu-lhe um vale de 40,00\s€$/);
      expect(gift!.text).toContain(code);
      expect(gift!.text).toContain('Parabéns!\nBons treinos.');
      expect(gift!.text).toContain(`?account_tab=wallet&voucher=${code}`);
      expect((await outboxTo(app, ana.email)).some((mail) => mail.text.includes(code))).toBe(true);
      expect((await ana.caller.get('/api/gift-vouchers', ana.token)).json()).toEqual([
        expect.objectContaining({ status: 'issued', code, amount_eur: 40, recipient_name: 'Rita' }),
      ]);

      // The recipient types it in lower case with spaces; a lot of 40 € at every branch, until the voucher expires.
      const rita = await member();
      const redeemed = await redeem(rita, ` ${code.toLowerCase().replaceAll('-', ' ')} `);
      expect(redeemed.statusCode, redeemed.body).toBe(201);
      expect(redeemed.json<Schemas['WalletLot']>()).toMatchObject({
        unit: 'eur',
        initial: 40,
        remaining: 40,
        expires_at: '2027-03-02T23:59:59.000Z',
        scope: { branches: null },
      });
      const slot = await lisbonSlot(app.db, porto, '2026-03-10T10:00');
      expect(await cover(rita, [slot])).toMatchObject({ credit_eur: 15, due_eur: 0 });
      // Once: a second redemption, by anyone, is refused.
      const again = await redeem(await member(), code);
      expect(again.statusCode).toBe(409);
      expect(again.json<ErrorBody>().code).toBe('voucher_redeemed');
      expect((await ana.caller.get('/api/gift-vouchers', ana.token)).json()).toEqual([
        expect.objectContaining({ status: 'redeemed' }),
      ]);
      const listed = (await owner.client.get('/api/admin/gift-vouchers?status=redeemed', owner.token)).json<
        Schemas['AdminGiftVoucher'][]
      >();
      expect(listed).toEqual([
        expect.objectContaining({
          code,
          amount_eur: 40,
          buyer_email: ana.email,
          redeemed_by_email: rita.email,
        }),
      ]);
      expect((await owner.client.get('/api/admin/gift-vouchers?status=issued', owner.token)).json()).toEqual(
        [],
      );
      await lotsBalance();
    });

    it('refuses unknown and expired codes, lets one of two racing members redeem, and limits attempts', async () => {
      const ana = await member();
      const unknown = await redeem(ana, 'AAAA-BBBB-CCCC');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json<ErrorBody>().code).toBe('voucher_not_found');

      const first = await buyVoucher(ana, {
        amount_eur: 25,
        recipient_name: 'Rui',
        recipient_email: 'rui@example.pt',
      });
      const code = (
        await ana.caller.get(`/api/checkout/session-status?stripe_session_id=${first}`, ana.token)
      ).json<Schemas['CheckoutSessionStatus']>().gift_voucher!.code!;
      const [rui, rosa] = [await member(), await member()];
      const answers = await Promise.all([redeem(rui, code), redeem(rosa, code)]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
      const lots = await app.db.selectFrom('credit_lots').select(['user_id', 'initial']).execute();
      expect(lots).toEqual([expect.objectContaining({ initial: 2500 })]);

      // A voucher nobody redeemed within its year cannot be redeemed after it.
      const second = await buyVoucher(ana, {
        amount_eur: 10,
        recipient_name: 'Eva',
        recipient_email: 'eva@example.pt',
      });
      const late = (
        await ana.caller.get(`/api/checkout/session-status?stripe_session_id=${second}`, ana.token)
      ).json<Schemas['CheckoutSessionStatus']>().gift_voucher!.code!;
      clock.set('2027-03-03T09:00:00Z');
      const eva = await member();
      const expired = await redeem(eva, late);
      expect(expired.statusCode).toBe(409);
      expect(expired.json<ErrorBody>().code).toBe('voucher_expired');
      owner = await loggedInOperator(app, clock, `owner-${Math.random()}@gym.example`, 'owner');
      expect((await owner.client.get('/api/admin/gift-vouchers?status=expired', owner.token)).json()).toEqual(
        [expect.objectContaining({ code: late, status: 'expired' })],
      );
      // Guessing: the member's fourth attempt within the hour is refused before any code is looked at.
      for (const guess of ['ZZZZ-ZZZZ-ZZZ2', 'ZZZZ-ZZZZ-ZZZ3'])
        expect((await redeem(eva, guess)).statusCode).toBe(404);
      const limited = await redeem(eva, 'ZZZZ-ZZZZ-ZZZ4');
      expect(limited.statusCode).toBe(429);
    });

    it('refuses a bad voucher order clearly and sells nothing', async () => {
      const ana = await member();
      for (const body of [
        { amount_eur: 2, recipient_name: 'Rui', recipient_email: 'rui@example.pt' },
        { amount_eur: 20, recipient_name: '', recipient_email: 'rui@example.pt' },
        { amount_eur: 20, recipient_name: 'Rui', recipient_email: 'not an address' },
        {
          amount_eur: 20,
          recipient_name: 'Rui',
          recipient_email: 'rui@example.pt',
          message: 'x'.repeat(501),
        },
        { amount_eur: 20.005, recipient_name: 'Rui', recipient_email: 'rui@example.pt' },
      ]) {
        const refused = await ana.caller.json('POST', '/api/gift-vouchers', body, ana.token);
        expect(refused.statusCode, JSON.stringify(body)).toBe(422);
        expect(refused.json<ErrorBody>().code).toBe('validation_failed');
      }
      expect(await app.db.selectFrom('gift_vouchers').selectAll().execute()).toEqual([]);
    });
  });
});
