import { Temporal } from 'temporal-polyfill';
import type { OpeningHours } from '../db/schema.ts';

// How a branch's days turn into slots and prices. Pure functions; Temporal is the one authority on time
// zones (PostgreSQL's zone rules are never consulted), so the repeated autumn hour means the same thing
// everywhere in the product.

export const MINUTES_PER_DAY = 1440;

/** A price band of one ISO weekday ('1' = Monday) over [startsAtMinute, endsAtMinute) of the local day. */
export type PriceRule = {
  isoWeekday: number;
  startsAtMinute: number;
  endsAtMinute: number;
  priceCents: number;
};

/** What a slot costs: the default price, unless a band of the slot's weekday covers its start. */
export type PriceGrid = {
  defaultPriceCents: number;
  priceRules: readonly PriceRule[];
  /** The one ISO weekday it prices (a date's price): the price range counts no other. */
  onlyWeekday?: number;
};

/**
 * A date's own price (a holiday, a peak day): the day price, unless a band covers a slot's local start; bands are
 * wall-clock minutes [startsAtMinute, endsAtMinute) of that date and do not overlap.
 */
export type DatePrice = {
  dayPriceCents: number;
  bands: readonly Omit<PriceRule, 'isoWeekday'>[];
};

/**
 * A branch's grids: the one in force, dated ones (in order of their first day, a date of the branch's calendar) and
 * the prices of single dates. A date's price wins; else the grid of a date is the latest dated grid starting on or
 * before it, else the one in force.
 */
export type PriceGrids = {
  inForce: PriceGrid;
  dated: readonly { startsOn: Temporal.PlainDate; grid: PriceGrid }[];
  /** By ISO date (YYYY-MM-DD). */
  byDate: ReadonlyMap<string, DatePrice>;
};

/** A date's price as the grid of that one date. */
export function gridOfDatePrice(date: Temporal.PlainDate, price: DatePrice): PriceGrid {
  return {
    defaultPriceCents: price.dayPriceCents,
    priceRules: price.bands.map((band) => ({ ...band, isoWeekday: date.dayOfWeek })),
    onlyWeekday: date.dayOfWeek,
  };
}

export type BranchSchedule = PriceGrid & {
  timeZone: string;
  slotMinutes: number;
  /** null: open around the clock. */
  openingHours: OpeningHours | null;
};

export type GeneratedSlot = {
  startTime: Temporal.Instant;
  endTime: Temporal.Instant;
  /** The branch-local calendar date the slot starts on. */
  localDate: Temporal.PlainDate;
  priceCents: number;
};

const AROUND_THE_CLOCK: readonly [number, number][] = [[0, MINUTES_PER_DAY]];

/** The [openMinute, closeMinute) ranges of a local weekday, in order. */
function openingRangesOn(openingHours: OpeningHours | null, isoWeekday: number): readonly [number, number][] {
  if (openingHours === null) return AROUND_THE_CLOCK;
  const ranges = openingHours[String(isoWeekday) as keyof OpeningHours] ?? [];
  return [...ranges].sort((a, b) => a[0] - b[0]);
}

/** The instant a wall-clock minute of a local date names; 1440 is the next day's midnight. */
function wallClockInstant(date: Temporal.PlainDate, minuteOfDay: number, timeZone: string): Temporal.Instant {
  const day = date.add({ days: Math.floor(minuteOfDay / MINUTES_PER_DAY) });
  const minute = minuteOfDay % MINUTES_PER_DAY;
  // 'compatible': a time skipped by a spring change moves forward; a repeated autumn time takes its first
  // occurrence (as the clock on the wall shows it first).
  return day
    .toPlainDateTime({ hour: Math.floor(minute / 60), minute: minute % 60 })
    .toZonedDateTime(timeZone, { disambiguation: 'compatible' })
    .toInstant();
}

export function priceAt(
  schedule: Pick<BranchSchedule, 'defaultPriceCents' | 'priceRules'>,
  isoWeekday: number,
  minuteOfDay: number,
): number {
  const rule = schedule.priceRules.find(
    (candidate) =>
      candidate.isoWeekday === isoWeekday &&
      candidate.startsAtMinute <= minuteOfDay &&
      minuteOfDay < candidate.endsAtMinute,
  );
  return rule ? rule.priceCents : schedule.defaultPriceCents;
}

/** The price of a slot starting at `start`, by its wall-clock weekday and time in the branch's zone. */
export function slotPriceCents(
  schedule: Pick<BranchSchedule, 'defaultPriceCents' | 'priceRules' | 'timeZone'>,
  start: Temporal.Instant,
): number {
  const local = start.toZonedDateTimeISO(schedule.timeZone);
  return priceAt(schedule, local.dayOfWeek, local.hour * 60 + local.minute);
}

/** The grid that prices the slots of a branch-local date. */
export function gridOn(grids: PriceGrids, date: Temporal.PlainDate): PriceGrid {
  const own = grids.byDate.get(date.toString());
  if (own) return gridOfDatePrice(date, own);
  return gridOfGrids(grids, date);
}

