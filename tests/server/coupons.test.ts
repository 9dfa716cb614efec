import { beforeEach, expect, it } from 'vitest';
import { fixedClock } from '../../server/kernel/clock.ts';
import { createCouponService } from '../../server/booking/coupons/service.ts';
import { AppError } from '../../server/kernel/errors.ts';
import { describeOnPglite, emptyAllTables } from './support/databases.ts';
import { createBranch, createUser, insertBooking, insertSlot } from './support/fixtures.ts';

const clock = fixedClock('2026-03-20T10:00:00Z');

describeOnPglite('coupon lookup', (getDb) => {
  const coupons = () => createCouponService({ db: getDb(), clock });
  let branchId: number;
  let slotCounter = 0;

  async function createCoupon(values: {
    code: string;
    discount?: number;
    validFrom?: string;
    validUntil?: string | null;
    maxRedemptions?: number | null;
    maxPerUser?: number | null;
    registeredBefore?: string | null;
    active?: boolean;
  }): Promise<number> {
    const { id } = await getDb()
      .insertInto('coupons')
      .values({
        code: values.code,
        discount: values.discount ?? 0.1,
        valid_from: values.validFrom ?? '2026-01-01T00:00:00Z',
        valid_until: values.validUntil ?? null,
        max_redemptions: values.maxRedemptions ?? null,
        max_redemptions_per_user: values.maxPerUser ?? null,
        registered_before: values.registeredBefore ?? null,
        active: values.active ?? true,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  /** A booking of a fresh slot that redeemed the coupon. */
  async function redeem(
    couponId: number,
    userId: string,
    status: 'pending' | 'confirmed' | 'canceled' | 'expired',
    holdExpiresAt?: Date,
  ) {
    slotCounter += 1;
    const start = new Date(Date.parse('2026-04-01T00:00:00Z') + slotCounter * 3_600_000);
    const slotId = await insertSlot(getDb(), {
      branchId,
      start: start.toISOString(),
      end: new Date(start.getTime() + 3_600_000).toISOString(),
      localDate: '2026-04-01',
    });
    const bookingId = await insertBooking(getDb(), {
      slotId,
      status,
      userId,
      ...(holdExpiresAt ? { holdExpiresAt } : {}),
    });
    await getDb()
      .insertInto('coupon_redemptions')
      .values({ coupon_id: couponId, user_id: userId, booking_id: bookingId })
      .execute();
  }

  async function refusal(promise: Promise<unknown>): Promise<string> {
    const error = await promise.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).code;
  }

  beforeEach(async () => {
    await emptyAllTables(getDb());
    branchId = await createBranch(getDb());
  });

  it('finds a code whatever its case and surrounding spaces', async () => {
    const id = await createCoupon({ code: 'WELCOME5', discount: 0.05 });
    const user = await createUser(getDb());
    expect(await coupons().findUsableCoupon(user, ' welcome5 ')).toEqual({
      id,
      discount: 0.05,
      remaining_uses: null,
    });
  });

  it('answers invalid_coupon (404) for an unknown code', async () => {
    const user = await createUser(getDb());
    const error = await coupons()
      .findUsableCoupon(user, 'NOPE')
      .catch((caught: AppError) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(404);
    expect((error as AppError).body('en').detail).toBe('Invalid coupon code.');
    expect((error as AppError).body('pt').detail).toBe('Código de cupão inválido.');
  });

  it('honours the validity window: not before valid_from, not from valid_until on', async () => {
    await createCoupon({ code: 'LATER', validFrom: '2026-03-20T10:00:01Z' });
    await createCoupon({ code: 'ENDED', validUntil: '2026-03-20T10:00:00Z' });
    await createCoupon({ code: 'ENDING', validUntil: '2026-03-20T10:00:01Z' });
    await createCoupon({ code: 'OFF', active: false });
    const user = await createUser(getDb());
    expect(await refusal(coupons().findUsableCoupon(user, 'LATER'))).toBe('invalid_coupon');
    expect(await refusal(coupons().findUsableCoupon(user, 'ENDED'))).toBe('invalid_coupon');
    expect(await refusal(coupons().findUsableCoupon(user, 'OFF'))).toBe('invalid_coupon');
    await expect(coupons().findUsableCoupon(user, 'ENDING')).resolves.toMatchObject({ discount: 0.1 });
  });

  it('is only for accounts registered before registered_before', async () => {
    await createCoupon({ code: 'EARLYBIRD', maxPerUser: 3, registeredBefore: '2026-03-01T00:00:00Z' });
    const early = await createUser(getDb(), { createdAt: new Date('2026-02-28T23:59:59Z') });
    const onTheDay = await createUser(getDb(), { createdAt: new Date('2026-03-01T00:00:00Z') });
    await expect(coupons().findUsableCoupon(early, 'earlybird')).resolves.toMatchObject({ discount: 0.1 });
    expect(await refusal(coupons().findUsableCoupon(onTheDay, 'earlybird'))).toBe('invalid_coupon');
  });

  it('stops at the per-user cap, counting confirmed bookings and unexpired holds only', async () => {
    const id = await createCoupon({ code: 'EARLYBIRD', maxPerUser: 3 });
    const user = await createUser(getDb());
    const other = await createUser(getDb());
    await redeem(id, user, 'confirmed');
    await redeem(id, user, 'pending', new Date('2026-03-20T10:30:00Z'));
    // Neither a cancelled booking, an expired one, nor a stale hold uses up the coupon.
    await redeem(id, user, 'canceled');
    await redeem(id, user, 'expired');
    await redeem(id, user, 'pending', new Date('2026-03-20T10:00:00Z'));
    // Two live uses of three: the answer says one slot is left, so the client prices like the server.
    await expect(coupons().findUsableCoupon(user, 'EARLYBIRD')).resolves.toEqual({
      id,
      discount: 0.1,
      remaining_uses: 1,
    });
    await redeem(id, user, 'confirmed');
    expect(await refusal(coupons().findUsableCoupon(user, 'EARLYBIRD'))).toBe('invalid_coupon');
    await expect(coupons().findUsableCoupon(other, 'EARLYBIRD')).resolves.toEqual({
      id,
      discount: 0.1,
      remaining_uses: 3,
    });
  });

  it('stops at the total cap, whoever redeemed it', async () => {
    const id = await createCoupon({ code: 'FIRST2', maxRedemptions: 2 });
    const [a, b, c] = [await createUser(getDb()), await createUser(getDb()), await createUser(getDb())];
    await redeem(id, a, 'confirmed');
    await expect(coupons().findUsableCoupon(c, 'FIRST2')).resolves.toEqual({
      id,
      discount: 0.1,
      remaining_uses: 1,
    });
    await redeem(id, b, 'confirmed');
    expect(await refusal(coupons().findUsableCoupon(c, 'FIRST2'))).toBe('invalid_coupon');
  });

  it('refuses a deleted account a registered-before coupon', async () => {
    await createCoupon({ code: 'EARLYBIRD', registeredBefore: '2026-03-01T00:00:00Z' });
    const user = await createUser(getDb(), { createdAt: new Date('2026-02-01T00:00:00Z') });
    await getDb().updateTable('users').set({ deleted_at: new Date() }).where('id', '=', user).execute();
    expect(await refusal(coupons().findUsableCoupon(user, 'EARLYBIRD'))).toBe('invalid_coupon');
  });
});
