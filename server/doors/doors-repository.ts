import { sql, type ExpressionBuilder, type Selectable } from 'kysely';
import { bookingsWithBranch, setWhereStillNull } from '../kernel/queries.ts';
import type { Db } from '../db/database.ts';
import type { Database, LockCodeDoorsTable, LockDoorState } from '../db/schema.ts';

// SQL of the doors: each code's state on each door, door and device events, entries, no-shows and overstays.
// Every state change is a compare-and-set on the row, so a provider answer that arrives after the row moved on
// (a cancellation while the code was being programmed) changes nothing.

export type DoorRow = Selectable<LockCodeDoorsTable>;
export type DoorKey = { lockCodeId: number; deviceId: string };

/** The row of one code on one door. */
function isDoor(key: DoorKey) {
  return (eb: ExpressionBuilder<Database, 'lock_code_doors'>) =>
    eb.and({ lock_code_id: key.lockCodeId, device_id: key.deviceId });
}

export async function findBranchDoors(
  db: Db,
  branchId: number,
): Promise<{ id: number; lockDeviceIds: string[] } | undefined> {
  const row = await db
    .selectFrom('branches')
    .select(['id', 'lock_device_ids'])
    .where('id', '=', branchId)
    .executeTakeFirst();
  return row ? { id: row.id, lockDeviceIds: row.lock_device_ids } : undefined;
}

export async function setBranchDoors(
  db: Db,
  branchId: number,
  deviceIds: readonly string[],
): Promise<boolean> {
  const result = await db
    .updateTable('branches')
    .set({ lock_device_ids: [...deviceIds] })
    .where('id', '=', branchId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Branches whose doors include the device. */
export async function findBranchesOfDevice(db: Db, deviceId: string): Promise<number[]> {
  const rows = await db
    .selectFrom('branches')
    .select('id')
    .where(sql<boolean>`lock_device_ids @> array[${deviceId}]::text[]`)
    .execute();
  return rows.map((row) => row.id);
}

export async function listBranchDoorSources(
  db: Db,
  branchId?: number,
): Promise<{ id: number; name: string; lockDeviceIds: string[] }[]> {
  let query = db.selectFrom('branches').select(['id', 'name', 'lock_device_ids']).orderBy('id');
  if (branchId !== undefined) query = query.where('id', '=', branchId);
  const rows = await query.execute();
  return rows.map((row) => ({ id: row.id, name: row.name, lockDeviceIds: row.lock_device_ids }));
}

/** Adds a `pending` row for each door the code is not on yet. */
export async function ensureDoorRows(
  db: Db,
  lockCodeId: number,
  deviceIds: readonly string[],
): Promise<void> {
  if (deviceIds.length === 0) return;
  await db
    .insertInto('lock_code_doors')
    .values(deviceIds.map((deviceId) => ({ lock_code_id: lockCodeId, device_id: deviceId })))
    .onConflict((conflict) => conflict.columns(['lock_code_id', 'device_id']).doNothing())
    .execute();
}

/** Doors that hold another window than the code's go back to `pending`, to be programmed again. */
export async function requeueChangedWindows(
  db: Db,
  lockCodeId: number,
  window: { validFrom: Date; validUntil: Date },
  now: Date,
): Promise<void> {
  await db
    .updateTable('lock_code_doors')
    .set({ state: 'pending', error: null, updated_at: now })
    .where('lock_code_id', '=', lockCodeId)
    .where('state', 'in', ['programming', 'set', 'failed'])
    .where((eb) =>
      eb.or([
        eb('programmed_from', 'is', null),
        eb('programmed_from', '<>', window.validFrom),
        eb('programmed_until', '<>', window.validUntil),
      ]),
    )
    .execute();
}

/**
 * The code's bookings are all cancelled: a door never asked to program it is done at once; every other door
 * must delete it (`revoking`), including one whose programming may still be in flight.
 */
export async function markDoorsRevoking(db: Db, lockCodeId: number, now: Date): Promise<void> {
  await retireDoors(db, [lockCodeId], [], now);
}

export async function listDoors(db: Db, lockCodeId: number): Promise<DoorRow[]> {
  return db
    .selectFrom('lock_code_doors')
    .selectAll()
    .where('lock_code_id', '=', lockCodeId)
    .orderBy('device_id')
    .execute();
}

/** Moves a door from `expected` (and, when given, the window it was asked for) to the new values. */
export async function compareAndSetDoor(
  db: Db,
  key: DoorKey,
  expected: { state: LockDoorState; programmedFrom?: Date | null },
  next: {
    state?: LockDoorState;
    error?: string | null;
    programmedFrom?: Date | null;
    programmedUntil?: Date | null;
    lastEventAt?: Date;
  },
  now: Date,
): Promise<boolean> {
  let query = db
    .updateTable('lock_code_doors')
    .set({
      ...(next.state ? { state: next.state } : {}),
      ...(next.error !== undefined ? { error: next.error } : {}),
      ...(next.programmedFrom !== undefined ? { programmed_from: next.programmedFrom } : {}),
      ...(next.programmedUntil !== undefined ? { programmed_until: next.programmedUntil } : {}),
      ...(next.lastEventAt ? { last_event_at: next.lastEventAt } : {}),
      updated_at: now,
    })
    .where(isDoor(key))
    .where('state', '=', expected.state);
  if (expected.programmedFrom !== undefined) {
    query =
      expected.programmedFrom === null
        ? query.where('programmed_from', 'is', null)
        : query.where('programmed_from', '=', expected.programmedFrom);
  }
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Kept whatever the row's state: a code that exists on the door must never be forgotten. */
export async function setProviderCodeId(db: Db, key: DoorKey, providerCodeId: string | null): Promise<void> {
  await db
    .updateTable('lock_code_doors')
    .set({ provider_code_id: providerCodeId })
    .where(isDoor(key))
    .execute();
}

export async function setBackupCode(
  db: Db,
  key: DoorKey,
  backup: { code: string; providerCodeId: string },
): Promise<void> {
  await db
    .updateTable('lock_code_doors')
    .set({ backup_code: backup.code, backup_provider_code_id: backup.providerCodeId })
    .where(isDoor(key))
    .execute();
}

/** The door row a provider code id belongs to (the code itself or its backup). */
export async function findDoorByProviderCode(db: Db, providerCodeId: string): Promise<DoorRow | undefined> {
  return db
    .selectFrom('lock_code_doors')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('provider_code_id', '=', providerCodeId),
        eb('backup_provider_code_id', '=', providerCodeId),
      ]),
    )
    .executeTakeFirst();
}

