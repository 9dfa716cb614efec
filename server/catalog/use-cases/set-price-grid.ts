import { Temporal } from 'temporal-polyfill';
import { recordAudit, type Actor } from '../../kernel/audit.ts';
import { dateFromInstant, instantFromDate, type Clock } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError, type FieldProblem } from '../../kernel/errors.ts';
import {
  bringDueGridsInForce,
  localToday,
  readPriceGrids,
  refreshCachedPriceRange,
  ruleOfBand,
  writeGridInForce,
} from '../price-grids.ts';
import * as repository from '../repository.ts';
import {
  gridOfGrids,
  gridOn,
  MINUTES_PER_DAY,
  slotPriceCents,
  type PriceGrid,
  type PriceRule,
} from '../schedule.ts';

// Setting a branch's price grid: the one way prices change, for the console (PUT /admin/branches/{id}/prices) and
// the CLI (`prices set`, `price-rule add|remove`, `branch update --price`) alike (docs/decisions.md, 'Prices that
// apply when saved'). In the caller's transaction it checks the grid, stores it (in force from today, or dated
// from a later day of the branch's calendar), re-prices the branch's slots from that day that have not started and
// that no live booking holds, refreshes the landing's price range and writes its audit row.

/** The contract's largest amount (Money), 100,000 €. */
export const MAX_PRICE_CENTS = 10_000_000;
/** The contract's longest list of bands. */
export const MAX_BANDS = 500;
/** How far ahead a dated grid may start. */
const MAX_YEARS_AHEAD = 10;

export type SetPriceGridInput = {
  actor: Actor;
  branchId: number;
  defaultPriceCents: number;
  /** Bands of one weekday each (1 = Monday), local minutes [startsAtMinute, endsAtMinute); none may overlap. */
  bands: readonly PriceRule[];
  /** The first day the grid prices, YYYY-MM-DD in the branch's calendar; absent or null: at once (today). */
  from?: string | null;
};

export type SetPriceGridResult = {
  /** The first day the grid prices. */
  from: string;
  /** Slots whose price changed. */
  repriced: number;
  /** Slots a live booking holds, which keep their price until they are free again. */
  kept: number;
};

export type SetPriceGridDependencies = { clock: Clock };

export const clockTime = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

export function refuse(problems: string, fields: FieldProblem[]): never {
  throw new AppError('validation_failed', { problems }, { fields });
}

export const isCents = (value: number) => Number.isInteger(value) && value >= 0 && value <= MAX_PRICE_CENTS;

/** A band's own rules, a grid's or a date's: it ends after it starts, within its day, at a price in whole cents. */
export function checkBand(band: Omit<PriceRule, 'isoWeekday'>, span: string): void {
  if (
    !Number.isInteger(band.startsAtMinute) ||
    !Number.isInteger(band.endsAtMinute) ||
    band.startsAtMinute < 0 ||
    band.endsAtMinute > MINUTES_PER_DAY ||
    band.endsAtMinute <= band.startsAtMinute
  ) {
    refuse(`a band ends after it starts, within its day (${span})`, [
      { field: 'bands[].to', problem: 'invalid' },
    ]);
  }
  if (!isCents(band.priceCents)) {
    refuse(`band prices must be from 0 to ${MAX_PRICE_CENTS / 100} € in whole cents (${span})`, [
      { field: 'bands[].price_eur', problem: 'invalid' },
    ]);
  }
}

/** The grid's own rules: prices in whole cents within bounds, bands within a day of a week, none overlapping. */
function checkGrid(input: SetPriceGridInput): PriceGrid {
  if (!isCents(input.defaultPriceCents)) {
    refuse(`the default price must be from 0 to ${MAX_PRICE_CENTS / 100} € in whole cents`, [
      { field: 'default_price_eur', problem: 'invalid' },
    ]);
  }
  if (input.bands.length > MAX_BANDS) {
    refuse(`a grid has at most ${MAX_BANDS} bands`, [{ field: 'bands', problem: 'invalid' }]);
  }
  for (const band of input.bands) {
    const span = `${clockTime(band.startsAtMinute)}-${clockTime(band.endsAtMinute)}`;
    if (!Number.isInteger(band.isoWeekday) || band.isoWeekday < 1 || band.isoWeekday > 7) {
      refuse(`a weekday is 1 (Monday) to 7 (Sunday), not ${band.isoWeekday}`, [
        { field: 'bands[].weekday', problem: 'invalid' },
      ]);
    }
    checkBand(band, span);
  }
  const sorted = [...input.bands].sort(
    (a, b) => a.isoWeekday - b.isoWeekday || a.startsAtMinute - b.startsAtMinute,
  );
  sorted.forEach((band, index) => {
    const previous = sorted[index - 1];
    if (previous?.isoWeekday === band.isoWeekday && band.startsAtMinute < previous.endsAtMinute) {
      refuse(
        `bands overlap on weekday ${band.isoWeekday}: ` +
          `${clockTime(previous.startsAtMinute)}-${clockTime(previous.endsAtMinute)} and ` +
          `${clockTime(band.startsAtMinute)}-${clockTime(band.endsAtMinute)}`,
        [{ field: 'bands', problem: 'invalid' }],
      );
    }
  });
  return { defaultPriceCents: input.defaultPriceCents, priceRules: sorted };
}

