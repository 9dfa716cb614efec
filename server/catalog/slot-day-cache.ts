import type { DaySlots } from './repository.ts';
import type { ChangeFeed } from '../db/change-feed.ts';

// The slot listing's rows kept per branch and day until they change (issue 33, "Speed at scale";
// docs/decisions.md, "the slot listing's answers kept until they change"). The listing is the busiest read of the
// product and its rows change seldom, so each process keeps the rows of the days members ask for and reads the
// database again only when:
// - the database says the branch changed (a notice on `slot_days`, sent by its own triggers in the transaction
//   that makes the change: migration 0025); this process's own changes are heard before the request that made
//   them answers, another process's as soon as they commit;
// - a notice may have been missed (a connection of the pool went away: all is forgotten);
// - the first hold counted as taken expires (the rows would read otherwise with nothing written);
// - the rows are older than `maxAgeMs`, in case a notice is lost in a way nobody can tell (a route silently
//   dropped between this process and the database while nothing else asks it anything).
// Whether a slot has started is worked out at each request from the clock, as before; the rows alone are kept.
// Rows read while nobody listens are not kept, nor rows whose read a notice for their branch overtook.

export type SlotDayCacheOptions = {
  changes: ChangeFeed;
  /** The longest rows are kept, whatever the notices say. */
  maxAgeMs: number;
  /** Past this many days kept, all are forgotten (an attacker asking for every date costs a read each, no more). */
  maxEntries?: number;
  /** Monotonic milliseconds, for the age. */
  monotonicNow?: () => number;
};

type Entry = {
  day: DaySlots;
  branchId: number;
  /** The instant the rows were read for (the clock's, epoch ms): they stand from it until `validUntilMs`. */
  readForMs: number;
  validUntilMs: number;
  keptAt: number;
};

export type SlotDayCache = {
  /** The rows of `date` at `branchId` as of `nowMs`: kept ones while they stand, else `read()`'s. */
  read(
    branchId: number,
    date: string,
    nowMs: number,
    read: () => Promise<DaySlots | null>,
  ): Promise<DaySlots | null>;
};

export function createSlotDayCache({
  changes,
  maxAgeMs,
  maxEntries = 4096,
  monotonicNow = () => performance.now(),
}: SlotDayCacheOptions): SlotDayCache {
  const entries = new Map<string, Entry>();
  // Raised by every notice that may concern a read in flight: such a read is answered but not kept.
  let everything = 0;
  const byBranch = new Map<number, number>();

  changes.subscribe({
    onNotice(payload) {
      const branchId = Number(payload);
      if (payload === '' || !Number.isSafeInteger(branchId)) {
        everything += 1;
        entries.clear();
        return;
      }
      byBranch.set(branchId, (byBranch.get(branchId) ?? 0) + 1);
      for (const [key, entry] of entries) if (entry.branchId === branchId) entries.delete(key);
    },
    onLoss() {
      everything += 1;
      entries.clear();
    },
  });

  return {
    async read(branchId, date, nowMs, read) {
      const key = `${branchId}/${date}`;
      const kept = entries.get(key);
      if (kept) {
        if (kept.readForMs <= nowMs && nowMs < kept.validUntilMs && monotonicNow() - kept.keptAt < maxAgeMs) {
          return kept.day;
        }
        entries.delete(key);
      }
      if (maxAgeMs <= 0 || !changes.listening()) return read();
      const generation = everything;
      const branchGeneration = byBranch.get(branchId) ?? 0;
      const day = await read();
      const overtaken =
        generation !== everything ||
        branchGeneration !== (byBranch.get(branchId) ?? 0) ||
        !changes.listening();
      if (day !== null && !overtaken) {
        if (entries.size >= maxEntries) entries.clear();
        entries.set(key, {
          day,
          branchId,
          readForMs: nowMs,
          validUntilMs: day.next_hold_expiry_ms ?? Number.POSITIVE_INFINITY,
          keptAt: monotonicNow(),
        });
      }
      return day;
    },
  };
}
