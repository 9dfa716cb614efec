import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import * as doors from './virtual-door-repository.ts';
import type { LockProvider } from './provider.ts';

// The offline default: one virtual door per branch, kept in the database. It accepts a code at once (a real
// lock takes seconds to minutes), answers read-backs and deletes like a lock, and opens from the development
// keypad (`POST /api/dev/doors/{branchId}/enter`), which reports the opening as the same door event Seam sends.

export const VIRTUAL_DOOR_PREFIX = 'virtual-door-';

export function virtualDoorOf(branchId: number): string {
  return `${VIRTUAL_DOOR_PREFIX}${branchId}`;
}

export function branchOfVirtualDoor(deviceId: string): number | null {
  if (!deviceId.startsWith(VIRTUAL_DOOR_PREFIX)) return null;
  const id = Number(deviceId.slice(VIRTUAL_DOOR_PREFIX.length));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function createLocalLockProvider(db: Db): LockProvider {
  return {
    name: 'local',
    doorsOf: (branch) => [virtualDoorOf(branch.id)],
    async createCode(request) {
      const existing = (await doors.findVirtualCodeByDigits(db, request.deviceId, request.code)).find(
        (row) => row.starts_at < request.endsAt && request.startsAt < row.ends_at,
      );
      if (existing) {
        return { providerCodeId: existing.provider_code_id, state: 'failed', error: 'duplicate_code' };
      }
      const providerCodeId = randomUUID();
      await doors.insertVirtualCode(db, { providerCodeId, ...request });
      return { providerCodeId, state: 'set', error: null };
    },
    async updateCode(providerCodeId, request) {
      const updated = await doors.updateVirtualCode(db, providerCodeId, request);
      return { providerCodeId, state: updated ? 'set' : 'removed', error: null };
    },
    async readCode(providerCodeId) {
      const row = await doors.findVirtualCode(db, providerCodeId);
      return { providerCodeId, state: row ? 'set' : 'removed', error: null };
    },
    async findCode(deviceId, code) {
      const [row] = await doors.findVirtualCodeByDigits(db, deviceId, code);
      return row ? { providerCodeId: row.provider_code_id, state: 'set', error: null } : null;
    },
    async deleteCode(providerCodeId) {
      await doors.deleteVirtualCode(db, providerCodeId);
    },
    // A virtual door has no backup pool.
    pullBackupCode: async () => null,
    // Its openings are reported as they happen (the keypad route), so there is nothing to catch up on.
    listEvents: async () => [],
    listDevices: async (deviceIds) =>
      deviceIds.map((deviceId) => ({
        deviceId,
        // Named in the reader's language where doors are listed (server/doors/status.ts lockStatus).
        name: deviceId,
        online: true,
        batteryLevel: null,
      })),
    // Always online; the opening is recorded by the door service as the virtual door's event.
    unlock: async () => {},
  };
}
