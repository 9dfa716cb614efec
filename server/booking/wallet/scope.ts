import { Temporal } from 'temporal-polyfill';
import type { CreditUnit } from '../../db/schema.ts';

// Which slots a lot of credit may pay, and how much of each (docs/decisions.md, "Prepaid packs and the credit
// wallet"): a lot covers a slot of one of its branches (all when it names none), on one of its weekdays and
// starting within its hours (by the branch's local time), that starts before the lot expires. The lots are
// tried earliest expiry first: an hours lot pays a slot whole (its duration in minutes) or not at all, a euros
// lot as much of what is left of the slot's price as it holds. Pure: the caller reads and locks the lots.

export type CreditLotScope = {
  branch_ids: readonly number[] | null;
  weekdays: readonly number[] | null;
  from_minute: number | null;
  to_minute: number | null;
};

export type SpendableLot = CreditLotScope & {
  id: number;
  unit: CreditUnit;
  remaining: number;
  expires_at: Date;
};

export type SlotToCover = {
  /** Where the slot is in the caller's list. */
  index: number;
  branchId: number;
  timeZone: string;
  start: Date;
  end: Date;
  /** What the slot costs after any coupon. */
  priceCents: number;
};

export type CreditSpend = { index: number; lotId: number; amount: number; valueCents: number };

/** The slot's local weekday (ISO) and start minute in its branch's zone. */
export function localStartOf(slot: Pick<SlotToCover, 'timeZone' | 'start'>): {
  weekday: number;
  minute: number;
} {
  const local = Temporal.Instant.fromEpochMilliseconds(slot.start.getTime()).toZonedDateTimeISO(
    slot.timeZone,
  );
  return { weekday: local.dayOfWeek, minute: local.hour * 60 + local.minute };
}

/** Whether the lot's branches, weekdays and hours take the slot (not its expiry nor its balance). */
export function scopeCovers(
  scope: CreditLotScope,
  slot: Pick<SlotToCover, 'branchId' | 'timeZone' | 'start'>,
) {
  if (scope.branch_ids !== null && !scope.branch_ids.includes(slot.branchId)) return false;
  const { weekday, minute } = localStartOf(slot);
  if (scope.weekdays !== null && !scope.weekdays.includes(weekday)) return false;
  if (scope.from_minute !== null && scope.to_minute !== null) {
    if (minute < scope.from_minute || minute >= scope.to_minute) return false;
  }
  return true;
}

/** The minutes a slot lasts (what an hours lot pays for it). */
export function slotMinutes(slot: Pick<SlotToCover, 'start' | 'end'>): number {
  return Math.round((slot.end.getTime() - slot.start.getTime()) / 60_000);
}

/**
 * What credit pays of each slot, slots in the order given (by start), lots earliest expiry first. Lots must be
 * the member's usable ones (unexpired now, something left); their balances are not changed.
 */
export function planCreditSpends(
  lots: readonly SpendableLot[],
  slots: readonly SlotToCover[],
): CreditSpend[] {
  const left = new Map(lots.map((lot) => [lot.id, lot.remaining]));
  const ordered = [...lots].sort((a, b) => a.expires_at.getTime() - b.expires_at.getTime() || a.id - b.id);
  const spends: CreditSpend[] = [];
  for (const slot of slots) {
    let due = slot.priceCents;
    for (const lot of ordered) {
      if (due <= 0) break;
      const remaining = left.get(lot.id)!;
      if (remaining <= 0 || slot.start >= lot.expires_at || !scopeCovers(lot, slot)) continue;
      if (lot.unit === 'minutes') {
        const minutes = slotMinutes(slot);
        // Hours pay a slot whole, never a part of one another lot began.
        if (due !== slot.priceCents || minutes <= 0 || remaining < minutes) continue;
        left.set(lot.id, remaining - minutes);
        spends.push({ index: slot.index, lotId: lot.id, amount: minutes, valueCents: due });
        due = 0;
      } else {
        const cents = Math.min(remaining, due);
        left.set(lot.id, remaining - cents);
        spends.push({ index: slot.index, lotId: lot.id, amount: cents, valueCents: cents });
        due -= cents;
      }
    }
  }
  return spends;
}

/** Each slot's credit, by its index. */
export function creditByIndex(spends: readonly CreditSpend[]): Map<number, number> {
  const byIndex = new Map<number, number>();
  for (const spend of spends) byIndex.set(spend.index, (byIndex.get(spend.index) ?? 0) + spend.valueCents);
  return byIndex;
}
