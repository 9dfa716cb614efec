import type { FastifyBaseLogger } from 'fastify';
import { Temporal } from 'temporal-polyfill';
import {
  DEVICE_ALERT_EVENTS,
  LockProviderError,
  type DoorCodeRequest,
  type DoorCodeStatus,
  type DoorEvent,
  type LockProvider,
} from '../adapters/locks/provider.ts';
import { branchOfVirtualDoor, virtualDoorOf } from '../adapters/locks/local.ts';
import { dateFromInstant, instantFromDate, type Clock } from '../kernel/clock.ts';
import { runTransaction } from '../kernel/transactions.ts';
import { endStalledUnlocks } from './use-cases/unlock-door.ts';
import type { Db } from '../db/database.ts';
import type { LockDoorState } from '../db/schema.ts';
import { readSetting, writeSetting } from '../catalog/index.ts';
import type { OperatorAlerts } from './alerts.ts';
import * as doors from './doors-repository.ts';
import * as codes from './repository.ts';
import { hasRemoteOpeningAround } from './control-repository.ts';
import { fitStrayLockCodes, LOCK_CODE_MARGIN } from './service.ts';
import { findOpeningVirtualCodes, listVirtualCodes } from '../adapters/locks/virtual-door-repository.ts';

// The life of a code on each door: pending → programming → set → revoking → revoked, or failed with the
// provider's error. The confirming or cancelling transaction only writes the wish (a `pending` or `revoking`
// row) and queues a sync of the code; the sync calls the provider outside any transaction, records what the
// door answered with a compare-and-set, and fails (so the durable queue retries it with backoff) while a door is
// still programming, still deleting, or the provider is unreachable. Webhooks and the periodic event catch-up
// move rows too, each event once, never backwards in time.

/** No entry by start + 20 minutes: a no-show. An opening after end + 15 minutes: an overstay. */
export const NO_SHOW_GRACE = '20 minutes';
export const OVERSTAY_MARGIN = '15 minutes';
/** How far back an opening without a code is matched to the last session at the branch. */
const OVERSTAY_LOOK_BACK = '4 hours';
/** How far apart a remote opening and the door's report of it may be. */
const REMOTE_OPENING_WINDOW = '2 minutes';
/** The catch-up reads events again from a little before the newest it saw (ids keep them once). */
const CATCH_UP_OVERLAP = Temporal.Duration.from({ minutes: 10 });
const EVENTS_CURSOR = 'locks.events_cursor';
/** How long a just-issued code may take to be confirmed before the message falls back to a backup code. */
const PROGRAMMING_PATIENCE_MS = 2 * 60_000;

/** Queues the sync of codes, in the caller's transaction. */
export type LockSyncScheduler = { schedule(trx: Db, lockCodeIds: readonly number[]): Promise<void> };

/** Thrown by a sync that must run again later (a door still programming or deleting): the queue retries it. */
export class DoorsNotSettledError extends Error {
  constructor(lockCodeId: number, unsettled: readonly string[]) {
    super(`lock code ${lockCodeId}: doors not settled yet (${unsettled.join(', ')})`);
    this.name = 'DoorsNotSettledError';
  }
}

export type DoorEventOutcome = 'duplicate' | 'recorded' | 'ignored';

/** What the door-code message may say: the confirmed code, a backup code, or the code with the help line. */
export type MessageReadiness =
  { kind: 'confirmed' | 'backup' | 'unconfirmed'; code: string } | { kind: 'none' };

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 300);
}

function codeName(lockCodeId: number): string {
  return `booking-code-${lockCodeId}`;
}

