import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { accountTestConfig } from './support/accounts.ts';
import { bookingService, bookingsOf, lisbonSlot, verifiedUser } from './bookings-fixtures.ts';
import { emptyAllTables, freshDatabaseConfig, PGLITE_ONLY, type FreshDatabase } from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';
import { loggedInOperator } from './support/operators.ts';

// The local checkout offline: MB WAY approved on the simulated phone or left to time out, and a Multibanco
// voucher whose money arrives later through the development endpoint (issue 29, items 4 and 5).

describe.each(PGLITE_ONLY)('the local checkout with MB WAY and Multibanco (%s)', (target) => {
  const clock = fixedClock('2026-03-20T10:00:00Z');
  let fresh: FreshDatabase;
  let app: FastifyInstance;
  let member: string;
  let branch: number;

  beforeAll(async () => {
    fresh = await freshDatabaseConfig(target);
    app = await buildApp(accountTestConfig(fresh.config), { clock });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await fresh?.cleanup();
  });
  beforeEach(async () => {
    clock.set('2026-03-20T10:00:00Z');
    await emptyAllTables(app.db);
    branch = await createBranch(app.db);
    member = await verifiedUser(app.db);
  });

  async function book(localStart: string): Promise<string> {
    const slot = await lisbonSlot(app.db, branch, localStart);
    const created = await bookingService(app.db, clock).createBooking({
      userId: member,
      slotIds: [slot],
      couponId: null,
      expectedTotalEur: 15,
      locale: 'en',
    });
    return created.checkout_session.clientSecret!.split('_secret_')[0]!;
  }
  const complete = (sessionId: string, body: object) =>
    app.inject({ method: 'POST', url: `/api/checkout/local/${sessionId}/complete`, payload: body });
  const page = async (sessionId: string) =>
    (await app.inject({ method: 'GET', url: `/api/checkout/local/${sessionId}`, headers: { locale: 'en' } }))
      .body;

  it('pays by MB WAY once the simulated phone approves; a request left to time out keeps the checkout open', async () => {
    const sessionId = await book('2026-03-21T10:00');
    expect(await page(sessionId)).toContain('MB WAY');
    // Too soon for a voucher: no Multibanco on the page, and asking for one is refused.
    expect(await page(sessionId)).not.toContain('value="multibanco"');
    expect((await complete(sessionId, { method: 'multibanco' })).json()).toMatchObject({
      outcome: 'declined',
    });

    const timedOut = await complete(sessionId, {
      method: 'mb_way',
      mb_way_phone: '912 345 678',
      mb_way_response: 'time_out',
    });
    expect(timedOut.json()).toMatchObject({ status: 'open', outcome: 'declined' });
    expect((await bookingsOf(app.db, member)).map((b) => b.status)).toEqual(['pending']);

    const approved = await complete(sessionId, {
      method: 'mb_way',
      mb_way_phone: '+351 912 345 678',
      mb_way_response: 'approve',
    });
    expect(approved.json()).toMatchObject({ status: 'complete', outcome: 'paid' });
    expect((await bookingsOf(app.db, member)).map((b) => b.status)).toEqual(['confirmed']);
    const session = await app.db.selectFrom('checkout_sessions').selectAll().executeTakeFirstOrThrow();
    expect(session).toMatchObject({ payment_method: 'mb_way', card_last4: null });
    expect(await app.db.selectFrom('tax_documents').selectAll().execute()).toHaveLength(1);
  });

  it('issues a Multibanco voucher that holds the slot, and confirms the booking when the voucher is paid', async () => {
    const sessionId = await book('2026-03-25T10:00');
    expect(await page(sessionId)).toContain('value="multibanco"');
    const issued = await complete(sessionId, { method: 'multibanco' });
    expect(issued.json()).toMatchObject({ status: 'complete', outcome: 'awaiting_payment' });
    expect((await bookingsOf(app.db, member)).map((b) => b.status)).toEqual(['pending']);
    expect(await app.db.selectFrom('lock_codes').selectAll().execute()).toEqual([]);
    expect(await app.db.selectFrom('tax_documents').selectAll().execute()).toEqual([]);
    // The voucher by e-mail, in the member's language: entity, reference, amount, until when.
    const [mail] = await app.db
      .selectFrom('outbox')
      .selectAll()
      .where('kind', '=', 'payment_voucher')
      .execute();
    const session = await app.db.selectFrom('checkout_sessions').selectAll().executeTakeFirstOrThrow();
    expect(mail?.text_body).toContain('12345');
    expect(mail?.text_body).toContain(session.voucher_reference!);
    expect(mail?.text_body).toContain('15,00');
    expect(mail?.text_body).toContain('Europe/Lisbon');

    // An hour later (the checkout's 30 minutes are long gone) the slot is still held and the voucher shown.
    clock.set('2026-03-20T11:00:00Z');
    const { bookings } = await bookingService(app.db, clock).listMyBookingsPage(member);
    expect(bookings).toMatchObject([
      {
        status: 'pending',
        active: true,
        pay_again_url: null,
        awaiting_payment: {
          method: 'multibanco',
          amount_eur: 15,
          held_until: '2026-03-23T10:00:00+00:00',
          voucher: { entity: '12345', reference: expect.stringMatching(/^\d{9}$/) as unknown },
        },
      },
    ]);
    const voucherPay = await app.inject({
      method: 'POST',
      url: `/api/dev/checkout/${sessionId}/pay-voucher`,
    });
    expect(voucherPay.statusCode).toBe(200);
    expect(voucherPay.json()).toMatchObject({ status: 'complete', bookings: [{ status: 'confirmed' }] });
    expect(voucherPay.json()).not.toHaveProperty('awaiting_payment');
    expect(await app.db.selectFrom('lock_codes').selectAll().execute()).toHaveLength(1);
    expect(await app.db.selectFrom('tax_documents').selectAll().execute()).toHaveLength(1);
    const after = await bookingService(app.db, clock).listMyBookingsPage(member);
    expect(after.bookings[0]).not.toHaveProperty('awaiting_payment');
  });

  it("names the method in the accountant's ledger CSV: MB WAY and Multibanco, not a blank", async () => {
    const byPhone = await book('2026-03-26T10:00');
    expect(
      (
        await complete(byPhone, {
          method: 'mb_way',
          mb_way_phone: '+351 912 345 678',
          mb_way_response: 'approve',
        })
      ).json(),
    ).toMatchObject({ outcome: 'paid' });
    const byVoucher = await book('2026-03-27T10:00');
    await complete(byVoucher, { method: 'multibanco' });
    expect(
      (await app.inject({ method: 'POST', url: `/api/dev/checkout/${byVoucher}/pay-voucher` })).statusCode,
    ).toBe(200);

    const owner = await loggedInOperator(app, clock, 'owner-methods@gym.example', 'owner');
    const csv = await owner.client.get(
      '/api/admin/reports/ledger/csv?from=2026-03-01&to=2026-03-31',
      owner.token,
    );
    expect(csv.statusCode).toBe(200);
    const [header, ...lines] = csv.body.trimEnd().split('\r\n');
    const column = header!.split(',').indexOf('payment_method');
    expect(lines.map((line) => line.split(',')[column])).toEqual(['mb_way', 'multibanco']);
  });

  it('holds a voucher slot until 48 hours before the start when that comes before the voucher expires', async () => {
    const sessionId = await book('2026-03-25T10:00');
    await complete(sessionId, { method: 'multibanco' });
    const [held] = await bookingsOf(app.db, member);
    // 48 hours before the start comes before the voucher's seven days.
    expect(held!.hold_expires_at?.toISOString()).toBe('2026-03-23T10:00:00.000Z');
  });
});
