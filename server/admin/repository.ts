import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { BookingStatus, BranchesTable, CouponsTable } from '../db/schema.ts';

// SQL of the back office. `db` may be a transaction.

export async function updateBranch(
  db: Db,
  branchId: number,
  patch: Updateable<BranchesTable>,
): Promise<void> {
  if (Object.keys(patch).length === 0) return;
  await db.updateTable('branches').set(patch).where('id', '=', branchId).execute();
}

export async function replaceBranchImages(db: Db, branchId: number, urls: readonly string[]): Promise<void> {
  await db.deleteFrom('branch_images').where('branch_id', '=', branchId).execute();
  await db
    .insertInto('branch_images')
    .values(urls.map((url, position) => ({ branch_id: branchId, position, url })))
    .execute();
}

export async function insertPriceRule(
  db: Db,
  rule: {
    branchId: number;
    isoWeekday: number;
    startsAtMinute: number;
    endsAtMinute: number;
    priceCents: number;
  },
): Promise<number> {
  const { id } = await db
    .insertInto('price_rules')
    .values({
      branch_id: rule.branchId,
      iso_weekday: rule.isoWeekday,
      starts_at_minute: rule.startsAtMinute,
      ends_at_minute: rule.endsAtMinute,
      price_cents: rule.priceCents,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Deletes a price rule; answers its branch, or undefined when there was none. */
export async function deletePriceRule(db: Db, ruleId: number): Promise<number | undefined> {
  const row = await db
    .deleteFrom('price_rules')
    .where('id', '=', ruleId)
    .returning('branch_id')
    .executeTakeFirst();
  return row?.branch_id;
}

export async function listCoupons(db: Db) {
  return db.selectFrom('coupons').selectAll().orderBy('code').execute();
}

export async function insertCoupon(db: Db, coupon: Insertable<CouponsTable>): Promise<number> {
  const { id } = await db.insertInto('coupons').values(coupon).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function findCouponByCodeInsensitive(db: Db, code: string) {
  return db
    .selectFrom('coupons')
    .selectAll()
    .where(sql<string>`lower(code)`, '=', code.toLowerCase())
    .executeTakeFirst();
}

export async function updateCoupon(db: Db, couponId: number, patch: Updateable<CouponsTable>): Promise<void> {
  if (Object.keys(patch).length === 0) return;
  await db.updateTable('coupons').set(patch).where('id', '=', couponId).execute();
}

export async function insertBlockedContact(
  db: Db,
  contact: { kind: 'email' | 'phone'; value: string; reason: string | null },
): Promise<boolean> {
  const inserted = await db
    .insertInto('blocked_contacts')
    .values(contact)
    .onConflict((conflict) => conflict.columns(['kind', 'value']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function deleteBlockedContact(
  db: Db,
  contact: { kind: 'email' | 'phone'; value: string },
): Promise<boolean> {
  const result = await db
    .deleteFrom('blocked_contacts')
    .where('kind', '=', contact.kind)
    .where('value', '=', contact.value)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listBlockedContacts(db: Db) {
  return db
    .selectFrom('blocked_contacts')
    .select(['kind', 'value', 'reason', 'created_at'])
    .orderBy('kind')
    .orderBy('value')
    .execute();
}

export type BookingFilter = {
  branchId?: number;
  status?: BookingStatus;
  from?: Date;
  until?: Date;
  email?: string;
  limit: number;
};

export async function listBookings(db: Db, filter: BookingFilter) {
  let query = db
    .selectFrom('bookings as booking')
    .innerJoin('branches as branch', 'branch.id', 'booking.branch_id')
    .leftJoin('users as user', 'user.id', 'booking.user_id')
    .leftJoin('coupons as coupon', 'coupon.id', 'booking.coupon_id')
    .select([
      'booking.id',
      'booking.status',
      'booking.start_time',
      'booking.end_time',
      'booking.final_price_cents',
      'booking.paid_at',
      'booking.canceled_at',
      'booking.checkout_session_id',
      'branch.name as branch_name',
      'branch.time_zone',
      'user.email',
      'coupon.code as coupon_code',
    ])
    .orderBy('booking.start_time', 'desc')
    .orderBy('booking.id', 'desc')
    .limit(filter.limit);
  if (filter.branchId !== undefined) query = query.where('booking.branch_id', '=', filter.branchId);
  if (filter.status !== undefined) query = query.where('booking.status', '=', filter.status);
  if (filter.from !== undefined) query = query.where('booking.start_time', '>=', filter.from);
  if (filter.until !== undefined) query = query.where('booking.start_time', '<', filter.until);
  if (filter.email !== undefined) query = query.where('user.email', '=', filter.email.toLowerCase());
  return query.execute();
}

export type PaymentFilter = {
  paymentStatus?: 'paid' | 'unpaid' | 'no_payment_required';
  from?: Date;
  until?: Date;
  limit: number;
};

/** Checkout sessions, newest first, with what was refunded of their bookings. */
export async function listPayments(db: Db, filter: PaymentFilter) {
  let query = db
    .selectFrom('checkout_sessions as session')
    .leftJoin('users as user', 'user.id', 'session.user_id')
    .select((eb) => [
      'session.id',
      'session.provider',
      'session.status',
      'session.payment_status',
      'session.amount_cents',
      'session.payment_intent_id',
      'session.created_at',
      'session.completed_at',
      'user.email',
      eb
        .selectFrom('refunds')
        .innerJoin('bookings', 'bookings.id', 'refunds.booking_id')
        .whereRef('bookings.checkout_session_id', '=', 'session.id')
        .select(sql<number>`coalesce(sum(refunds.amount_cents), 0)::int`.as('refunded'))
        .as('refunded_cents'),
    ])
    .orderBy('session.created_at', 'desc')
    .orderBy('session.id')
    .limit(filter.limit);
  if (filter.paymentStatus !== undefined)
    query = query.where('session.payment_status', '=', filter.paymentStatus);
  if (filter.from !== undefined) query = query.where('session.created_at', '>=', filter.from);
  if (filter.until !== undefined) query = query.where('session.created_at', '<', filter.until);
  return query.execute();
}
