import { beforeEach, expect, it } from 'vitest';
import { createLocalPaymentProvider } from '../../server/adapters/payments/local.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { AppError } from '../../server/kernel/errors.ts';
import { writeRefundRatios } from '../../server/catalog/refund-ratios.ts';
import {
  bookingService,
  bookingsOf,
  createCoupon,
  errorCode,
  failingProvider,
  lisbonSlot,
  verifiedUser,
} from './bookings-fixtures.ts';
import { describeOnPglite, emptyAllTables } from './support/databases.ts';
import { createBranch, createUser, insertBooking } from './support/fixtures.ts';

const clock = fixedClock('2026-03-20T10:00:00Z');

describeOnPglite('creating a booking', (getDb) => {
  let branchId: number;
  let user: string;
  const service = () => bookingService(getDb(), clock);

  beforeEach(async () => {
    clock.set('2026-03-20T10:00:00Z');
    await emptyAllTables(getDb());
    branchId = await createBranch(getDb());
    user = await verifiedUser(getDb());
  });

  const create = (
    slotIds: number[],
    expectedTotalEur: number,
    couponId: number | null = null,
    userId = user,
  ) => service().createBooking({ userId, slotIds, couponId, expectedTotalEur, locale: 'en' });

  it('holds the slots with pending bookings and opens a 30-minute checkout with a Stripe-shaped secret', async () => {
    const first = await lisbonSlot(getDb(), branchId, '2026-03-25T10:00', { priceCents: 1500 });
    const second = await lisbonSlot(getDb(), branchId, '2026-03-25T11:00', { priceCents: 1250 });
    const result = await create([second, first], 27.5);

    const secret = result.checkout_session.clientSecret!;
    expect(secret).toMatch(/^cs_local_[0-9a-f]+_secret_[0-9a-f]+$/);
    const sessionId = secret.split('_secret_')[0]!;
    const session = await getDb()
      .selectFrom('checkout_sessions')
      .selectAll()
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    expect(session).toMatchObject({
      provider: 'local',
      status: 'open',
      amount_cents: 2750,
      user_id: user,
      locale: 'en',
      booking_date: '2026-03-25',
    });
    expect(session.expires_at.toISOString()).toBe('2026-03-20T10:30:00.000Z');

    const bookings = await bookingsOf(getDb(), user);
    expect(bookings.map((b) => [b.slot_id, b.status, b.final_price_cents, b.checkout_session_id])).toEqual([
      [first, 'pending', 1500, sessionId],
      [second, 'pending', 1250, sessionId],
    ]);
    expect(bookings.every((b) => b.hold_expires_at?.toISOString() === '2026-03-20T10:30:00.000Z')).toBe(true);
    expect(bookings[0]!.refund_ratios).toEqual({ '48': 1, '24': 0.5, '0': 0 });
  });

  it('refuses with 409 price_changed when the client total differs by a cent, naming the right total', async () => {
    const slot = await lisbonSlot(getDb(), branchId, '2026-03-25T10:00', { priceCents: 1500 });
    const error = await create([slot], 14.99).catch((caught: AppError) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(409);
    expect((error as AppError).body('en')).toEqual({
      code: 'price_changed',
      detail: 'The price has changed: the total is now €15.00. Please review your booking.',
    });
    // Each language writes the amount its own way (the space before € is a no-break space).
    expect((error as AppError).body('pt').detail).toBe(
      'O preço mudou: o total é agora 15,00\u00a0€. Reveja a sua reserva.',
    );
    expect((error as AppError).body('de').detail).toContain('Die Summe beträgt jetzt 15,00\u00a0€.');
    expect(await bookingsOf(getDb())).toEqual([]);
    expect(await getDb().selectFrom('checkout_sessions').selectAll().execute()).toEqual([]);
  });

  it('refuses a slot someone holds with 409 slot_unavailable and changes nothing', async () => {
    const free = await lisbonSlot(getDb(), branchId, '2026-03-25T10:00');
    const held = await lisbonSlot(getDb(), branchId, '2026-03-25T11:00');
    const other = await verifiedUser(getDb());
    await create([held], 15, null, other);

    expect(await errorCode(create([free, held], 30))).toBe('slot_unavailable');
    const bookings = await bookingsOf(getDb());
    expect(bookings.map((b) => [b.slot_id, b.user_id, b.status])).toEqual([[held, other, 'pending']]);
    // The free slot is still free: booking it alone works.
    await expect(create([free], 15)).resolves.toBeTruthy();
  });

  it('refuses a confirmed slot too', async () => {
    const slot = await lisbonSlot(getDb(), branchId, '2026-03-25T10:00');
    await insertBooking(getDb(), { slotId: slot, status: 'confirmed' });
    expect(await errorCode(create([slot], 15))).toBe('slot_unavailable');
  });

  it('releases a stale hold on the slot first, so an abandoned checkout does not block it', async () => {
    const slot = await lisbonSlot(getDb(), branchId, '2026-03-25T10:00');
    const other = await verifiedUser(getDb());
    await create([slot], 15, null, other);
    clock.advance({ minutes: 30 });
    await create([slot], 15);
    const bookings = await bookingsOf(getDb());
    expect(bookings.map((b) => [b.user_id, b.status])).toEqual([
      [other, 'expired'],
      [user, 'pending'],
    ]);
  });

  it('confirms a booking of 0 EUR at once, without a checkout', async () => {
    const free = await createCoupon(getDb(), { code: 'FREE', discount: 1 });
    const slot = await lisbonSlot(getDb(), branchId, '2026-03-25T10:00');
    expect(await create([slot], 0, free)).toEqual({ checkout_session: { clientSecret: null } });
    const [booking] = await bookingsOf(getDb());
    expect(booking).toMatchObject({ status: 'confirmed', final_price_cents: 0, checkout_session_id: null });
    expect(booking!.paid_at).not.toBeNull();
    expect(booking!.lock_code_id).not.toBeNull();
    const outbox = await getDb().selectFrom('outbox').selectAll().execute();
    expect(outbox.map((m) => m.kind)).toEqual(['booking_confirmed']);
  });

  it('releases the holds when the payment provider fails, answering 503', async () => {
    const slot = await lisbonSlot(getDb(), branchId, '2026-03-25T10:00');
    const down = bookingService(getDb(), clock, {
      payments: failingProvider(createLocalPaymentProvider({ db: getDb(), clock }), 'create'),
    });
    const error = await down
      .createBooking({ userId: user, slotIds: [slot], couponId: null, expectedTotalEur: 15, locale: 'pt' })
      .catch((caught: AppError) => caught);
    expect((error as AppError).code).toBe('payment_provider_unavailable');
    expect((error as AppError).status).toBe(503);
    expect(await bookingsOf(getDb())).toEqual([]);
    await expect(create([slot], 15)).resolves.toBeTruthy();
  });

  it('refuses unverified, blocked and deleted accounts with 403', async () => {
    const slot = await lisbonSlot(getDb(), branchId, '2026-03-25T10:00');
    const unverified = await createUser(getDb());
    expect(await errorCode(create([slot], 15, null, unverified))).toBe('booking_requires_verification');

    const blocked = await verifiedUser(getDb(), { email: 'blocked@example.com' });
    await getDb()
      .insertInto('blocked_contacts')
      .values({ kind: 'email', value: 'blocked@example.com' })
      .execute();
    expect(await errorCode(create([slot], 15, null, blocked))).toBe('booking_client_blocked');

    const phoneBlocked = await verifiedUser(getDb());
    const { phone_number } = await getDb()
      .selectFrom('users')
      .select('phone_number')
      .where('id', '=', phoneBlocked)
      .executeTakeFirstOrThrow();
    await getDb().insertInto('blocked_contacts').values({ kind: 'phone', value: phone_number! }).execute();
    expect(await errorCode(create([slot], 15, null, phoneBlocked))).toBe('booking_client_blocked');

    const deleted = await verifiedUser(getDb());
    await getDb().updateTable('users').set({ deleted_at: new Date() }).where('id', '=', deleted).execute();
    expect(await errorCode(create([slot], 15, null, deleted))).toBe('booking_account_closed');
    expect(await bookingsOf(getDb())).toEqual([]);
  });

  it('refuses unknown slots (404), started slots and slots of a branch that is not bookable (409)', async () => {
    const started = await lisbonSlot(getDb(), branchId, '2026-03-20T10:00');
    expect(await errorCode(create([started], 15))).toBe('slot_started');
    expect(await errorCode(create([999_999], 15))).toBe('slot_not_found');
    const comingSoon = await createBranch(getDb(), { activeWithSmartLock: false });
    const inactive = await lisbonSlot(getDb(), comingSoon, '2026-03-25T10:00');
    expect(await errorCode(create([inactive], 15))).toBe('branch_not_bookable');
    const elsewhere = await lisbonSlot(getDb(), await createBranch(getDb()), '2026-03-25T10:00');
    const here = await lisbonSlot(getDb(), branchId, '2026-03-25T10:00');
    expect(await errorCode(create([here, elsewhere], 30))).toBe('slots_of_several_branches');
    expect(await bookingsOf(getDb())).toEqual([]);
  });

  it('gives the early-bird discount on the first 3 booked slots only, by start time', async () => {
    const earlyBird = await createCoupon(getDb(), {
      code: 'EARLYBIRD',
      discount: 0.1,
      maxPerUser: 3,
      registeredBefore: '2100-01-01T00:00:00Z',
    });
    const slots = [];
    for (const hour of ['14', '10', '11', '12', '13']) {
      slots.push(await lisbonSlot(getDb(), branchId, `2026-03-25T${hour}:00`, { priceCents: 1255 }));
    }
    // All five discounted is what a client unaware of the cap would expect: the server says otherwise.
    expect(await errorCode(create(slots, 5 * 11.3, earlyBird))).toBe('price_changed');
    await create(slots, 3 * 11.3 + 2 * 12.55, earlyBird);

    const bookings = await bookingsOf(getDb(), user);
    expect(bookings.map((b) => [b.final_price_cents, b.coupon_id])).toEqual([
      [1130, earlyBird],
      [1130, earlyBird],
      [1130, earlyBird],
      [1255, null],
      [1255, null],
    ]);
    const redemptions = await getDb().selectFrom('coupon_redemptions').selectAll().execute();
    expect(redemptions).toHaveLength(3);

    const next = await lisbonSlot(getDb(), branchId, '2026-03-26T10:00');
    expect(await errorCode(create([next], 13.5, earlyBird))).toBe('invalid_coupon');
  });

  it('keeps the refund policy in force when booked, whatever the policy becomes later', async () => {
    await writeRefundRatios(getDb(), { '72': 1, '0': 0.25 });
    const slot = await lisbonSlot(getDb(), branchId, '2026-03-25T10:00');
    await create([slot], 15);
    await writeRefundRatios(getDb(), { '0': 0 });
    const [booking] = await bookingsOf(getDb());
    expect(booking!.refund_ratios).toEqual({ '72': 1, '0': 0.25 });
  });
});
