import type { components } from '../../../openapi/schema.gen.ts';
import type { Temporal } from 'temporal-polyfill';
import { dateFromInstant, type Clock } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError, type FieldProblem } from '../../kernel/errors.ts';
import * as repository from './repository.ts';

type Coupon = components['schemas']['Coupon'];
type OfferedCoupon = components['schemas']['OfferedCoupon'];

/** A coupon this user may use now; `remainingUses` null means no cap limits it. */
type UsableCoupon = Omit<Coupon, 'remaining_uses'> & {
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
async function evaluateCoupon(
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

/** What an operator sets on a coupon; caps and dates null mean no limit. */
export type CouponSettings = {
  discount: number;
  valid_from: Date;
  valid_until: Date | null;
  max_redemptions: number | null;
  max_redemptions_per_user: number | null;
  registered_before: Date | null;
  active: boolean;
};

/** The settings given (undefined: left as they are). */
export function givenSettings<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** A refused setting, named by its field of the contract so the console shows its sentence beside that field. */
export function invalidCoupon(problems: string, field: FieldProblem['field']): AppError {
  return new AppError('validation_failed', { problems }, { fields: [{ field, problem: 'invalid' }] });
}

/** The rules of a coupon's settings, on creation and on every change. */
export function checkCouponSettings(
  settings: Partial<CouponSettings> & Pick<CouponSettings, 'valid_from' | 'valid_until'>,
) {
  if (settings.discount !== undefined && !(settings.discount > 0 && settings.discount <= 1)) {
    throw invalidCoupon('discount is a fraction above 0 and at most 1 (0.10 is 10% off)', 'discount');
  }
  if (settings.valid_until && settings.valid_until <= settings.valid_from) {
    throw invalidCoupon('valid_until must be after valid_from', 'valid_until');
  }
}

/**
 * A coupon as operators see it, with its live uses (see countLiveRedemptions) at `now`: the console's answer, and
 * what the audit log keeps of a coupon before and after a change.
 */
export async function readAdminCoupon(
  db: Db,
  coupon: repository.CouponRow,
  now: Date,
): Promise<components['schemas']['AdminCoupon']> {
  return {
    code: coupon.code,
    discount: Number(coupon.discount),
    valid_from: coupon.valid_from.toISOString(),
    valid_until: coupon.valid_until?.toISOString() ?? null,
    max_uses: coupon.max_redemptions,
    max_uses_per_user: coupon.max_redemptions_per_user,
    registered_before: coupon.registered_before?.toISOString() ?? null,
    active: coupon.active,
    uses: await repository.countLiveRedemptions(db, coupon.id, now),
  };
}

export function createCouponService({
  db,
  clock,
  earlyBirdCouponCode = null,
}: {
  db: Db;
  clock: Clock;
  /** The coupon offered to every member it applies to without typing it (config `EARLY_BIRD_COUPON_CODE`). */
  earlyBirdCouponCode?: string | null;
}) {
  return {
    /**
     * The early-bird coupon while this member may use it now (registered before its date, uses left), with
     * the uses left; null otherwise. `trx` lets a registration's transaction ask about its new account.
     */
    async findOfferedCoupon(userId: string, trx: Db = db): Promise<OfferedCoupon | null> {
      if (!earlyBirdCouponCode) return null;
      const coupon = await repository.findCouponByCode(trx, normaliseCouponCode(earlyBirdCouponCode));
      const usable = coupon ? await evaluateCoupon(trx, coupon, userId, clock.now()) : null;
      if (!usable) return null;
      return {
        id: usable.id,
        code: usable.code,
        discount: usable.discount,
        remaining_uses: usable.remainingUses,
      };
    },

    async listCoupons(): Promise<repository.CouponRow[]> {
      return repository.listCoupons(db);
    },

    /** `GET /bookings/coupon-code/{code}`: the coupon the user may apply now, else 404 `invalid_coupon`. */
    async findUsableCoupon(userId: string, code: string): Promise<Coupon> {
      const normalised = normaliseCouponCode(code);
      const coupon = normalised === '' ? undefined : await repository.findCouponByCode(db, normalised);
      const usable = coupon ? await evaluateCoupon(db, coupon, userId, clock.now()) : null;
      if (!usable) throw new AppError('invalid_coupon');
      return { id: usable.id, discount: usable.discount, remaining_uses: usable.remainingUses };
    },
  };
}

export type CouponService = ReturnType<typeof createCouponService>;
