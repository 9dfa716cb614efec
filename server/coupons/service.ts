import type { Temporal } from 'temporal-polyfill';
import { dateFromInstant, type Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { AppError } from '../errors.ts';
import * as repository from './repository.ts';

export type CouponView = { id: number; discount: number; remaining_uses: number | null };

/** A coupon this user may use now; `remainingUses` null means no cap limits it. */
export type UsableCoupon = Omit<CouponView, 'remaining_uses'> & {
  code: string;
  remainingUses: number | null;
};

/** Codes are compared case-insensitively: they are stored upper-cased. */
export function normaliseCouponCode(code: string): string {
  return code.trim().toUpperCase();
}

function capLeft(cap: number | null, used: number): number | null {
  return cap === null ? null : Math.max(0, cap - used);
}

function smaller(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}

/**
 * Whether `coupon` is usable by the user at `now`, and for how many more slots: active, inside its validity
 * window [valid_from, valid_until), the account made before `registered_before`, and both caps not reached.
 * Caps count the live redemptions (see countLiveRedemptions), one per booked slot.
 */
export async function evaluateCoupon(
  db: Db,
  coupon: repository.CouponRow,
  userId: string,
  now: Temporal.Instant,
): Promise<UsableCoupon | null> {
  const at = dateFromInstant(now);
  if (!coupon.active) return null;
  if (coupon.valid_from > at) return null;
  if (coupon.valid_until !== null && coupon.valid_until <= at) return null;
  if (coupon.registered_before !== null) {
    const createdAt = await repository.findUserCreatedAt(db, userId);
    if (!createdAt || createdAt >= coupon.registered_before) return null;
  }
  const totalLeft =
    coupon.max_redemptions === null
      ? null
      : capLeft(coupon.max_redemptions, await repository.countLiveRedemptions(db, coupon.id, at));
  const userLeft =
    coupon.max_redemptions_per_user === null
      ? null
      : capLeft(
          coupon.max_redemptions_per_user,
          await repository.countLiveRedemptions(db, coupon.id, at, userId),
        );
  const remainingUses = smaller(totalLeft, userLeft);
  if (remainingUses === 0) return null;
  return { id: coupon.id, code: coupon.code, discount: Number(coupon.discount), remainingUses };
}

/**
 * For a booking transaction: locks the coupon (so concurrent bookings count its caps one after another) and
 * answers what this user may still get from it, or refuses with `invalid_coupon`.
 */
export async function lockUsableCoupon(
  trx: Db,
  couponId: number,
  userId: string,
  now: Temporal.Instant,
): Promise<UsableCoupon> {
  const coupon = await repository.lockCoupon(trx, couponId);
  const usable = coupon ? await evaluateCoupon(trx, coupon, userId, now) : null;
  if (!usable) throw new AppError('invalid_coupon');
  return usable;
}

export function createCouponService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    /** `GET /bookings/coupon-code/{code}`: the coupon the user may apply now, else 404 `invalid_coupon`. */
    async findUsableCoupon(userId: string, code: string): Promise<CouponView> {
      const normalised = normaliseCouponCode(code);
      const coupon = normalised === '' ? undefined : await repository.findCouponByCode(db, normalised);
      const usable = coupon ? await evaluateCoupon(db, coupon, userId, clock.now()) : null;
      if (!usable) throw new AppError('invalid_coupon');
      return { id: usable.id, discount: usable.discount, remaining_uses: usable.remainingUses };
    },
  };
}

export type CouponService = ReturnType<typeof createCouponService>;
