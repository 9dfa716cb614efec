import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { DoorUnlockOutcome, DoorUnlocksTable } from '../db/schema.ts';

// SQL of live door control (issue 32, item 1): remote openings, the door page's feed, its no-shows and
// overstays, and each branch's on-call contacts.

export type DoorUnlockRow = Selectable<DoorUnlocksTable>;

/** Starts an attempt; answers null when an attempt with this request id exists (a replay). */
export async function insertUnlockAttempt(
  db: Db,
  row: {
    requestId: string;
    branchId: number;
    deviceId: string;
    operatorId: number | null;
    operatorEmail: string;
    reason: string;
    at: Date;
  },
): Promise<number | null> {
  const inserted = await db
    .insertInto('door_unlocks')
    .values({
      request_id: row.requestId,
      branch_id: row.branchId,
      device_id: row.deviceId,
      operator_id: row.operatorId,
      operator_email: row.operatorEmail,
      reason: row.reason,
      requested_at: row.at,
    })
    .onConflict((conflict) => conflict.column('request_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id ?? null;
}

export async function findUnlockByRequest(db: Db, requestId: string): Promise<DoorUnlockRow | undefined> {
  return db.selectFrom('door_unlocks').selectAll().where('request_id', '=', requestId).executeTakeFirst();
}

/** Ends an attempt still opening; answers the row as it ends. */
export async function finishUnlockAttempt(
  db: Db,
  id: number,
  result: { outcome: Exclude<DoorUnlockOutcome, 'opening'>; error: string | null; at: Date },
): Promise<DoorUnlockRow | undefined> {
  return db
    .updateTable('door_unlocks')
    .set({ outcome: result.outcome, error: result.error, finished_at: result.at })
    .where('id', '=', id)
    .where('outcome', '=', 'opening')
    .returningAll()
    .executeTakeFirst();
}

/** Attempts still opening that were asked before `before`: their server stopped before the lock answered. */
export async function listStalledUnlocks(db: Db, before: Date): Promise<DoorUnlockRow[]> {
  return db
    .selectFrom('door_unlocks')
    .selectAll()
    .where('outcome', '=', 'opening')
    .where('requested_at', '<', before)
    .orderBy('id')
    .execute();
}

/** Whether an operator opened this door remotely around `at` (then the opening is no member's exit). */
export async function hasRemoteOpeningAround(
  db: Db,
  deviceId: string,
  at: Date,
  window: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('door_unlocks')
    .select('id')
    .where('device_id', '=', deviceId)
    .where('outcome', 'in', ['opening', 'opened'])
    .where(
      sql<boolean>`requested_at between ${at}::timestamptz - ${window}::interval and ${at}::timestamptz + ${window}::interval`,
    )
    .executeTakeFirst();
  return row !== undefined;
}

export async function listUnlocksOfBranch(db: Db, branchId: number, limit: number): Promise<DoorUnlockRow[]> {
  return db
    .selectFrom('door_unlocks')
    .selectAll()
    .where('branch_id', '=', branchId)
    .orderBy('requested_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The newest events of these doors (device events, openings, code events). */
export async function listEventsOfDoors(db: Db, deviceIds: readonly string[], limit: number) {
  if (deviceIds.length === 0) return [];
  return db
    .selectFrom('lock_events')
    .select(['id', 'event_type', 'device_id', 'booking_id', 'occurred_at'])
    .where('device_id', 'in', [...deviceIds])
    .orderBy('occurred_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Codes that a door of these refused to program, newest first. */
export async function listFailedCodesOfDoors(db: Db, deviceIds: readonly string[], limit: number) {
  if (deviceIds.length === 0) return [];
  return db
    .selectFrom('lock_code_doors as door')
    .leftJoin('bookings as booking', 'booking.lock_code_id', 'door.lock_code_id')
    .select(['door.device_id', 'door.error', 'door.updated_at', 'door.lock_code_id'])
    .select((eb) => eb.fn.min('booking.id').as('booking_id'))
    .where('door.device_id', 'in', [...deviceIds])
    .where('door.state', '=', 'failed')
    .groupBy(['door.device_id', 'door.error', 'door.updated_at', 'door.lock_code_id'])
    .orderBy('door.updated_at', 'desc')
    .limit(limit)
    .execute();
}

/** Bookings of the branch starting in [from, to) marked no-show, or with an overstay. */
export async function listAttendanceExceptions(
  db: Db,
  branchId: number,
  kind: 'no_show' | 'overstay',
  from: Date,
  to: Date,
) {
  const column = kind === 'no_show' ? 'booking.no_show_at' : 'booking.overstay_at';
  return db
    .selectFrom('bookings as booking')
    .leftJoin('users as member', 'member.id', 'booking.user_id')
    .select([
      'booking.id',
      'booking.start_time',
      'booking.end_time',
      'booking.checked_in_at',
      'member.first_name',
      'member.last_name',
      'member.email',
    ])
    .select(sql<Date>`${sql.ref(column)}`.as('at'))
    .where('booking.branch_id', '=', branchId)
    .where(sql.ref(column), 'is not', null)
    .where('booking.start_time', '>=', from)
    .where('booking.start_time', '<', to)
    .orderBy('booking.start_time', 'desc')
    .limit(200)
    .execute();
}

export async function findOnCall(db: Db, branchId: number) {
  return db
    .selectFrom('branches')
    .select(['id', 'name', 'time_zone', 'on_call_email', 'on_call_phone'])
    .where('id', '=', branchId)
    .executeTakeFirst();
}

export async function setOnCall(
  db: Db,
  branchId: number,
  contacts: { email: string | null; phone: string | null },
): Promise<boolean> {
  const result = await db
    .updateTable('branches')
    .set({ on_call_email: contacts.email, on_call_phone: contacts.phone })
    .where('id', '=', branchId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
