import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { beforeEach, expect, it } from 'vitest';
import { createCheckoutService } from '../../server/checkout/service.ts';
import { fixedClock } from '../../server/clock.ts';
import { createAjv } from '../../server/http/validation.ts';
import {
  bookAndPay,
  bookingDependencies,
  bookingService,
  createCoupon,
  lisbonSlot,
  verifiedUser,
} from './bookings-fixtures.ts';
import { describeEachDatabase, emptyAllTables } from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';

const clock = fixedClock('2026-03-20T10:00:00Z');

const contract = parse(readFileSync(new URL('../../openapi/openapi.yaml', import.meta.url), 'utf8')) as {
  components: unknown;
};
const ajv = createAjv();
ajv.addSchema({ $id: 'contract.json', components: contract.components });
const isContractBooking = ajv.compile({
  type: 'array',
  items: { $ref: 'contract.json#/components/schemas/Booking' },
});

describeEachDatabase('my bookings', (getDb) => {
  let branchId: number;
  let user: string;
  const service = () => bookingService(getDb(), clock);
  const list = async () => {
    const bookings = await service().listMyBookings(user);
    expect(isContractBooking(bookings), JSON.stringify(isContractBooking.errors)).toBe(true);
    return bookings;
  };

  beforeEach(async () => {
    clock.set('2026-03-20T10:00:00Z');
    await emptyAllTables(getDb());
    branchId = await createBranch(getDb(), { name: 'Porto – Boavista', location: 'Avenida da Boavista 1' });
    user = await verifiedUser(getDb());
  });

  it('shows an unpaid booking with a pay-again link while its checkout is open, expired after', async () => {
    const slot = await lisbonSlot(getDb(), branchId, '2026-03-30T10:00');
    const { checkout_session } = await service().createBooking({
      userId: user,
      slotIds: [slot],
      couponId: null,
      expectedTotalEur: 15,
      locale: 'en',
    });
    const sessionId = checkout_session.clientSecret!.split('_secret_')[0];
    const [pending] = await list();
    expect(pending).toMatchObject({
      status: 'pending',
      active: true,
      canceled: false,
      paid: false,
      is_cancelable: false,
      refundable_eur: 0,
      refunded_eur: null,
      lock_code: null,
      pay_again_url: `https://gym.example/en?stripe_session_id=${sessionId}&booking_date=2026-03-30`,
      time_slot_data: {
        start_time: '2026-03-30T10:00:00+01:00',
        end_time: '2026-03-30T11:00:00+01:00',
        branch_data: {
          id: branchId,
          name: 'Porto – Boavista',
          location: 'Avenida da Boavista 1',
          time_zone: 'Europe/Lisbon',
        },
      },
    });

    clock.advance({ minutes: 30 });
    const [expired] = await list();
    expect(expired).toMatchObject({ status: 'expired', active: false, pay_again_url: null });
  });

  it('shows a paid booking as cancelable with its refund now, and its door code only from 30 minutes before to the end', async () => {
    const slot = await lisbonSlot(getDb(), branchId, '2026-03-30T10:00');
    await bookAndPay(getDb(), clock, user, [slot], 15);
    const [booking] = await list();
    expect(booking).toMatchObject({
      status: 'confirmed',
      active: true,
      paid: true,
      is_in_past: false,
      is_cancelable: true,
      final_price_eur: 15,
      refundable_eur: 15,
      lock_code: null,
      pay_again_url: null,
      coupon_code: null,
    });

    clock.set('2026-03-30T08:29:59Z'); // 09:29:59 local
    expect((await list())[0]!.lock_code).toBeNull();
    expect((await list())[0]!.refundable_eur).toBe(0);
    clock.set('2026-03-30T08:30:00Z');
    const code = (await list())[0]!.lock_code;
    expect(code).toMatch(/^\d{6}$/);
    clock.set('2026-03-30T09:00:00Z');
    expect(await list()).toMatchObject([{ is_in_past: true, is_cancelable: false, lock_code: code }]);
    clock.set('2026-03-30T10:00:00Z');
    expect((await list())[0]!.lock_code).toBeNull();
  });

  it('shows a cancelled booking with what was refunded, and the coupon it used', async () => {
    const coupon = await createCoupon(getDb(), { code: 'WELCOME5', discount: 0.05 });
    const slot = await lisbonSlot(getDb(), branchId, '2026-03-30T10:00');
    const deps = bookingDependencies(getDb(), clock);
    const { checkout_session } = await service().createBooking({
      userId: user,
      slotIds: [slot],
      couponId: coupon,
      expectedTotalEur: 14.25,
      locale: 'pt',
    });
    await createCheckoutService(deps).completeLocalCheckout({
      sessionId: checkout_session.clientSecret!.split('_secret_')[0]!,
      cardNumber: '4242424242424242',
    });
    const [paid] = await list();
    await service().cancelBookings({
      userId: user,
      items: [{ bookingId: paid!.id, expectedRefundEur: 14.25 }],
    });
    expect(await list()).toMatchObject([
      {
        status: 'canceled',
        canceled: true,
        active: false,
        paid: true,
        is_cancelable: false,
        final_price_eur: 14.25,
        refunded_eur: 14.25,
        refundable_eur: 0,
        coupon_code: 'WELCOME5',
      },
    ]);
  });

  it('lists only the user’s own bookings, by start time', async () => {
    const later = await lisbonSlot(getDb(), branchId, '2026-03-31T10:00');
    const sooner = await lisbonSlot(getDb(), branchId, '2026-03-30T10:00');
    const other = await verifiedUser(getDb());
    await bookAndPay(getDb(), clock, user, [later], 15);
    await bookAndPay(getDb(), clock, user, [sooner], 15);
    await bookAndPay(getDb(), clock, other, [await lisbonSlot(getDb(), branchId, '2026-03-29T10:00')], 15);
    const bookings = await list();
    expect(bookings.map((b) => b.time_slot_data.start_time)).toEqual([
      '2026-03-30T10:00:00+01:00',
      '2026-03-31T10:00:00+01:00',
    ]);
  });
});