/** The grid of a date by the grids alone, as if it had no price of its own (what the console shows beside one). */
export function gridOfGrids(grids: PriceGrids, date: Temporal.PlainDate): PriceGrid {
  let grid = grids.inForce;
  for (const dated of grids.dated) {
    if (Temporal.PlainDate.compare(dated.startsOn, date) <= 0) grid = dated.grid;
  }
  return grid;
}

/**
 * The grids that price some date of [from, until]: the one of `from`, then each dated one starting later, then each
 * date's own price in the span. (A grid every date of which has a price of its own still counts: a range a little
 * wide rather than one a slot falls out of.)
 */
export function gridsBetween(
  grids: PriceGrids,
  from: Temporal.PlainDate,
  until: Temporal.PlainDate,
): PriceGrid[] {
  const within = (date: Temporal.PlainDate) =>
    Temporal.PlainDate.compare(date, from) >= 0 && Temporal.PlainDate.compare(date, until) <= 0;
  return [
    gridOfGrids(grids, from),
    ...grids.dated
      .filter((dated) => Temporal.PlainDate.compare(dated.startsOn, from) > 0 && within(dated.startsOn))
      .map((dated) => dated.grid),
    ...[...grids.byDate]
      .map(([date, price]) => ({ date: Temporal.PlainDate.from(date), price }))
      .filter(({ date }) => within(date))
      .map(({ date, price }) => gridOfDatePrice(date, price)),
  ];
}

/**
 * The slots of one branch-local calendar date. Each opening range's wall-clock ends become instants, and
 * slots step between them in absolute durations: a 24-hour branch has 23 one-hour slots on the spring
 * change day and 25 on the autumn one, where the repeated hour is two slots with different offsets.
 * A tail shorter than a slot is not offered.
 */
export function generateDaySlots(schedule: BranchSchedule, date: Temporal.PlainDate): GeneratedSlot[] {
  const slotLength = Temporal.Duration.from({ minutes: schedule.slotMinutes });
  const slots: GeneratedSlot[] = [];
  for (const [openMinute, closeMinute] of openingRangesOn(schedule.openingHours, date.dayOfWeek)) {
    const close = wallClockInstant(date, closeMinute, schedule.timeZone);
    let start = wallClockInstant(date, openMinute, schedule.timeZone);
    for (
      let end = start.add(slotLength);
      Temporal.Instant.compare(end, close) <= 0;
      end = start.add(slotLength)
    ) {
      const local = start.toZonedDateTimeISO(schedule.timeZone);
      slots.push({
        startTime: start,
        endTime: end,
        localDate: local.toPlainDate(),
        priceCents: priceAt(schedule, local.dayOfWeek, local.hour * 60 + local.minute),
      });
      start = end;
    }
  }
  return slots;
}

/**
 * The lowest and highest price a slot of the branch can have, judged on an ordinary week of its opening
 * hours (change days only repeat or skip a wall-clock hour, so they add no other price).
 * A branch that never opens shows its default price.
 */
export function priceRange(schedule: BranchSchedule): { minCents: number; maxCents: number } {
  const prices: number[] = [];
  for (let isoWeekday = 1; isoWeekday <= 7; isoWeekday += 1) {
    if (schedule.onlyWeekday !== undefined && schedule.onlyWeekday !== isoWeekday) continue;
    for (const [openMinute, closeMinute] of openingRangesOn(schedule.openingHours, isoWeekday)) {
      for (
        let start = openMinute;
        start + schedule.slotMinutes <= closeMinute;
        start += schedule.slotMinutes
      ) {
        prices.push(priceAt(schedule, isoWeekday, start));
      }
    }
  }
  // A date's price on a day the branch is closed prices no slot: it widens no range.
  if (prices.length === 0 && schedule.onlyWeekday !== undefined)
    return { minCents: Number.POSITIVE_INFINITY, maxCents: Number.NEGATIVE_INFINITY };
  if (prices.length === 0)
    return { minCents: schedule.defaultPriceCents, maxCents: schedule.defaultPriceCents };
  return { minCents: Math.min(...prices), maxCents: Math.max(...prices) };
}

/** The lowest and highest price of any of `grids` over the branch's opening hours (priceRange of each). */
export function priceRangeOfGrids(
  schedule: Omit<BranchSchedule, keyof PriceGrid>,
  grids: readonly PriceGrid[],
): { minCents: number; maxCents: number } {
  const ranges = grids.map((grid) => priceRange({ ...schedule, ...grid }));
  return {
    minCents: Math.min(...ranges.map((range) => range.minCents)),
    maxCents: Math.max(...ranges.map((range) => range.maxCents)),
  };
}

/** The dates of [from, until], inclusive, in order. */
export function datesBetween(from: Temporal.PlainDate, until: Temporal.PlainDate): Temporal.PlainDate[] {
  const dates: Temporal.PlainDate[] = [];
  for (let date = from; Temporal.PlainDate.compare(date, until) <= 0; date = date.add({ days: 1 })) {
    dates.push(date);
  }
  return dates;
}
