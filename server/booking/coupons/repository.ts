import type { Insertable, Selectable, Updateable } from 'kysely';
import { liveUsers } from '../../accounts/index.ts';
import type { Db } from '../../db/database.ts';
import type { CouponsTable } from '../../db/schema.ts';

// SQL for coupons and their redemptions. `db` may be a transaction.

export type CouponRow = Selectable<CouponsTable>;

export async function findCouponByCode(db: Db, code: string): Promise<CouponRow | undefined> {
  return db.selectFrom('coupons').selectAll().where('code', '=', code).executeTakeFirst();
}

/**
 * Reads a coupon and locks its row until the transaction ends, so concurrent bookings redeem it one after
 * another and its caps are counted exactly. NO KEY UPDATE, like the slots' lock: it does not block the foreign-key
 * checks of rows that name the coupon. With FOR UPDATE, a payment or a move rewriting a couponed booking waited
 * for a booking holding the coupon, while that booking waited for the rewritten row in the exclusion index.
 */
export async function lockCoupon(db: Db, couponId: number): Promise<CouponRow | undefined> {
  return db.selectFrom('coupons').selectAll().where('id', '=', couponId).forNoKeyUpdate().executeTakeFirst();
}

export async function findUserCreatedAt(db: Db, userId: string): Promise<Date | undefined> {
  const row = await liveUsers(db).select('created_at').where('id', '=', userId).executeTakeFirst();
  return row?.created_at;
}

/**
 * Redemptions that still count against a coupon's caps: those of confirmed bookings and of pending ones whose
 * hold has not expired at `now`. Cancelled and expired bookings give their use back.
 */
export async function countLiveRedemptions(
  db: Db,
  couponId: number,
  now: Date,
  userId?: string,
): Promise<number> {
  let query = db
    .selectFrom('coupon_redemptions as redemption')
    .innerJoin('bookings as booking', 'booking.id', 'redemption.booking_id')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('redemption.coupon_id', '=', couponId)
    .where((eb) =>
      eb.or([
        eb('booking.status', '=', 'confirmed'),
        eb.and([eb('booking.status', '=', 'pending'), eb('booking.hold_expires_at', '>', now)]),
      ]),
    );
  if (userId !== undefined) query = query.where('redemption.user_id', '=', userId);
  const { count } = await query.executeTakeFirstOrThrow();
  return Number(count);
}

export async function insertRedemptions(
  db: Db,
  redemptions: readonly { couponId: number; userId: string; bookingId: number }[],
): Promise<void> {
  if (redemptions.length === 0) return;
  await db
    .insertInto('coupon_redemptions')
    .values(redemptions.map((r) => ({ coupon_id: r.couponId, user_id: r.userId, booking_id: r.bookingId })))
    .execute();
}

export async function listCoupons(db: Db): Promise<CouponRow[]> {
  return db.selectFrom('coupons').selectAll().orderBy('code').execute();
}

export async function insertCoupon(db: Db, coupon: Insertable<CouponsTable>): Promise<number> {
  const { id } = await db.insertInto('coupons').values(coupon).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateCoupon(db: Db, couponId: number, patch: Updateable<CouponsTable>): Promise<void> {
  if (Object.keys(patch).length === 0) return;
  await db.updateTable('coupons').set(patch).where('id', '=', couponId).execute();
}
