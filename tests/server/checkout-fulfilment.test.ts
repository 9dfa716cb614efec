import { beforeEach, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import type { PaymentEvent, PaymentProvider } from '../../server/adapters/payments/provider.ts';
import { createLocalPaymentProvider } from '../../server/adapters/payments/local.ts';
import { createCheckoutService } from '../../server/booking/checkout/service.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import type { Db } from '../../server/db/database.ts';
import {
  bookingDependencies,
  bookingService,
  bookingsOf,
  errorCode,
  lisbonSlot,
  verifiedUser,
} from './bookings-fixtures.ts';
import { describeEachDatabase, emptyAllTables } from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';

const clock = fixedClock('2026-03-20T10:00:00Z');

function paidEvent(sessionId: string, id = 'evt_paid_1', amountCents = 3000): PaymentEvent {
  return {
    id,
    type: 'checkout.session.completed',
    session: {
      id: sessionId,
      clientSecret: null,
      status: 'complete',
      paymentStatus: 'paid',
      paymentIntentId: 'pi_test_1',
      amountCents,
      expiresAt: Temporal.Instant.from('2026-03-20T10:30:00Z'),
    },
    payload: { id, type: 'checkout.session.completed' },
  };
}

function sessionEvent(
  sessionId: string,
  id: string,
  type: string,
  paymentStatus: 'paid' | 'unpaid',
): PaymentEvent {
  const base = paidEvent(sessionId, id);
  return {
    ...base,
    type,
    session: {
      ...base.session!,
      status: type.endsWith('expired') ? 'expired' : 'complete',
      paymentStatus,
      paymentIntentId: paymentStatus === 'paid' ? 'pi_test_1' : null,
    },
  };
}

describeEachDatabase('checkout fulfilment', (getDb) => {
  let branchId: number;
  let user: string;
  let slots: number[];
  const checkout = (overrides: { payments?: PaymentProvider } = {}) =>
    createCheckoutService({ ...bookingDependencies(getDb(), clock, overrides), db: getDb() });

  async function book(userId = user, slotIds = slots, total = 30): Promise<string> {
    const result = await bookingService(getDb(), clock).createBooking({
      userId,
      slotIds,
      couponId: null,
      expectedTotalEur: total,
      locale: 'en',
    });
    return result.checkout_session.clientSecret!.split('_secret_')[0]!;
  }

  const count = async (db: Db, table: 'outbox' | 'lock_codes' | 'payment_events' | 'refunds') =>
    (await db.selectFrom(table).selectAll().execute()).length;

  beforeEach(async () => {
    clock.set('2026-03-20T10:00:00Z');
    await emptyAllTables(getDb());
    branchId = await createBranch(getDb(), { name: 'Lisboa – Avenidas Novas' });
    user = await verifiedUser(getDb(), { email: 'ana@example.com', locale: 'pt' });
    slots = [
      await lisbonSlot(getDb(), branchId, '2026-03-30T10:00'),
      await lisbonSlot(getDb(), branchId, '2026-03-30T11:00'),
    ];
  });

  it('confirms the bookings of a paid session, issues one code for back-to-back slots and e-mails once', async () => {
    const sessionId = await book();
    expect(await checkout().handleEvent(paidEvent(sessionId))).toBe('processed');

    const bookings = await bookingsOf(getDb(), user);
    expect(bookings.map((b) => b.status)).toEqual(['confirmed', 'confirmed']);
    expect(bookings.every((b) => b.paid_at !== null)).toBe(true);
    expect(bookings[0]!.lock_code_id).not.toBeNull();
    expect(bookings[1]!.lock_code_id).toBe(bookings[0]!.lock_code_id);
    const [code] = await getDb().selectFrom('lock_codes').selectAll().execute();
    expect(code!.code).toMatch(/^\d{6}$/);
    // 10:00-12:00 Lisbon summer time (UTC+1), 15 minutes either side.
    expect([code!.valid_from.toISOString(), code!.valid_until.toISOString()]).toEqual([
      '2026-03-30T08:45:00.000Z',
      '2026-03-30T11:15:00.000Z',
    ]);
    const session = await getDb()
      .selectFrom('checkout_sessions')
      .selectAll()
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    expect(session).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      payment_intent_id: 'pi_test_1',
    });
  });

  it('writes the confirmation e-mail in the user’s language, times in the branch’s zone, with a calendar file', async () => {
    const sessionId = await book();
    await checkout().handleEvent(paidEvent(sessionId));
    const [mail] = await getDb().selectFrom('outbox').selectAll().execute();
    expect(mail).toMatchObject({
      channel: 'email',
      recipient: 'ana@example.com',
      locale: 'pt',
      kind: 'booking_confirmed',
      // Two slots: the subject counts them.
      subject: 'Reservas confirmadas: Lisboa – Avenidas Novas',
    });
    expect(mail!.text_body).toContain('10:00–11:00 (Europe/Lisbon)');
    expect(mail!.text_body).toContain('11:00–12:00 (Europe/Lisbon)');
    expect(mail!.text_body).toContain('segunda-feira, 30 de março de 2026');
    expect(mail!.html_body).toContain('<li>');
    // The door code comes 30 minutes before the start, not in the confirmation.
    const [code] = await getDb().selectFrom('lock_codes').select('code').execute();
    expect(mail!.text_body).not.toContain(code!.code);
    expect(mail!.html_body).not.toContain(code!.code);
    // One calendar file per booking, one event in each (issue 30: calendar clients expect one UID per
    // scheduling message, and most imported only the first of two).
    expect(mail!.attachments.map((attachment) => attachment.filename)).toEqual([
      'booking-1.ics',
      'booking-2.ics',
    ]);
    const [first, second] = mail!.attachments;
    for (const calendar of [first!, second!]) {
      expect(calendar.contentType).toBe('text/calendar; charset=utf-8; method=REQUEST');
      expect(calendar.content.match(/BEGIN:VEVENT/g)).toHaveLength(1);
      expect(calendar.content.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    }
    expect(first!.content).toContain('DTSTART:20260330T090000Z');
    expect(first!.content).toContain('DTEND:20260330T100000Z');
    expect(second!.content).toContain('DTSTART:20260330T100000Z');
    expect(first!.content.match(/^UID:.*$/m)?.[0]).not.toBe(second!.content.match(/^UID:.*$/m)?.[0]);
  });

  it('handles the same completed event delivered 5 times at once exactly once', async () => {
    const sessionId = await book();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => checkout().handleEvent(paidEvent(sessionId, 'evt_same'))),
    );
    expect(results.filter((result) => result === 'processed')).toHaveLength(1);
    expect(await count(getDb(), 'payment_events')).toBe(1);
    expect(await count(getDb(), 'lock_codes')).toBe(1);
    expect(await count(getDb(), 'outbox')).toBe(1);
    expect((await bookingsOf(getDb(), user)).map((b) => b.status)).toEqual(['confirmed', 'confirmed']);
  });

  it('fulfils once when a second, different event and a reconciliation report the same payment', async () => {
    const sessionId = await book();
    const paidAtProvider: PaymentProvider = {
      ...createLocalPaymentProvider({ db: getDb(), clock }),
      retrieveSession: async () => paidEvent(sessionId).session,
    };
    await Promise.all([
      checkout().handleEvent(paidEvent(sessionId, 'evt_a')),
      checkout().handleEvent(paidEvent(sessionId, 'evt_b')),
      checkout({ payments: paidAtProvider }).reconcileSession({ sessionId, userId: user }),
    ]);
    expect(await count(getDb(), 'lock_codes')).toBe(1);
    expect(await count(getDb(), 'outbox')).toBe(1);
  });

  it('never releases a paid slot when expired arrives after completed', async () => {
    const sessionId = await book();
    await checkout().handleEvent(paidEvent(sessionId));
    clock.advance({ minutes: 31 });
    await checkout().handleEvent(
      sessionEvent(sessionId, 'evt_expired', 'checkout.session.expired', 'unpaid'),
    );
    await checkout().handleEvent(
      sessionEvent(sessionId, 'evt_failed', 'checkout.session.async_payment_failed', 'unpaid'),
    );
    expect((await bookingsOf(getDb(), user)).map((b) => b.status)).toEqual(['confirmed', 'confirmed']);
    const other = await verifiedUser(getDb());
    expect(await errorCode(book(other, [slots[0]!], 15))).toBe('slot_unavailable');
  });

  it('releases the holds of an expired session, so the slots can be booked again', async () => {
    const sessionId = await book();
    await checkout().handleEvent(
      sessionEvent(sessionId, 'evt_expired', 'checkout.session.expired', 'unpaid'),
    );
    expect((await bookingsOf(getDb(), user)).map((b) => b.status)).toEqual(['expired', 'expired']);
    const other = await verifiedUser(getDb());
    await expect(book(other)).resolves.toMatch(/^cs_local_/);
  });

  it('keeps the holds while an asynchronous payment is pending and releases them when it fails', async () => {
    const sessionId = await book();
    await checkout().handleEvent(
      sessionEvent(sessionId, 'evt_completed', 'checkout.session.completed', 'unpaid'),
    );
    expect((await bookingsOf(getDb(), user)).map((b) => b.status)).toEqual(['pending', 'pending']);
    await checkout().handleEvent(
      sessionEvent(sessionId, 'evt_failed', 'checkout.session.async_payment_failed', 'unpaid'),
    );
    expect((await bookingsOf(getDb(), user)).map((b) => b.status)).toEqual(['expired', 'expired']);
    expect(await count(getDb(), 'outbox')).toBe(0);
  });

  it('refunds a payment that arrives after its hold was released and the slot was booked by someone else', async () => {
    const sessionId = await book();
    clock.advance({ minutes: 30 });
    const other = await verifiedUser(getDb());
    await book(other, [slots[0]!], 15); // releases the stale hold of slot 0 first
    // A Multibanco-style payment succeeds later.
    await checkout().handleEvent(
      sessionEvent(sessionId, 'evt_async', 'checkout.session.async_payment_succeeded', 'paid'),
    );

    const mine = await bookingsOf(getDb(), user);
    expect(mine.map((b) => [b.status, b.paid_at !== null])).toEqual([
      ['expired', true],
      ['confirmed', true],
    ]);
    const refunds = await getDb().selectFrom('refunds').selectAll().execute();
    expect(refunds.map((r) => [r.booking_id, r.amount_cents, r.status, r.idempotency_key])).toEqual([
      [mine[0]!.id, 1500, 'succeeded', `late-payment-refund-${mine[0]!.id}`],
    ]);
    // Redelivery of the same news refunds nothing more.
    await checkout().handleEvent(
      sessionEvent(sessionId, 'evt_async_2', 'checkout.session.async_payment_succeeded', 'paid'),
    );
    expect(await count(getDb(), 'refunds')).toBe(1);
  });

  it('reconciles a session on status reads: owner only, and paid at the provider means confirmed', async () => {
    const sessionId = await book();
    const other = await verifiedUser(getDb());
    expect(await errorCode(checkout().reconcileSession({ sessionId, userId: other }))).toBe(
      'checkout_session_not_found',
    );
    const open = await checkout().reconcileSession({ sessionId, userId: user });
    expect(open.status).toBe('open');
    expect(open.clientSecret).toMatch(new RegExp(`^${sessionId}_secret_`));

    const paidAtProvider: PaymentProvider = {
      ...createLocalPaymentProvider({ db: getDb(), clock }),
      retrieveSession: async () => paidEvent(sessionId).session,
    };
    expect(
      await checkout({ payments: paidAtProvider }).reconcileSession({ sessionId, userId: user }),
    ).toEqual({
      status: 'complete',
      clientSecret: null,
      bookings: [
        expect.objectContaining({
          start_time: '2026-03-30T10:00:00+01:00',
          status: 'confirmed',
          refunded_eur: 0,
        }),
        expect.objectContaining({
          start_time: '2026-03-30T11:00:00+01:00',
          status: 'confirmed',
          refunded_eur: 0,
        }),
      ],
    });
    expect((await bookingsOf(getDb(), user)).map((b) => b.status)).toEqual(['confirmed', 'confirmed']);
  });

  it('reports a local session expired once its time is up, releasing its holds', async () => {
    const sessionId = await book();
    clock.advance({ minutes: 30 });
    expect(await checkout().reconcileSession({ sessionId })).toEqual({
      status: 'expired',
      clientSecret: null,
      bookings: [
        expect.objectContaining({ status: 'expired', refunded_eur: 0 }),
        expect.objectContaining({ status: 'expired', refunded_eur: 0 }),
      ],
    });
    expect((await bookingsOf(getDb(), user)).map((b) => b.status)).toEqual(['expired', 'expired']);
  });

  it('expires overdue local sessions and stale holds in one sweep', async () => {
    await book();
    clock.advance({ minutes: 45 });
    expect(await checkout().expireOverdueSessions()).toBe(1);
    expect((await bookingsOf(getDb(), user)).map((b) => b.status)).toEqual(['expired', 'expired']);
  });

  it('gives every live code of a branch distinct digits, retrying when the random code is taken', async () => {
    const sessionId = await book();
    let calls = 0;
    const colliding = () => (calls++ < 3 ? '123456' : '654321');
    const other = await verifiedUser(getDb());
    const otherSlot = await lisbonSlot(getDb(), branchId, '2026-03-30T12:00');
    const otherSession = await book(other, [otherSlot], 15);
    const service = createCheckoutService({
      ...bookingDependencies(getDb(), clock),
      db: getDb(),
      generateCode: colliding,
    });
    await service.handleEvent(paidEvent(sessionId, 'evt_1'));
    await service.handleEvent(paidEvent(otherSession, 'evt_2', 1500));
    const codes = await getDb().selectFrom('lock_codes').select('code').orderBy('id').execute();
    // The other user's slot starts where this user's ends: windows overlap, so the digits must differ.
    expect(codes.map((c) => c.code)).toEqual(['123456', '654321']);
  });
});