/** The first day asked for: a real date from the branch's today to MAX_YEARS_AHEAD years on; today by default. */
export function firstDay(
  from: string | null | undefined,
  today: Temporal.PlainDate,
  field = 'from',
): Temporal.PlainDate {
  if (from === undefined || from === null) return today;
  let date: Temporal.PlainDate | null = null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(from)) {
    try {
      date = Temporal.PlainDate.from(from, { overflow: 'reject' });
    } catch {
      date = null;
    }
  }
  const last = today.add({ years: MAX_YEARS_AHEAD });
  if (
    date === null ||
    Temporal.PlainDate.compare(date, today) < 0 ||
    Temporal.PlainDate.compare(date, last) > 0
  ) {
    refuse(
      `the first day must be a date (YYYY-MM-DD) between the branch's today (${today.toString()}) and ${last.toString()}`,
      [{ field, problem: 'invalid' }],
    );
  }
  return date;
}

/** The grid as the audit log keeps it: the first day it prices, its default and bands in the branch's time. */
function auditView(startsOn: Temporal.PlainDate, grid: PriceGrid) {
  return {
    from: startsOn.toString(),
    default_price_cents: grid.defaultPriceCents,
    bands: grid.priceRules.map((band) => ({
      weekday: band.isoWeekday,
      from: clockTime(band.startsAtMinute),
      to: clockTime(band.endsAtMinute),
      price_cents: band.priceCents,
    })),
  };
}

/**
 * Re-prices the branch's slots from `from` on (to `until`, when given) that have not started, each by the grid of its
 * local date. A slot a live booking holds (confirmed, or a hold not yet expired) keeps its price, the one its booking
 * was quoted, and notes the grid's in `next_price_cents`, which it takes once free again
 * (repository.takeNextPricesOfFreeSlots). Every change of prices goes through here: grids, dated grids, a date's.
 */
export async function repriceSlots(
  trx: Db,
  branch: repository.BranchRow,
  from: Temporal.PlainDate,
  now: Date,
  until?: Temporal.PlainDate,
): Promise<{ repriced: number; kept: number }> {
  const grids = await readPriceGrids(trx, branch);
  const slots = await repository.lockSlotsToPrice(trx, branch.id, from.toString(), now, until?.toString());
  const live = await repository.slotsWithLiveBookings(
    trx,
    slots.map((slot) => slot.id),
    now,
  );
  const gridsByDate = new Map<string, PriceGrid>();
  const changes: Parameters<typeof repository.setSlotPrices>[1][number][] = [];
  let repriced = 0;
  for (const slot of slots) {
    let grid = gridsByDate.get(slot.local_date);
    if (!grid) {
      grid = gridOn(grids, Temporal.PlainDate.from(slot.local_date));
      gridsByDate.set(slot.local_date, grid);
    }
    const price = slotPriceCents({ ...grid, timeZone: branch.time_zone }, instantFromDate(slot.start_time));
    if (live.has(slot.id)) {
      const next = price === slot.price_cents ? null : price;
      if (next !== slot.next_price_cents) {
        changes.push({ id: slot.id, priceCents: slot.price_cents, nextPriceCents: next });
      }
    } else if (price !== slot.price_cents || slot.next_price_cents !== null) {
      if (price !== slot.price_cents) repriced += 1;
      changes.push({ id: slot.id, priceCents: price, nextPriceCents: null });
    }
  }
  await repository.setSlotPrices(trx, changes);
  return { repriced, kept: live.size };
}

export async function setPriceGrid(
  trx: Db,
  deps: SetPriceGridDependencies,
  input: SetPriceGridInput,
): Promise<SetPriceGridResult> {
  const now = deps.clock.now();
  const grid = checkGrid(input);
  // First the branch: slot generation takes the same lock, so it never prices new days by a grid replaced meanwhile.
  const branch = await repository.lockBranch(trx, input.branchId);
  if (!branch) throw new AppError('branch_not_found');
  const today = localToday(branch, now);
  const from = firstDay(input.from, today);

  await bringDueGridsInForce(trx, branch.id, today);
  const before = gridOfGrids(await readPriceGrids(trx, (await repository.findBranch(trx, branch.id))!), from);
  if (Temporal.PlainDate.compare(from, today) === 0) {
    await writeGridInForce(trx, branch.id, grid);
  } else {
    await repository.saveDatedPriceGrid(trx, {
      branch_id: branch.id,
      starts_on: from.toString(),
      default_price_cents: grid.defaultPriceCents,
      bands: JSON.stringify(grid.priceRules.map(ruleOfBand)),
    });
  }

  const nowDate = dateFromInstant(now);
  const written = (await repository.findBranch(trx, branch.id))!;
  const { repriced, kept } = await repriceSlots(trx, written, from, nowDate);
  await refreshCachedPriceRange(trx, branch.id, now);
  await recordAudit(
    trx,
    input.actor,
    {
      action: 'branch.prices',
      entityType: 'branch',
      entityId: branch.id,
      before: auditView(from, before),
      after: auditView(from, grid),
    },
    nowDate,
  );
  return { from: from.toString(), repriced, kept };
}
