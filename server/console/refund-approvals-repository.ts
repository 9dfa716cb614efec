import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { LocaleCode, RefundApprovalsTable, RefundApprovalStatus } from '../db/schema.ts';

// The SQL of refunds above the staff ceiling (issue 32, item 2): the requests, their owners' decisions, and whom
// to tell (docs/decisions.md, 'Issue 32 — refunds above the staff ceiling').

export type RefundApprovalRow = Selectable<RefundApprovalsTable>;

/** A request with what the console shows of its booking: branch, times, member, its state now. */
export type RefundApprovalListRow = RefundApprovalRow & {
  booking_status: 'pending' | 'confirmed' | 'canceled' | 'expired';
  hold_expires_at: Date | null;
  start_time: Date;
  end_time: Date;
  branch_id: number;
  branch_name: string;
  time_zone: string;
  member_email: string | null;
};

function withBooking(db: Db) {
  return db
    .selectFrom('refund_approvals as approval')
    .innerJoin('bookings as booking', 'booking.id', 'approval.booking_id')
    .innerJoin('branches as branch', 'branch.id', 'booking.branch_id')
    .leftJoin('users as user', 'user.id', 'booking.user_id')
    .selectAll('approval')
    .select([
      'booking.status as booking_status',
      'booking.hold_expires_at',
      'booking.start_time',
      'booking.end_time',
      'booking.branch_id',
      'branch.name as branch_name',
      'branch.time_zone',
      'user.email as member_email',
    ]);
}

export async function insertRefundApproval(
  trx: Db,
  values: Insertable<RefundApprovalsTable>,
): Promise<number> {
  const row = await trx
    .insertInto('refund_approvals')
    .values(values)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The booking's request waiting for an owner, if any. */
export async function findPendingOfBooking(db: Db, bookingId: number): Promise<{ id: number } | undefined> {
  return db
    .selectFrom('refund_approvals')
    .select('id')
    .where('booking_id', '=', bookingId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
}

/** The request, its row locked until the transaction ends: one decision at a time (SELECT ... FOR UPDATE). */
export async function lockRefundApproval(trx: Db, id: number): Promise<RefundApprovalRow | undefined> {
  return trx.selectFrom('refund_approvals').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function decideRefundApproval(
  trx: Db,
  id: number,
  decision: {
    status: Exclude<RefundApprovalStatus, 'pending'>;
    at: Date;
    by: number | null;
    byEmail: string;
    reason: string | null;
    refundedCents: number | null;
  },
): Promise<void> {
  await trx
    .updateTable('refund_approvals')
    .set({
      status: decision.status,
      decided_at: decision.at,
      decided_by: decision.by,
      decided_by_email: decision.byEmail,
      decision_reason: decision.reason,
      refunded_cents: decision.refundedCents,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

export async function findRefundApproval(db: Db, id: number): Promise<RefundApprovalListRow | undefined> {
  return withBooking(db).where('approval.id', '=', id).executeTakeFirst();
}

/** The booking's latest request (pending or decided), if any. */
export async function latestOfBooking(db: Db, bookingId: number): Promise<RefundApprovalListRow | undefined> {
  return withBooking(db)
    .where('approval.booking_id', '=', bookingId)
    .orderBy('approval.requested_at', 'desc')
    .orderBy('approval.id', 'desc')
    .executeTakeFirst();
}

/**
 * The requests waiting for an owner (oldest first: the first asked is the first answered), and the latest `limit`
 * decided ones (newest first); only those `requestedBy` asked for when given (a staff member's own).
 */
export async function listRefundApprovals(
  db: Db,
  filter: { requestedBy?: number; limit: number },
): Promise<{ pending: RefundApprovalListRow[]; decided: RefundApprovalListRow[] }> {
  let query = withBooking(db);
  if (filter.requestedBy !== undefined) query = query.where('approval.requested_by', '=', filter.requestedBy);
  const [pending, decided] = await Promise.all([
    query
      .where('approval.status', '=', 'pending')
      .orderBy('approval.requested_at')
      .orderBy('approval.id')
      .execute(),
    query
      .where('approval.status', '<>', 'pending')
      .orderBy('approval.decided_at', 'desc')
      .orderBy('approval.id', 'desc')
      .limit(filter.limit)
      .execute(),
  ]);
  return { pending, decided };
}

/** The owners who can decide, each in their console language. */
export async function liveOwners(db: Db): Promise<{ id: number; email: string; locale: LocaleCode }[]> {
  return db
    .selectFrom('operators')
    .select(['id', 'email', 'locale'])
    .where('role', '=', 'owner')
    .where('removed_at', 'is', null)
    .orderBy('id')
    .execute();
}