/** Records an event once: false when it was already recorded (a repeated webhook, the catch-up reading it again). */
export async function insertLockEvent(
  db: Db,
  event: {
    providerEventId: string;
    eventType: string;
    deviceId: string | null;
    providerCodeId: string | null;
    lockCodeId: number | null;
    bookingId: number | null;
    occurredAt: Date;
  },
): Promise<boolean> {
  const row = await db
    .insertInto('lock_events')
    .values({
      provider_event_id: event.providerEventId,
      event_type: event.eventType,
      device_id: event.deviceId,
      provider_code_id: event.providerCodeId,
      lock_code_id: event.lockCodeId,
      booking_id: event.bookingId,
      occurred_at: event.occurredAt,
    })
    .onConflict((conflict) => conflict.column('provider_event_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function setEventBooking(db: Db, providerEventId: string, bookingId: number): Promise<void> {
  await db
    .updateTable('lock_events')
    .set({ booking_id: bookingId })
    .where('provider_event_id', '=', providerEventId)
    .execute();
}

export type EntryBookingRow = {
  id: number;
  start_time: Date;
  end_time: Date;
  checked_in_at: Date | null;
  overstay_at: Date | null;
};

export async function listConfirmedBookingsOfCodeForEntry(
  db: Db,
  lockCodeId: number,
): Promise<EntryBookingRow[]> {
  return db
    .selectFrom('bookings')
    .select(['id', 'start_time', 'end_time', 'checked_in_at', 'overstay_at'])
    .where('lock_code_id', '=', lockCodeId)
    .where('status', '=', 'confirmed')
    .orderBy('start_time')
    .execute();
}

/**
 * A guest's opening with their own code (issue 31): their first entry, when the code is a live guest's and `at` is
 * inside their confirmed booking's window. Answers the booking, or null when the code is no guest's.
 */
export async function setGuestEntered(
  db: Db,
  lockCodeId: number,
  at: Date,
  marginMinutes: number,
): Promise<number | null> {
  const margin = sql`make_interval(mins => ${marginMinutes})`;
  const guest = await db
    .selectFrom('booking_guests as guest')
    .innerJoin('bookings as booking', 'booking.id', 'guest.booking_id')
    .select(['guest.id', 'guest.entered_at', 'booking.id as booking_id'])
    .where('guest.lock_code_id', '=', lockCodeId)
    .where('guest.removed_at', 'is', null)
    .where('booking.status', '=', 'confirmed')
    .where(sql<boolean>`booking.start_time - ${margin} <= ${at}`)
    .where(sql<boolean>`booking.end_time + ${margin} > ${at}`)
    .executeTakeFirst();
  if (!guest) return null;
  await db
    .updateTable('booking_guests')
    .set({ entered_at: at })
    .where('id', '=', guest.id)
    .where((eb) => eb.or([eb('entered_at', 'is', null), eb('entered_at', '>', at)]))
    .execute();
  return guest.booking_id;
}

/** The first entry only. */
export async function setCheckedIn(db: Db, bookingId: number, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('bookings')
    .set({ checked_in_at: at })
    .where('id', '=', bookingId)
    .where((eb) => eb.or([eb('checked_in_at', 'is', null), eb('checked_in_at', '>', at)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function setOverstay(db: Db, bookingId: number, at: Date): Promise<boolean> {
  return (await setWhereStillNull(db, 'bookings', { id: bookingId }, 'overstay_at', at)) > 0;
}

/** A booking at the branch whose code window covers `at` (then the opening is no overstay). */
export async function hasBookingCovering(
  db: Db,
  branchId: number,
  at: Date,
  margin: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('bookings')
    .select('id')
    .where('branch_id', '=', branchId)
    .where('status', '=', 'confirmed')
    .where(sql<boolean>`start_time - ${margin}::interval <= ${at}`)
    .where(sql<boolean>`end_time + ${margin}::interval > ${at}`)
    .executeTakeFirst();
  return row !== undefined;
}

/** The booking at the branch that ended most recently before `at` (within `lookBack`) and was entered. */
export async function findLastEnteredBookingBefore(
  db: Db,
  branchId: number,
  at: Date,
  lookBack: string,
): Promise<{ id: number; end_time: Date } | undefined> {
  return db
    .selectFrom('bookings')
    .select(['id', 'end_time'])
    .where('branch_id', '=', branchId)
    .where('status', '=', 'confirmed')
    .where('checked_in_at', 'is not', null)
    .where('end_time', '<=', at)
    .where(sql<boolean>`end_time > ${at}::timestamptz - ${lookBack}::interval`)
    .orderBy('end_time', 'desc')
    .executeTakeFirst();
}

/**
 * Confirmed bookings past start + `grace` with no entry, neither theirs nor an earlier one sharing their code
 * (a run of back-to-back bookings is entered once), become no-shows.
 */
export async function markNoShows(
  db: Db,
  now: Date,
  grace: string,
): Promise<{ id: number; branch_id: number }[]> {
  return db
    .updateTable('bookings as booking')
    .set({ no_show_at: now })
    .where('booking.status', '=', 'confirmed')
    .where('booking.no_show_at', 'is', null)
    .where('booking.checked_in_at', 'is', null)
    .where(sql<boolean>`booking.start_time + ${grace}::interval <= ${now}`)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('bookings as earlier')
            .select('earlier.id')
            .whereRef('earlier.lock_code_id', '=', 'booking.lock_code_id')
            .where('earlier.status', '=', 'confirmed')
            .where('earlier.checked_in_at', 'is not', null)
            .whereRef('earlier.start_time', '<=', 'booking.start_time'),
        ),
      ),
    )
    .returning(['booking.id', 'booking.branch_id'])
    .execute();
}

/** Codes with a door still to program, confirm or delete, whose window has not ended. */
export async function listUnsettledCodes(db: Db, now: Date): Promise<number[]> {
  const rows = await db
    .selectFrom('lock_code_doors as door')
    .innerJoin('lock_codes as code', 'code.id', 'door.lock_code_id')
    .select('door.lock_code_id')
    .distinct()
    .where('door.state', 'in', ['pending', 'programming', 'revoking'])
    .where((eb) => eb.or([eb('door.state', '=', 'revoking'), eb('code.valid_until', '>', now)]))
    .execute();
  return rows.map((row) => row.lock_code_id);
}

export async function upsertDevice(
  db: Db,
  device: { deviceId: string; online?: boolean | null; batteryLevel?: number | null; eventType: string },
  now: Date,
): Promise<void> {
  await db
    .insertInto('lock_devices')
    .values({
      device_id: device.deviceId,
      online: device.online ?? null,
      battery_level: device.batteryLevel ?? null,
      last_event_type: device.eventType,
      updated_at: now,
    })
    .onConflict((conflict) =>
      conflict.column('device_id').doUpdateSet({
        ...(device.online !== undefined ? { online: device.online } : {}),
        ...(device.batteryLevel !== undefined && device.batteryLevel !== null
          ? { battery_level: device.batteryLevel }
          : {}),
        last_event_type: device.eventType,
        updated_at: now,
      }),
    )
    .execute();
}

export async function listDevicesRecorded(db: Db, deviceIds: readonly string[]) {
  if (deviceIds.length === 0) return [];
  return db
    .selectFrom('lock_devices')
    .selectAll()
    .where('device_id', 'in', [...deviceIds])
    .execute();
}

/** Codes counted by state on each of these doors. */
export async function countDoorStates(
  db: Db,
  deviceIds: readonly string[],
): Promise<{ device_id: string; state: LockDoorState; count: number }[]> {
  if (deviceIds.length === 0) return [];
  const rows = await db
    .selectFrom('lock_code_doors')
    .select(['device_id', 'state', (eb) => eb.fn.countAll<string>().as('count')])
    .where('device_id', 'in', [...deviceIds])
    .groupBy(['device_id', 'state'])
    .execute();
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

export async function findBookingForDoors(db: Db, bookingId: number) {
  return bookingsWithBranch(db)
    .select([
      'booking.id',
      'booking.status',
      'booking.lock_code_id',
      'booking.start_time',
      'booking.end_time',
      'booking.branch_id',
      'branch.name as branch_name',
    ])
    .where('booking.id', '=', bookingId)
    .executeTakeFirst();
}

/** Codes of the branch that still open the door or will. */
export async function listLiveCodesOfBranch(db: Db, branchId: number, now: Date): Promise<number[]> {
  const rows = await db
    .selectFrom('lock_codes')
    .select('id')
    .where('branch_id', '=', branchId)
    .where('revoked_at', 'is', null)
    .where('valid_until', '>', now)
    .execute();
  return rows.map((row) => row.id);
}

/** Doors taken off the branch: the codes they hold are deleted from them (never-programmed rows are done). */
export async function retireDoors(
  db: Db,
  lockCodeIds: readonly number[],
  keptDeviceIds: readonly string[],
  now: Date,
): Promise<void> {
  if (lockCodeIds.length === 0) return;
  let query = db
    .updateTable('lock_code_doors')
    .set({ state: 'revoked', updated_at: now })
    .where('lock_code_id', 'in', [...lockCodeIds])
    .where('state', 'in', ['pending', 'failed'])
    .where('provider_code_id', 'is', null);
  if (keptDeviceIds.length > 0) query = query.where('device_id', 'not in', [...keptDeviceIds]);
  await query.execute();
  let revoking = db
    .updateTable('lock_code_doors')
    .set({ state: 'revoking', updated_at: now })
    .where('lock_code_id', 'in', [...lockCodeIds])
    .where('state', 'not in', ['revoked', 'revoking']);
  if (keptDeviceIds.length > 0) revoking = revoking.where('device_id', 'not in', [...keptDeviceIds]);
  await revoking.execute();
}

/** The states of each booking's code on its doors. */
/** Each code's revocation and its doors' states (null for a code no door was asked for yet). */
export async function listDoorStatesOfCodes(
  db: Db,
  lockCodeIds: readonly number[],
): Promise<{ id: number; revoked_at: Date | null; state: LockDoorState | null }[]> {
  if (lockCodeIds.length === 0) return [];
  return db
    .selectFrom('lock_codes as code')
    .leftJoin('lock_code_doors as door', 'door.lock_code_id', 'code.id')
    .select(['code.id', 'code.revoked_at', 'door.state'])
    .where('code.id', 'in', [...lockCodeIds])
    .execute();
}

export async function listDoorStatesOfBookings(
  db: Db,
  bookingIds: readonly number[],
): Promise<{ booking_id: number; code: string; state: LockDoorState | null }[]> {
  if (bookingIds.length === 0) return [];
  return db
    .selectFrom('bookings as booking')
    .innerJoin('lock_codes as code', 'code.id', 'booking.lock_code_id')
    .leftJoin('lock_code_doors as door', 'door.lock_code_id', 'code.id')
    .select(['booking.id as booking_id', 'code.code', 'door.state'])
    .where('booking.id', 'in', [...bookingIds])
    .execute();
}
