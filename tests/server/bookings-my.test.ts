import { readFileSync } from 'node:fs';
import { Temporal } from 'temporal-polyfill';
import { parse } from 'yaml';
import { beforeEach, expect, it } from 'vitest';
import { formatEpochInZone, formatLocalTime } from '../../server/catalog/service.ts';
import { createCheckoutService } from '../../server/booking/checkout/service.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { createAjv } from '../../server/http/validation.ts';
import {
  bookAndPay,
  bookingDependencies,
  bookingService,
  createCoupon,
  lisbonSlot,
  verifiedUser,
} from './bookings-fixtures.ts';
import { describeOnPglite, emptyAllTables } from './support/databases.ts';
import { createBranch, insertBooking } from './support/fixtures.ts';

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

describeOnPglite('my bookings', (getDb) => {
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

describeOnPglite('my bookings, a long history', (getDb) => {
  let branchId: number;
  let user: string;
  const service = () => bookingService(getDb(), clock);

  beforeEach(async () => {
    clock.set('2026-03-20T10:00:00Z');
    await emptyAllTables(getDb());
    branchId = await createBranch(getDb());
    user = await verifiedUser(getDb());
  });

  /** `count` hourly slots from a Lisbon local time, each booked by the user with `status`. */
  const book = async (from: string, count: number, status: 'confirmed' | 'canceled' | 'pending') => {
    const ids: number[] = [];
    const start = Temporal.PlainDateTime.from(from);
    for (let index = 0; index < count; index += 1) {
      const slot = await lisbonSlot(getDb(), branchId, start.add({ hours: index }).toString());
      ids.push(await insertBooking(getDb(), { slotId: slot, status, userId: user }));
    }
    return ids;
  };

  it('answers every upcoming booking and the newest 20 of the history, then older history page by page', async () => {
    const upcoming = await book('2026-03-25T08:00', 3, 'confirmed');
    const canceledAhead = await book('2026-03-26T08:00', 5, 'canceled');
    const past = await book('2026-03-01T08:00', 25, 'confirmed');
    const expiredHold = await book('2026-03-27T08:00', 1, 'pending');
    await getDb()
      .updateTable('bookings')
      .set({ hold_expires_at: new Date('2026-03-20T09:00:00Z') })
      .where('id', '=', expiredHold[0]!)
      .execute();

    const first = await service().listMyBookingsPage(user);
    const firstIds = first.bookings.map((booking) => booking.id);
    // Upcoming, plus the history newest first: the expired hold, the cancelled ones, then the newest 14 past ones.
    expect(firstIds).toHaveLength(23);
    expect(firstIds).toEqual(expect.arrayContaining([...upcoming, ...canceledAhead, ...expiredHold]));
    expect(firstIds).toEqual(expect.arrayContaining(past.slice(-14)));
    const starts = first.bookings.map((booking) => Date.parse(booking.time_slot_data.start_time));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(first.nextCursor).toMatch(/^\d+\.\d+$/);

    const second = await service().listMyBookingsPage(user, { historyBefore: first.nextCursor });
    expect(second.bookings.map((booking) => booking.id)).toEqual(past.slice(0, 11));
    expect(second.nextCursor).toBeNull();

    const small = await service().listMyBookingsPage(user, { historyLimit: 5 });
    expect(small.bookings).toHaveLength(8);
    const rest = await service().listMyBookingsPage(user, {
      historyBefore: small.nextCursor,
      historyLimit: 100,
    });
    expect(new Set([...small.bookings, ...rest.bookings].map((booking) => booking.id)).size).toBe(34);
  });

  it('formats times like the Temporal polyfill, across the DST changes of several zones', async () => {
    const zones = [
      'Europe/Lisbon',
      'Europe/Berlin',
      'America/New_York',
      'Asia/Kolkata',
      'Australia/Lord_Howe',
    ];
    const instants = [
      '2026-03-29T00:59:59.999Z',
      '2026-03-29T01:00:00Z',
      '2026-10-25T00:30:00.5Z',
      '2026-10-25T01:30:00Z',
      '2026-11-01T05:59:59Z',
      '2026-11-01T06:00:01Z',
      '1999-12-31T23:59:59.999Z',
    ].map((text) => Temporal.Instant.from(text));
    for (const zone of zones) {
      for (const instant of instants) {
        expect(formatEpochInZone(instant.epochMilliseconds, zone)).toBe(formatLocalTime(instant, zone));
      }
    }
  });
});
