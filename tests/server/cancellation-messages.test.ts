import ICAL from 'ical.js';
import { Temporal } from 'temporal-polyfill';
import { beforeEach, expect, it } from 'vitest';
import type { PaymentEvent } from '../../server/adapters/payments/provider.ts';
import { createCheckoutService } from '../../server/booking/checkout/service.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import type { OutboxAttachment } from '../../server/db/schema.ts';
import {
  bookAndPay,
  bookingDependencies,
  bookingService,
  bookingsOf,
  paidBookingAt,
  lisbonSlot,
  verifiedUser,
} from './bookings-fixtures.ts';
import { describeOnPglite, emptyAllTables } from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';
import { expectEmailPage } from './support/email-page.ts';
import { anyOf } from './support/matchers.ts';

// The messages of issue 17 item 8: every way a booking ends without taking place tells the member, once, in
// their language, with the refund, the card and a calendar file that removes the confirmation's event.

const clock = fixedClock('2026-03-20T10:00:00Z');

type CalendarEvent = { method: string; uid: string; sequence: number; status: string; start: string };

/** Reads an .ics the way a calendar does (ical.js), not by searching its text. */
function readCalendar(attachment: OutboxAttachment | undefined): CalendarEvent[] {
  const calendar = ICAL.Component.fromString(attachment!.content);
  return calendar.getAllSubcomponents('vevent').map((event) => ({
    method: String(calendar.getFirstPropertyValue('method')),
    uid: String(event.getFirstPropertyValue('uid')),
    sequence: Number(event.getFirstPropertyValue('sequence') ?? 0),
    status: String(event.getFirstPropertyValue('status')),
    start: (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
  }));
}

describeOnPglite('cancellation and refund messages', (getDb) => {
  let branchId: number;
  let user: string;
  const service = () => bookingService(getDb(), clock);
  const outbox = (kind?: string) => {
    let query = getDb().selectFrom('outbox').selectAll().orderBy('id');
    if (kind) query = query.where('kind', '=', kind);
    return query.execute();
  };

  const paidBooking = (localStart: string) => paidBookingAt(getDb(), clock, user, branchId, localStart);

  beforeEach(async () => {
    clock.set('2026-03-20T10:00:00Z');
    await emptyAllTables(getDb());
    branchId = await createBranch(getDb(), { name: 'Lisboa – Avenidas Novas' });
    user = await verifiedUser(getDb(), { email: 'ana@example.com', locale: 'en' });
  });

  it('e-mails a member’s own cancellation in their language with the refund, the card and a cancel event', async () => {
    const id = await paidBooking('2026-03-25T21:00');
    await service().cancelBookings({ userId: user, items: [{ bookingId: id, expectedRefundEur: 15 }] });

    const [confirmation] = await outbox('booking_confirmed');
    const [mail, ...others] = await outbox('booking_canceled');
    expect(others).toEqual([]);
    expect(mail).toMatchObject({
      channel: 'email',
      recipient: 'ana@example.com',
      locale: 'en',
      subject: 'Booking cancelled: Lisboa – Avenidas Novas',
    });
    // What, when (the branch's zone, English's 12-hour clock), how much and where to.
    expect(mail!.text_body).toContain('You cancelled this booking:');
    expect(mail!.text_body).toContain(
      'Wednesday, 25 March 2026, 9:00 pm–10:00 pm (Europe/Lisbon): refund €15.00',
    );
    expect(mail!.text_body).toContain('Total refund: €15.00, to the Visa card ending in 4242.');
    expect(mail!.text_body).toMatch(/Payment reference: cs_local_\w+/);
    expect(mail!.html_body).toContain('<li>');
    expectEmailPage(mail!.html_body, 'en');
    expectEmailPage(confirmation!.html_body, 'en');

    const [cancel] = mail!.attachments;
    expect(cancel!.filename).toBe('cancel.ics');
    expect(cancel!.contentType).toBe('text/calendar; charset=utf-8; method=CANCEL');
    const [created] = readCalendar(confirmation!.attachments[0]);
    const [removed] = readCalendar(cancel);
    expect(created).toMatchObject({ method: 'REQUEST', status: 'CONFIRMED', sequence: 0 });
    expect(removed).toEqual({
      method: 'CANCEL',
      uid: created!.uid,
      sequence: 1,
      status: 'CANCELLED',
      start: '2026-03-25T21:00:00.000Z',
    });
    expect(cancel!.content.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    // More than 24 hours ahead: no SMS.
    expect((await outbox()).filter((row) => row.channel === 'sms')).toEqual([]);
  });

  it('also sends an SMS when the booking was due within 24 hours, and tells once however often it is asked', async () => {
    await getDb().updateTable('users').set({ locale: 'pt' }).where('id', '=', user).execute();
    const id = await paidBooking('2026-03-21T09:00');
    const items = [{ bookingId: id, expectedRefundEur: 0 }];
    await service().cancelBookings({ userId: user, items });
    await service().cancelBookings({ userId: user, items });

    const messages = await outbox('booking_canceled');
    expect(messages.map((row) => row.channel)).toEqual(['email', 'sms']);
    const [mail, sms] = messages;
    expect(mail!.subject).toBe('Reserva cancelada: Lisboa – Avenidas Novas');
    expect(mail!.text_body).toContain(
      'sábado, 21 de março de 2026, 09:00–10:00 (Europe/Lisbon): sem reembolso',
    );
    expect(mail!.text_body).toContain('Nada a reembolsar, segundo a política de cancelamento.');
    expect(sms!.text_body).toBe(
      'Private Gym: reserva de sábado, 21 de março de 2026, 09:00–10:00 (Europe/Lisbon) em Lisboa – Avenidas Novas cancelada. Sem reembolso.',
    );
    expect(readCalendar(mail!.attachments[0])[0]).toMatchObject({ method: 'CANCEL', sequence: 1 });
  });

  it('tells the member of an operator’s cancellation with the whole price refunded', async () => {
    const id = await paidBooking('2026-03-21T09:00');
    expect(await service().cancelBookingsAsOperator({ bookingIds: [id], refund: 'full' })).toEqual({
      canceledBookingIds: [id],
      refundedCents: 1500,
    });
    const [mail, sms] = await outbox('booking_canceled');
    expect(mail!.text_body).toContain('The gym has cancelled this booking of yours:');
    expect(mail!.text_body).toContain('Total refund: €15.00, to the Visa card ending in 4242.');
    expect(readCalendar(mail!.attachments[0])[0]).toMatchObject({ method: 'CANCEL', status: 'CANCELLED' });
    expect(sms!.text_body).toContain('Refund: €15.00.');
  });

  it('tells the member of every booking cancelled by the account’s deletion, one message per branch', async () => {
    const other = await createBranch(getDb(), { name: 'Porto – Boavista' });
    await paidBooking('2026-03-25T10:00');
    await paidBooking('2026-03-26T10:00');
    const slot = await lisbonSlot(getDb(), other, '2026-03-27T10:00');
    await bookAndPay(getDb(), clock, user, [slot], 15);

    await service().cancelUpcomingBookingsOfUser(user);
    const messages = await outbox('booking_canceled');
    expect(messages.map((row) => row.subject).sort()).toEqual([
      // Two bookings in Lisbon, one in Porto: each subject counts its own.
      'Booking cancelled: Porto – Boavista',
      'Bookings cancelled: Lisboa – Avenidas Novas',
    ]);
    const lisbon = messages.find((row) => row.subject!.includes('Lisboa'))!;
    expect(lisbon.text_body).toContain('Your account has been deleted and these bookings were cancelled:');
    expect(lisbon.text_body).toContain('Total refund: €30.00');
    // One calendar file per booking, each removing its one event.
    expect(
      lisbon.attachments.map((attachment) => readCalendar(attachment).map((event) => event.start)),
    ).toEqual([['2026-03-25T10:00:00.000Z'], ['2026-03-26T10:00:00.000Z']]);
  });

  it('tells honestly of a payment that arrived after its hold ended and was refunded', async () => {
    const slot = await lisbonSlot(getDb(), branchId, '2026-03-21T09:00');
    const deps = bookingDependencies(getDb(), clock);
    const created = await bookingService(getDb(), clock).createBooking({
      userId: user,
      slotIds: [slot],
      couponId: null,
      expectedTotalEur: 15,
      locale: 'en',
    });
    const sessionId = created.checkout_session.clientSecret!.split('_secret_')[0]!;
    clock.advance({ minutes: 31 });
    const checkout = createCheckoutService(deps);
    await checkout.expireOverdueSessions();
    const late: PaymentEvent = {
      id: 'evt_late',
      type: 'checkout.session.async_payment_succeeded',
      session: {
        id: sessionId,
        clientSecret: null,
        status: 'complete',
        paymentStatus: 'paid',
        paymentIntentId: 'pi_late',
        amountCents: 1500,
        expiresAt: Temporal.Instant.from('2026-03-20T10:30:00Z'),
      },
      payload: { id: 'evt_late' },
    };
    await checkout.handleEvent(late);
    await checkout.handleEvent({ ...late, id: 'evt_late_again' });

    expect((await bookingsOf(getDb(), user)).map((booking) => booking.status)).toEqual(['expired']);
    const [mail, sms, ...more] = await outbox('late_payment_refunded');
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Payment refunded: Lisboa – Avenidas Novas');
    expect(mail!.text_body).toContain(
      'Your payment arrived after the hold on the chosen time had ended, so this time was not booked',
    );
    expect(mail!.text_body).toContain('Total refund: €15.00, to the card you paid with.');
    expect(mail!.text_body).not.toContain('Your booking is confirmed');
    // Never confirmed, never in the member's calendar: nothing to remove.
    expect(mail!.attachments).toEqual([]);
    expect(sms!.text_body).toContain('your payment arrived late and was refunded');
    expect(await outbox('booking_confirmed')).toEqual([]);
    // The payment result reads the same truth: nothing booked, the slot refunded.
    const status = await checkout.reconcileSession({ sessionId, userId: user });
    expect(status).toMatchObject({ status: 'complete', clientSecret: null });
    expect(status.bookings).toEqual([
      {
        id: anyOf(Number),
        start_time: '2026-03-21T09:00:00+00:00',
        end_time: '2026-03-21T10:00:00+00:00',
        branch_name: 'Lisboa – Avenidas Novas',
        time_zone: 'Europe/Lisbon',
        status: 'expired',
        refunded_eur: 15,
      },
    ]);
  });
});