export function createDoorService(deps: {
  db: Db;
  clock: Clock;
  provider: LockProvider;
  alerts: OperatorAlerts;
  log: FastifyBaseLogger;
  sync: () => LockSyncScheduler | null;
}) {
  const { db, provider, log } = deps;
  const now = () => dateFromInstant(deps.clock.now());

  /** Ends the programming of a door for `programmedFrom`, unless another round has taken the door over since. */
  async function settleProgramming(
    key: doors.DoorKey,
    programmedFrom: Date | null,
    next: { state: 'set' | 'failed' | 'pending'; error?: string | null },
  ): Promise<void> {
    await doors.compareAndSetDoor(db, key, { state: 'programming', programmedFrom }, next, now());
  }

  /** A door being programmed for `programmedFrom` goes back to pending: the next round programs it again. */
  async function backToPending(key: doors.DoorKey, programmedFrom: Date | null): Promise<void> {
    await settleProgramming(key, programmedFrom, { state: 'pending' });
  }

  /** A door that lost the code (or never kept it): forget its id there, and program it on the next round. */
  async function programAfresh(key: doors.DoorKey, programmedFrom: Date | null): Promise<void> {
    await doors.setProviderCodeId(db, key, null);
    await backToPending(key, programmedFrom);
  }

  /** One door of a live code: program it, or read back what the door did with it. */
  async function programDoor(code: codes.LockCodeRow, door: doors.DoorRow): Promise<void> {
    const key = { lockCodeId: code.id, deviceId: door.device_id };
    const request: DoorCodeRequest = {
      deviceId: door.device_id,
      name: codeName(code.id),
      code: code.code,
      startsAt: code.valid_from,
      endsAt: code.valid_until,
    };
    const state: LockDoorState = door.state;
    if (state === 'pending') {
      const moved = await doors.compareAndSetDoor(
        db,
        key,
        { state: 'pending' },
        {
          state: 'programming',
          programmedFrom: code.valid_from,
          programmedUntil: code.valid_until,
          error: null,
        },
        now(),
      );
      if (!moved) return;
      let status: DoorCodeStatus;
      try {
        status = door.provider_code_id
          ? await provider.updateCode(door.provider_code_id, request)
          : await createOrAdopt(request);
      } catch (error) {
        await recordFailure(key, code.valid_from, error);
        return;
      }
      if (status.state === 'removed') {
        // The door lost the code we meant to move: create it afresh on the next round.
        await programAfresh(key, code.valid_from);
        return;
      }
      await doors.setProviderCodeId(db, key, status.providerCodeId);
      await applyStatus(key, code.valid_from, status);
      return;
    }
    if (state === 'programming' && door.provider_code_id) {
      const status = await provider.readCode(door.provider_code_id);
      if (status.state === 'removed') {
        await programAfresh(key, door.programmed_from);
        return;
      }
      await applyStatus(key, door.programmed_from, status);
      return;
    }
    if (state === 'programming') {
      // Programming was cut off before the provider answered: start again (a create that did land is adopted).
      await backToPending(key, door.programmed_from);
    }
  }

  async function createOrAdopt(request: DoorCodeRequest): Promise<DoorCodeStatus> {
    try {
      return await provider.createCode(request);
    } catch (error) {
      // A create whose answer was lost, then repeated, finds its own code already on the door.
      if (error instanceof LockProviderError && !error.retryable && /duplicate/.test(error.message)) {
        const own = await provider.findCode(request.deviceId, request.code);
        if (own) return own;
      }
      throw error;
    }
  }

  async function applyStatus(key: doors.DoorKey, programmedFrom: Date | null, status: DoorCodeStatus) {
    if (status.state === 'set') {
      await settleProgramming(key, programmedFrom, { state: 'set', error: null });
    } else if (status.state === 'failed') {
      await settleProgramming(key, programmedFrom, { state: 'failed', error: status.error });
    }
  }

  /** A refusal fails the door with the provider's words; an outage is thrown back for the queue to retry. */
  async function recordFailure(key: doors.DoorKey, programmedFrom: Date, error: unknown): Promise<void> {
    if (error instanceof LockProviderError && !error.retryable) {
      await settleProgramming(key, programmedFrom, { state: 'failed', error: error.message });
      return;
    }
    // Back to pending so the retry programs it again (a create that did land is adopted then).
    await backToPending(key, programmedFrom);
    throw error;
  }

  async function revokeDoor(code: codes.LockCodeRow, door: doors.DoorRow): Promise<void> {
    const key = { lockCodeId: code.id, deviceId: door.device_id };
    let providerCodeId = door.provider_code_id;
    // A create may have landed without its answer: look for it by its digits before calling the door clean.
    providerCodeId ??= (await provider.findCode(door.device_id, code.code))?.providerCodeId ?? null;
    if (providerCodeId) {
      await provider.deleteCode(providerCodeId);
      const after = await provider.readCode(providerCodeId);
      if (after.state !== 'removed') return;
    }
    await doors.compareAndSetDoor(db, key, { state: 'revoking' }, { state: 'revoked', error: null }, now());
  }

  /**
   * Brings every door of the code to what its bookings want. Throws while a door is not settled (the queue
   * retries with backoff) or the provider is unreachable.
   */
  async function syncCode(lockCodeId: number): Promise<'settled'> {
    const code = await codes.findLockCode(db, lockCodeId);
    if (!code) return 'settled';
    let outage: Error | null = null;
    for (const door of await doors.listDoors(db, lockCodeId)) {
      try {
        if (door.state === 'revoking') await revokeDoor(code, door);
        else if (code.revoked_at === null) await programDoor(code, door);
      } catch (error) {
        outage ??= error instanceof Error ? error : new Error('the lock provider failed', { cause: error });
      }
    }
    if (outage) throw outage;
    // A second look: a door that answered `setting` is read back on the next round.
    const unsettled = (await doors.listDoors(db, lockCodeId)).filter((door) =>
      ['pending', 'programming', 'revoking'].includes(door.state),
    );
    if (unsettled.length > 0) {
      throw new DoorsNotSettledError(
        lockCodeId,
        unsettled.map((door) => `${door.device_id}:${door.state}`),
      );
    }
    return 'settled';
  }

  async function branchNameOf(trx: Db, deviceId: string): Promise<{ id: number; name: string } | null> {
    const virtual = branchOfVirtualDoor(deviceId);
    const ids = virtual !== null ? [virtual] : await doors.findBranchesOfDevice(trx, deviceId);
    if (ids.length === 0) return null;
    const [branch] = await doors.listBranchDoorSources(trx, ids[0]);
    return branch ? { id: branch.id, name: branch.name } : null;
  }

  /** An opening: the first entry of the booking whose window holds it, or an overstay after the last one. */
  async function recordOpening(trx: Db, event: DoorEvent, lockCodeId: number | null): Promise<void> {
    const at = event.occurredAt;
    const margin = Temporal.Duration.from({ minutes: 15 });
    if (lockCodeId !== null) {
      const bookings = await doors.listConfirmedBookingsOfCodeForEntry(trx, lockCodeId);
      const inside = bookings.find(
        (booking) =>
          dateFromInstant(instantFromDate(booking.start_time).subtract(margin)) <= at &&
          at < dateFromInstant(instantFromDate(booking.end_time).add(margin)),
      );
      if (inside) {
        await doors.setCheckedIn(trx, inside.id, at);
        await doors.setEventBooking(trx, event.eventId, inside.id);
        return;
      }
      // A guest's own code: the guest's entry (the member sees it on the booking's guests).
      const guestBooking = await doors.setGuestEntered(trx, lockCodeId, at, margin.total('minutes'));
      if (guestBooking !== null) {
        await doors.setEventBooking(trx, event.eventId, guestBooking);
        return;
      }
      const ended = bookings
        .filter((booking) => dateFromInstant(instantFromDate(booking.end_time).add(margin)) <= at)
        .at(-1);
      if (ended) {
        await doors.setOverstay(trx, ended.id, at);
        await doors.setEventBooking(trx, event.eventId, ended.id);
        log.warn({ bookingId: ended.id }, 'door opened after the end of the session: overstay');
      }
      return;
    }
    if (!event.deviceId) return;
    // Opened from inside (or by hand): an overstay when the last session at the branch ended over 15 minutes ago.
    const branch = await branchNameOf(trx, event.deviceId);
    if (!branch) return;
    if (await doors.hasBookingCovering(trx, branch.id, at, OVERSTAY_MARGIN)) return;
    // An operator's remote opening ('Open now') is nobody's exit.
    if (await hasRemoteOpeningAround(trx, event.deviceId, at, REMOTE_OPENING_WINDOW)) return;
    const last = await doors.findLastEnteredBookingBefore(trx, branch.id, at, OVERSTAY_LOOK_BACK);
    if (last && dateFromInstant(instantFromDate(last.end_time).add(margin)) <= at) {
      await doors.setOverstay(trx, last.id, at);
      await doors.setEventBooking(trx, event.eventId, last.id);
      log.warn({ bookingId: last.id }, 'door opened after the end of the session: overstay');
    }
  }

  /** One event from the webhook or the catch-up, applied once. */
  async function applyEvent(event: DoorEvent): Promise<DoorEventOutcome> {
    const current = now();
    let resync: number | null = null;
    const outcome = await runTransaction(
      db,
      { name: 'applyDoorEvent', log },
      async (trx): Promise<DoorEventOutcome> => {
        const door = event.providerCodeId
          ? await doors.findDoorByProviderCode(trx, event.providerCodeId)
          : undefined;
        const inserted = await doors.insertLockEvent(trx, {
          providerEventId: event.eventId,
          eventType: event.type,
          deviceId: event.deviceId,
          providerCodeId: event.providerCodeId,
          lockCodeId: door?.lock_code_id ?? null,
          bookingId: null,
          occurredAt: event.occurredAt,
        });
        if (!inserted) return 'duplicate';
        if (event.type === 'lock.unlocked') {
          await recordOpening(trx, event, door?.lock_code_id ?? null);
          return 'recorded';
        }
        if (event.type.startsWith('device.')) {
          await recordDeviceEvent(trx, event, current);
          return 'recorded';
        }
        if (!door || door.provider_code_id !== event.providerCodeId) return 'ignored';
        // An event older than the last one applied to this door tells nothing new.
        if (door.last_event_at && event.occurredAt < door.last_event_at) return 'ignored';
        const key = { lockCodeId: door.lock_code_id, deviceId: door.device_id };
        const stamp = { lastEventAt: event.occurredAt };
        switch (event.type) {
          case 'access_code.set':
            for (const from of ['programming', 'failed'] as const) {
              await doors.compareAndSetDoor(
                trx,
                key,
                { state: from },
                { state: 'set', error: null, ...stamp },
                current,
              );
            }
            return 'recorded';
          case 'access_code.failed_to_set_on_device':
            await doors.compareAndSetDoor(
              trx,
              key,
              { state: 'programming' },
              { state: 'failed', error: 'failed_to_set_on_device', ...stamp },
              current,
            );
            return 'recorded';
          case 'access_code.removed_from_device':
          case 'access_code.deleted':
            await doors.compareAndSetDoor(
              trx,
              key,
              { state: 'revoking' },
              { state: 'revoked', ...stamp },
              current,
            );
            // Gone from the door while its bookings still need it: programmed again.
            if (
              await doors.compareAndSetDoor(
                trx,
                key,
                { state: 'set' },
                { state: 'pending', ...stamp },
                current,
              )
            ) {
              await doors.setProviderCodeId(trx, key, null);
              resync = door.lock_code_id;
              await deps.sync()?.schedule(trx, [door.lock_code_id]);
            }
            return 'recorded';
          default:
            return 'ignored';
        }
      },
    );
    if (resync !== null)
      log.warn({ lockCodeId: resync }, 'a live code was removed from its door: programming it again');
    return outcome;
  }

  async function recordDeviceEvent(trx: Db, event: DoorEvent, current: Date): Promise<void> {
    if (!event.deviceId) return;
    const online =
      event.type === 'device.disconnected' ? false : event.type === 'device.connected' ? true : undefined;
    await doors.upsertDevice(
      trx,
      { deviceId: event.deviceId, online, batteryLevel: event.batteryLevel ?? null, eventType: event.type },
      current,
    );
    if ((DEVICE_ALERT_EVENTS as readonly string[]).includes(event.type)) {
      const branch = await branchNameOf(trx, event.deviceId);
      await deps.alerts.deviceEvent(
        trx,
        {
          eventId: event.eventId,
          deviceId: event.deviceId,
          branchId: branch?.id ?? null,
          branch: branch?.name ?? '?',
          eventType: event.type,
          at: event.occurredAt,
        },
        current,
      );
    }
  }

  /** Reads the provider's events since the last catch-up, so a missed webhook loses nothing. */
  async function catchUp(): Promise<number> {
    const stored = await readSetting(db, EVENTS_CURSOR);
    const cursor =
      typeof stored === 'string'
        ? new Date(stored)
        : dateFromInstant(deps.clock.now().subtract({ hours: 1 }));
    const since = dateFromInstant(instantFromDate(cursor).subtract(CATCH_UP_OVERLAP));
    const events = await provider.listEvents(since);
    let applied = 0;
    let newest = cursor;
    for (const event of events) {
      if ((await applyEvent(event)) !== 'duplicate') applied += 1;
      if (event.occurredAt > newest) newest = event.occurredAt;
    }
    await writeSetting(db, EVENTS_CURSOR, newest.toISOString());
    return applied;
  }

  /**
   * Before the door-code message (T-45, and again at T-30): a code not `set` on every door gets a backup code
   * from the door's pool; failing that, the operator is alerted (once per code). Answers what the message
   * may carry.
   */
  async function prepareForMessage(bookingId: number): Promise<MessageReadiness> {
    const booking = await doors.findBookingForDoors(db, bookingId);
    if (!booking || booking.status !== 'confirmed' || booking.lock_code_id === null) return { kind: 'none' };
    const code = await codes.findLockCode(db, booking.lock_code_id);
    if (!code || code.revoked_at !== null) return { kind: 'none' };
    let rows = await doors.listDoors(db, code.id);
    if (rows.length > 0 && rows.every((door) => door.state === 'set'))
      return { kind: 'confirmed', code: code.code };
    // Asked for a moment ago (a booking made at the last minute): give the doors time before falling back.
    const requested = code.programmed_at ?? code.created_at;
    const inFlight = rows.filter((door) => door.state === 'pending' || door.state === 'programming');
    if (inFlight.length > 0 && now().getTime() - requested.getTime() < PROGRAMMING_PATIENCE_MS) {
      throw new DoorsNotSettledError(
        code.id,
        inFlight.map((door) => `${door.device_id}:${door.state}`),
      );
    }
    for (const door of rows) {
      if (door.state === 'set' || door.backup_code || !door.provider_code_id) continue;
      try {
        const backup = await provider.pullBackupCode(door.provider_code_id);
        if (backup) await doors.setBackupCode(db, { lockCodeId: code.id, deviceId: door.device_id }, backup);
      } catch (error) {
        log.warn(
          { lockCodeId: code.id, deviceId: door.device_id, reason: describe(error) },
          'backup code could not be pulled',
        );
      }
    }
    rows = await doors.listDoors(db, code.id);
    // A backup code replaces the code only when it opens every door the member needs: a branch with one door.
    if (rows.length === 1 && rows[0]!.backup_code) return { kind: 'backup', code: rows[0]!.backup_code };
    const unconfirmed = rows.filter((door) => door.state !== 'set');
    const problem =
      rows.length === 0
        ? 'no door is mapped to the branch'
        : unconfirmed
            .map((door) => `${door.device_id} ${door.state}${door.error ? ` (${door.error})` : ''}`)
            .join('; ');
    const bookings = await doors.listConfirmedBookingsOfCodeForEntry(db, code.id);
    await runTransaction(db, { name: 'codeNotConfirmedAlert', log }, (trx) =>
      deps.alerts.codeNotConfirmed(
        trx,
        {
          lockCodeId: code.id,
          bookingIds: bookings.map((row) => row.id),
          branchId: booking.branch_id,
          branch: booking.branch_name,
          start: booking.start_time,
          doors: unconfirmed.map((door) => door.device_id),
          problem,
        },
        now(),
      ),
    );
    return { kind: 'unconfirmed', code: code.code };
  }

  return {
    now: () => deps.clock.now(),
    async branch(branchId: number): Promise<{ id: number; name: string } | null> {
      const [branch] = await doors.listBranchDoorSources(db, branchId);
      return branch ? { id: branch.id, name: branch.name } : null;
    },
    syncCode,
    prepareForMessage,
    applyEvent,
    catchUp,
    /**
     * Every minute: the catch-up, the no-shows, a new sync for codes whose queue retries ran out, and remote
     * openings a stop left unfinished.
     */
    async sweep(): Promise<{
      events: number;
      noShows: number;
      resynced: number;
      stray: number;
      interruptedUnlocks: number;
    }> {
      let events = 0;
      try {
        events = await catchUp();
      } catch (error) {
        log.warn(
          { reason: error instanceof Error ? error.message : String(error) },
          'door event catch-up failed; next round retries',
        );
      }
      const current = now();
      const noShows = await doors.markNoShows(db, current, NO_SHOW_GRACE);
      for (const booking of noShows)
        log.info(
          { bookingId: booking.id, branchId: booking.branch_id },
          'no entry by start + 20 minutes: no-show',
        );
      const scheduler = deps.sync();
      // A code none of whose bookings is live never stays on a door, whatever path forgot to release it.
      const stray = await fitStrayLockCodes(db, { lockProvider: provider, lockSync: scheduler }, current);
      if (stray.revoked.length > 0 || stray.refitted.length > 0)
        log.error(stray, 'live door codes did not fit their bookings: revoked or refitted by the sweep');
      const unsettled = await doors.listUnsettledCodes(db, current);
      if (scheduler && unsettled.length > 0) {
        await runTransaction(db, { name: 'resyncUnsettledCodes', log }, (trx) =>
          scheduler.schedule(trx, unsettled),
        );
      }
      return {
        events,
        noShows: noShows.length,
        resynced: unsettled.length,
        stray: stray.revoked.length + stray.refitted.length,
        interruptedUnlocks: await endStalledUnlocks({ db, clock: deps.clock, log }),
      };
    },
    /** The development keypad's view of the door's memory: the codes it accepts now or later. */
    async virtualDoorCodes(branchId: number) {
      if (provider.name !== 'local') return [];
      return listVirtualCodes(db, virtualDoorOf(branchId), now());
    },
    /**
     * The development keypad of a virtual door: opens only for a code the door holds whose window contains `at`
     * and that is still wished there for a live booking, and reports the opening as the door event Seam would send.
     */
    async enterVirtualDoor(branchId: number, code: string, at: Date): Promise<boolean> {
      if (provider.name !== 'local') return false;
      const deviceId = virtualDoorOf(branchId);
      const [match] = await findOpeningVirtualCodes(
        db,
        deviceId,
        code,
        at,
        LOCK_CODE_MARGIN.total('minutes'),
      );
      if (!match) return false;
      await applyEvent({
        eventId: `virtual-${match.provider_code_id}-${at.getTime()}`,
        type: 'lock.unlocked',
        deviceId,
        providerCodeId: match.provider_code_id,
        occurredAt: at,
      });
      return true;
    },
  };
}

export type DoorService = ReturnType<typeof createDoorService>;
