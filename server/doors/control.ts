import type { LockProvider } from '../adapters/locks/provider.ts';
import type { Db } from '../db/database.ts';
import type { LockDoorState } from '../db/schema.ts';
import { AppError } from '../kernel/errors.ts';
import type { Locale } from '../kernel/i18n.ts';
import * as control from './control-repository.ts';
import type { components } from '../../openapi/schema.gen.ts';
import { lockStatus } from './status.ts';

// The door page of a branch (issue 32, item 1): each door's online state, battery and codes by state, a feed of
// what its doors did (entries with their booking, offline/online, low battery, tampering, codes a door refused,
// remote openings by operators), and the period's no-shows and overstays.

const FEED_LENGTH = 50;

/** A feed item as the contract has it (`DoorFeedItem`), its moment still an instant (the console writes it local). */
export type DoorFeedItem = Omit<components['schemas']['DoorFeedItem'], 'at'> & { at: Date };
type DoorFeedKind = DoorFeedItem['kind'];

const DEVICE_KINDS: Record<string, DoorFeedKind> = {
  'device.disconnected': 'offline',
  'device.connected': 'online',
  'device.low_battery': 'low_battery',
  'device.tampered': 'tampered',
  'access_code.failed_to_set_on_device': 'code_failed',
};

export type BranchDoorPage = {
  branch: { id: number; name: string; time_zone: string };
  on_call: { email: string | null; phone: string | null };
  doors: {
    device_id: string;
    name: string | null;
    online: boolean | null;
    battery_level: number | null;
    provider_error: string | null;
    codes: Record<LockDoorState, number>;
  }[];
  feed: DoorFeedItem[];
  no_shows: Attendance[];
  overstays: Attendance[];
};

type Attendance = {
  booking_id: number;
  start_time: Date;
  end_time: Date;
  at: Date;
  checked_in_at: Date | null;
  member: string | null;
};

const EMPTY_COUNTS: Record<LockDoorState, number> = {
  pending: 0,
  programming: 0,
  set: 0,
  failed: 0,
  revoking: 0,
  revoked: 0,
};

export async function branchDoorPage(
  db: Db,
  provider: LockProvider,
  query: { branchId: number; from: Date; to: Date },
  locale: Locale,
): Promise<BranchDoorPage> {
  const branch = await control.findOnCall(db, query.branchId);
  if (!branch) throw new AppError('branch_not_found');
  const doors = await lockStatus(db, provider, branch.id, locale);
  const deviceIds = doors.map((door) => door.device_id);
  const [events, failed, unlocks, noShows, overstays] = await Promise.all([
    control.listEventsOfDoors(db, deviceIds, FEED_LENGTH),
    control.listFailedCodesOfDoors(db, deviceIds, FEED_LENGTH),
    control.listUnlocksOfBranch(db, branch.id, FEED_LENGTH),
    control.listAttendanceExceptions(db, branch.id, 'no_show', query.from, query.to),
    control.listAttendanceExceptions(db, branch.id, 'overstay', query.from, query.to),
  ]);
  const none = { booking_id: null, operator: null, reason: null, outcome: null, error: null };
  const feed: DoorFeedItem[] = [
    ...events.flatMap((event): DoorFeedItem[] => {
      const kind =
        event.event_type === 'lock.unlocked'
          ? event.booking_id === null
            ? 'opened'
            : 'entry'
          : DEVICE_KINDS[event.event_type];
      if (!kind || event.device_id === null) return [];
      return [
        { ...none, at: event.occurred_at, kind, device_id: event.device_id, booking_id: event.booking_id },
      ];
    }),
    ...failed.map((row): DoorFeedItem => ({
      ...none,
      at: row.updated_at,
      kind: 'code_failed',
      device_id: row.device_id,
      booking_id: row.booking_id === null ? null : Number(row.booking_id),
      error: row.error,
    })),
    ...unlocks.map((row): DoorFeedItem => ({
      ...none,
      at: row.requested_at,
      kind: 'remote_unlock',
      device_id: row.device_id,
      operator: row.operator_email,
      reason: row.reason,
      outcome: row.outcome,
      error: row.error,
    })),
  ]
    .sort((a, b) => b.at.getTime() - a.at.getTime())
    .slice(0, FEED_LENGTH);
  const attendance = (rows: typeof noShows): Attendance[] =>
    rows.map((row) => ({
      booking_id: row.id,
      start_time: row.start_time,
      end_time: row.end_time,
      at: row.at,
      checked_in_at: row.checked_in_at,
      member: [row.first_name, row.last_name].filter(Boolean).join(' ').trim() || (row.email ?? null) || null,
    }));
  return {
    branch: { id: branch.id, name: branch.name, time_zone: branch.time_zone },
    on_call: { email: branch.on_call_email, phone: branch.on_call_phone },
    doors: doors.map((door) => ({
      device_id: door.device_id,
      name: door.name,
      online: door.online,
      battery_level: door.battery_level,
      provider_error: door.provider_error,
      codes: { ...EMPTY_COUNTS, ...door.codes },
    })),
    feed,
    no_shows: attendance(noShows),
    overstays: attendance(overstays),
  };
}

export { findOnCall, setOnCall } from './control-repository.ts';
