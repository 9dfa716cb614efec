import type { LockProvider } from '../adapters/locks/provider.ts';
import { branchOfVirtualDoor } from '../adapters/locks/local.ts';
import { DEFAULT_LOCALE, translate, type Locale } from '../kernel/i18n.ts';
import { dateFromInstant, type Clock } from '../kernel/clock.ts';
import type { Db } from '../db/database.ts';
import { inTransaction } from '../kernel/transactions.ts';
import type { LockDoorState } from '../db/schema.ts';
import * as doors from './doors-repository.ts';

// What the back office sees and changes about doors: which devices a branch has, each door's state and its
// codes by state, and each booking's code with one state for all its doors.

/**
 * Replaces the branch's doors. Live codes are asked onto the new doors and deleted from the doors taken away;
 * the server's door sweep (every minute) programs and deletes them.
 */
export async function mapBranchDoors(
  db: Db,
  clock: Clock,
  branchId: number,
  deviceIds: readonly string[],
): Promise<boolean> {
  const now = dateFromInstant(clock.now());
  const unique = [...new Set(deviceIds)];
  return inTransaction(db, async (trx) => {
    if (!(await doors.setBranchDoors(trx, branchId, unique))) return false;
    const live = await doors.listLiveCodesOfBranch(trx, branchId, now);
    for (const lockCodeId of live) await doors.ensureDoorRows(trx, lockCodeId, unique);
    await doors.retireDoors(trx, live, unique, now);
    return true;
  });
}

const STATE_ORDER: readonly LockDoorState[] = [
  'failed',
  'pending',
  'programming',
  'revoking',
  'set',
  'revoked',
];

/** One state for a code on all its doors: the least advanced one (a failure first), so trouble shows. */
export function summarizeDoorStates(states: readonly (LockDoorState | null)[]): LockDoorState | null {
  const known = states.filter((state): state is LockDoorState => state !== null);
  if (known.length === 0) return null;
  return STATE_ORDER.find((state) => known.includes(state)) ?? null;
}

export async function doorStatesOfBookings(
  db: Db,
  bookingIds: readonly number[],
): Promise<Map<number, { code: string; state: LockDoorState | null }>> {
  const rows = await doors.listDoorStatesOfBookings(db, bookingIds);
  const grouped = new Map<number, { code: string; states: (LockDoorState | null)[] }>();
  for (const row of rows) {
    const entry = grouped.get(row.booking_id) ?? { code: row.code, states: [] };
    entry.states.push(row.state);
    grouped.set(row.booking_id, entry);
  }
  return new Map(
    [...grouped].map(([id, entry]) => [id, { code: entry.code, state: summarizeDoorStates(entry.states) }]),
  );
}

/**
 * Where each code stands on its doors, summarised as for a booking: `revoked` once revoked, else its doors' least
 * advanced state (null before any door was asked). A guest's code is read this way (issue 31).
 */
export async function doorStatesOfCodes(
  db: Db,
  lockCodeIds: readonly number[],
): Promise<Map<number, LockDoorState | null>> {
  const grouped = new Map<number, { revoked: boolean; states: (LockDoorState | null)[] }>();
  for (const row of await doors.listDoorStatesOfCodes(db, lockCodeIds)) {
    const entry = grouped.get(row.id) ?? { revoked: row.revoked_at !== null, states: [] };
    entry.states.push(row.state);
    grouped.set(row.id, entry);
  }
  return new Map(
    [...grouped].map(([id, entry]) => [id, entry.revoked ? 'revoked' : summarizeDoorStates(entry.states)]),
  );
}

export type DoorStatus = {
  branch_id: number;
  branch: string;
  device_id: string;
  name: string | null;
  online: boolean | null;
  battery_level: number | null;
  last_event: string | null;
  codes: Partial<Record<LockDoorState, number>>;
  /** The provider could not be asked: online and battery are the last recorded. */
  provider_error: string | null;
};

const virtualDoorName = /*i18n*/ { id: 'door.virtualName', message: 'Porta virtual de {branch}' };

/**
 * Each door of each branch (or of one): online state and battery (from the provider, else as last recorded).
 * A virtual door is named in the reader's language after its branch; a real door keeps the provider's name.
 */
export async function lockStatus(
  db: Db,
  provider: LockProvider,
  branchId?: number,
  locale: Locale = DEFAULT_LOCALE,
): Promise<DoorStatus[]> {
  const branches = await doors.listBranchDoorSources(db, branchId);
  const result: DoorStatus[] = [];
  for (const branch of branches) {
    const deviceIds = provider.doorsOf(branch);
    let live: Awaited<ReturnType<LockProvider['listDevices']>> = [];
    let providerError: string | null = null;
    try {
      live = await provider.listDevices(deviceIds);
    } catch (error) {
      providerError = error instanceof Error ? error.message : String(error);
    }
    const recorded = await doors.listDevicesRecorded(db, deviceIds);
    const counts = await doors.countDoorStates(db, deviceIds);
    for (const deviceId of deviceIds) {
      const device = live.find((row) => row.deviceId === deviceId);
      const kept = recorded.find((row) => row.device_id === deviceId);
      result.push({
        branch_id: branch.id,
        branch: branch.name,
        device_id: deviceId,
        name:
          branchOfVirtualDoor(deviceId) === null
            ? (device?.name ?? null)
            : translate(locale, virtualDoorName, { branch: branch.name }),
        online: device ? device.online : (kept?.online ?? null),
        battery_level: device?.batteryLevel ?? kept?.battery_level ?? null,
        last_event: kept?.last_event_type ?? null,
        codes: Object.fromEntries(
          counts.filter((row) => row.device_id === deviceId).map((row) => [row.state, row.count]),
        ),
        provider_error: providerError,
      });
    }
  }
  return result;
}
