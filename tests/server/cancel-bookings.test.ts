import { beforeEach, expect, it } from 'vitest';
import { createLocalPaymentProvider } from '../../server/adapters/payments/local.ts';
import type { PaymentProvider } from '../../server/adapters/payments/provider.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import {
  bookAndPay,
  bookingService,
  bookingsOf,
  paidBookingAt,
  errorCode,
  failingProvider,
  lisbonSlot,
  verifiedUser,
} from './bookings-fixtures.ts';
import { describeEachDatabase, emptyAllTables } from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';

const clock = fixedClock('2026-03-20T10:00:00Z');

describeEachDatabase('cancelling bookings', (getDb) => {
  let branchId: number;
  let user: string;
  const service = (overrides: { payments?: PaymentProvider } = {}) =>
    bookingService(getDb(), clock, overrides);
  const cancel = (items: { bookingId: number; expectedRefundEur: number }[], userId = user) =>
    service().cancelBookings({ userId, items });
  const refunds = () => getDb().selectFrom('refunds').selectAll().orderBy('id').execute();

  const paidBooking = (localStart: string, userId = user) =>
    paidBookingAt(getDb(), clock, userId, branchId, localStart);

  beforeEach(async () => {
    clock.set('2026-03-20T10:00:00Z');
    await emptyAllTables(getDb());
    branchId = await createBranch(getDb());
    user = await verifiedUser(getDb());
  });

  it('cancels a paid booking, refunds it in full far ahead and revokes its door code', async () => {
    const id = await paidBooking('2026-03-25T10:00');
    expect(await cancel([{ bookingId: id, expectedRefundEur: 15 }])).toEqual({
      canceledBookingIds: [id],
      refundedCents: 1500,
    });
    const [booking] = await bookingsOf(getDb(), user);
    expect(booking).toMatchObject({ status: 'canceled' });
    expect(booking!.canceled_at).not.toBeNull();
    expect((await refunds()).map((r) => [r.booking_id, r.amount_cents, r.status, r.idempotency_key])).toEqual(
      [[id, 1500, 'succeeded', `cancel-refund-${id}`]],
    );
    const [code] = await getDb().selectFrom('lock_codes').selectAll().execute();
    expect(code!.revoked_at).not.toBeNull();
    // The slot is bookable again.
    const other = await verifiedUser(getDb());
    await expect(
      service().createBooking({
        userId: other,
        slotIds: [booking!.slot_id],
        couponId: null,
        expectedTotalEur: 15,
        locale: 'pt',
      }),
    ).resolves.toBeTruthy();
  });

  it('refunds by the booking’s own ratios at the exact 48 h and 24 h boundaries', async () => {
    const hour = 3600;
    // Seconds before the start, and the refund then (Lisbon is on UTC until 29 March).
    const cases: [number, number][] = [
      [48 * hour, 15], // exactly 48 h: 100 %
      [48 * hour - 1, 7.5], // a second under 48 h: 50 %
      [24 * hour, 7.5], // exactly 24 h: 50 %
      [24 * hour - 1, 0], // a second under 24 h: nothing
    ];
    for (const [index, [secondsBefore, refund]] of cases.entries()) {
      clock.set('2026-03-20T10:00:00Z');
      const localStart = `2026-03-25T${String(10 + index).padStart(2, '0')}:00`;
      const id = await paidBooking(localStart);
      clock.set(new Date(Date.parse(`${localStart}:00Z`) - secondsBefore * 1000).toISOString());
      const listed = (await service().listMyBookings(user)).find((booking) => booking.id === id)!;
      expect(listed.refundable_eur).toBe(refund);
      expect(
        await errorCode(cancel([{ bookingId: id, expectedRefundEur: refund === 0 ? 0.01 : refund - 0.01 }])),
      ).toBe('refund_changed');
      await cancel([{ bookingId: id, expectedRefundEur: refund }]);
    }
    expect((await refunds()).map((r) => r.amount_cents)).toEqual([1500, 750, 750]);
  });

  it('counts real hours across the spring DST change: 48 wall-clock hours before is only 47 real ones', async () => {
    // Lisbon moves to summer time on 29 March 2026; the booking starts 30 March 10:00 local = 09:00 UTC.
    const id = await paidBooking('2026-03-30T10:00');
    clock.set('2026-03-28T10:00:00Z'); // 10:00 local two days before, but 47 real hours.
    expect((await service().listMyBookings(user))[0]!.refundable_eur).toBe(7.5);
    clock.set('2026-03-28T09:00:00Z'); // 48 real hours.
    expect((await service().listMyBookings(user))[0]!.refundable_eur).toBe(15);
    await cancel([{ bookingId: id, expectedRefundEur: 15 }]);
    expect((await refunds()).map((r) => r.amount_cents)).toEqual([1500]);
  });

  it('is all or nothing: one wrong figure cancels none of the bookings', async () => {
    const first = await paidBooking('2026-03-25T10:00');
    const second = await paidBooking('2026-03-26T10:00');
    expect(
      await errorCode(
        cancel([
          { bookingId: first, expectedRefundEur: 15 },
          { bookingId: second, expectedRefundEur: 7.5 },
        ]),
      ),
    ).toBe('refund_changed');
    expect((await bookingsOf(getDb(), user)).map((b) => b.status)).toEqual(['confirmed', 'confirmed']);
    expect(await refunds()).toEqual([]);
  });

  it('refuses bookings of someone else (404), unpaid or started ones (409)', async () => {
    const mine = await paidBooking('2026-03-25T10:00');
    const other = await verifiedUser(getDb());
    expect(await errorCode(cancel([{ bookingId: mine, expectedRefundEur: 15 }], other))).toBe(
      'booking_not_found',
    );
    expect(await errorCode(cancel([{ bookingId: 999_999, expectedRefundEur: 0 }]))).toBe('booking_not_found');

    const pendingSlot = await lisbonSlot(getDb(), branchId, '2026-03-27T10:00');
    await service().createBooking({
      userId: user,
      slotIds: [pendingSlot],
      couponId: null,
      expectedTotalEur: 15,
      locale: 'pt',
    });
    const pending = (await bookingsOf(getDb(), user)).find((b) => b.status === 'pending')!;
    expect(await errorCode(cancel([{ bookingId: pending.id, expectedRefundEur: 0 }]))).toBe(
      'booking_not_cancelable',
    );

    clock.set('2026-03-25T10:00:00Z');
    expect(await errorCode(cancel([{ bookingId: mine, expectedRefundEur: 0 }]))).toBe(
      'booking_not_cancelable',
    );
    expect(await refunds()).toEqual([]);
  });

  it('changes nothing when the provider cannot refund (503)', async () => {
    const id = await paidBooking('2026-03-25T10:00');
    const down = service({
      payments: failingProvider(createLocalPaymentProvider({ db: getDb(), clock }), 'refund'),
    });
    expect(
      await errorCode(
        down.cancelBookings({ userId: user, items: [{ bookingId: id, expectedRefundEur: 15 }] }),
      ),
    ).toBe('payment_provider_unavailable');
    expect((await bookingsOf(getDb(), user)).map((b) => b.status)).toEqual(['confirmed']);
    expect(await refunds()).toEqual([]);
  });

  it('never refunds twice: a repeated call succeeds and pays nothing more', async () => {
    const id = await paidBooking('2026-03-25T10:00');
    await cancel([{ bookingId: id, expectedRefundEur: 15 }]);
    expect(await cancel([{ bookingId: id, expectedRefundEur: 15 }])).toEqual({
      canceledBookingIds: [],
      refundedCents: 0,
    });
    expect(await refunds()).toHaveLength(1);
  });

  it('gives one refund for 10 concurrent cancellations of the same booking', async () => {
    const id = await paidBooking('2026-03-25T10:00');
    let providerRefunds = 0;
    const local = createLocalPaymentProvider({ db: getDb(), clock });
    const counting: PaymentProvider = {
      ...local,
      refund: async (input) => {
        providerRefunds += 1;
        return local.refund(input);
      },
    };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        service({ payments: counting }).cancelBookings({
          userId: user,
          items: [{ bookingId: id, expectedRefundEur: 15 }],
        }),
      ),
    );
    expect(outcomes.every((outcome) => outcome.status === 'fulfilled')).toBe(true);
    expect(providerRefunds).toBe(1);
    expect(await refunds()).toHaveLength(1);
  });

  it('keeps a shared door code for the bookings left, giving a run after a cancelled middle one its own', async () => {
    const slots = [
      await lisbonSlot(getDb(), branchId, '2026-03-25T10:00'),
      await lisbonSlot(getDb(), branchId, '2026-03-25T11:00'),
      await lisbonSlot(getDb(), branchId, '2026-03-25T12:00'),
    ];
    await bookAndPay(getDb(), clock, user, slots, 45);
    const [first, middle, last] = await bookingsOf(getDb(), user);
    expect(new Set([first!.lock_code_id, middle!.lock_code_id, last!.lock_code_id]).size).toBe(1);

    await cancel([{ bookingId: middle!.id, expectedRefundEur: 15 }]);
    const after = await bookingsOf(getDb(), user);
    const codes = await getDb().selectFrom('lock_codes').selectAll().orderBy('id').execute();
    const shared = codes.find((code) => code.id === first!.lock_code_id)!;
    expect([shared.valid_from.toISOString(), shared.valid_until.toISOString()]).toEqual([
      '2026-03-25T09:45:00.000Z',
      '2026-03-25T11:15:00.000Z',
    ]);
    expect(shared.revoked_at).toBeNull();
    const lastCode = codes.find((code) => code.id === after[2]!.lock_code_id)!;
    expect(lastCode.id).not.toBe(shared.id);
    expect([lastCode.valid_from.toISOString(), lastCode.valid_until.toISOString()]).toEqual([
      '2026-03-25T11:45:00.000Z',
      '2026-03-25T13:15:00.000Z',
    ]);
  });

  it('cancels every upcoming booking of a deleted account by its own policy and releases its holds', async () => {
    const farAhead = await paidBooking('2026-03-25T10:00'); // 120 h ahead: full refund
    const tomorrow = await paidBooking('2026-03-21T09:00'); // 23 h ahead: nothing back
    clock.set('2026-03-20T09:00:00Z');
    const past = await paidBooking('2026-03-20T09:30'); // started by the time the account goes
    const pendingSlot = await lisbonSlot(getDb(), branchId, '2026-03-26T10:00');
    clock.set('2026-03-20T10:00:00Z');
    await service().createBooking({
      userId: user,
      slotIds: [pendingSlot],
      couponId: null,
      expectedTotalEur: 15,
      locale: 'pt',
    });

    const result = await service().cancelUpcomingBookingsOfUser(user);
    expect(result).toEqual({ canceledBookingIds: [farAhead, tomorrow], refundedCents: 1500 });
    const statuses = Object.fromEntries((await bookingsOf(getDb(), user)).map((b) => [b.id, b.status]));
    expect(statuses[farAhead]).toBe('canceled');
    expect(statuses[tomorrow]).toBe('canceled');
    expect(statuses[past]).toBe('confirmed');
    expect(Object.values(statuses).filter((status) => status === 'expired')).toHaveLength(1);
    expect((await refunds()).map((r) => [r.booking_id, r.amount_cents])).toEqual([[farAhead, 1500]]);
  });
});
