import type { Temporal } from 'temporal-polyfill';
import { findBranch, listSlotsOfDay } from '../catalog/index.ts';
import type { Db } from '../db/database.ts';
import { instantFromDate, type Clock } from '../kernel/clock.ts';
import { AppError } from '../kernel/errors.ts';
import type { components } from '../../openapi/schema.gen.ts';
import * as repository from './repository.ts';

// Weekly series (issue 31, item 1): the same slot for several weeks, in one checkout. The weeks are the same
// branch-local weekday and time of day, so 18:00 stays 18:00 across a change to or from summer time (the instant
// moves by an hour; the slot the branch generated for 18:00 that day is the week's). Each week is a booking of its
// own; the series only ties them together (bookings.series_id).

type Schemas = components['schemas'];

/** The branch-local weekday (ISO) and time of day a slot starts at. */
export type WeeklyPattern = { isoWeekday: number; localTime: string };

function patternOf(start: Date, timeZone: string): { date: Temporal.PlainDate } & WeeklyPattern {
  const local = instantFromDate(start).toZonedDateTimeISO(timeZone);
  return {
    date: local.toPlainDate(),
    isoWeekday: local.dayOfWeek,
    localTime: local.toPlainTime().toString({ smallestUnit: 'minute' }),
  };
}

/**
 * The pattern slots being booked as one series share: at least two, of one branch, each on the same local weekday
 * and at the same local time, each in a different week. `not_a_weekly_series` (422) otherwise.
 */
export function requireWeeklyPattern(slots: readonly repository.SlotForBookingRow[]): WeeklyPattern {
  const patterns = slots.map((slot) => patternOf(slot.start_time, slot.time_zone));
  const [first] = patterns;
  const weekly =
    first !== undefined &&
    patterns.length >= 2 &&
    new Set(slots.map((slot) => slot.branch_id)).size === 1 &&
    patterns.every(
      (pattern) => pattern.isoWeekday === first.isoWeekday && pattern.localTime === first.localTime,
    ) &&
    new Set(patterns.map((pattern) => pattern.date.toString())).size === patterns.length;
  if (!weekly) throw new AppError('not_a_weekly_series');
  return { isoWeekday: first.isoWeekday, localTime: first.localTime };
}

/**
 * `GET /bookings/weekly/{slot_id}?weeks=N`: the slot's week and the N - 1 following, each with its slot (and price)
 * or why it cannot be booked. Reads only; the same bookable rule as the day's slot listing (one function both call).
 */
export async function previewWeeklySeries(
  db: Db,
  clock: Clock,
  slotId: number,
  weeks: number,
): Promise<Schemas['WeeklySeries']> {
  const [slot] = await repository.findSlotsForBooking(db, [slotId]);
  if (!slot) throw new AppError('slot_not_found');
  const branch = await findBranch(db, slot.branch_id);
  if (!branch) throw new AppError('slot_not_found');
  if (!branch.active_with_smart_lock) throw new AppError('branch_not_bookable');
  const now = clock.now();
  const { date: firstDay, isoWeekday, localTime } = patternOf(slot.start_time, branch.time_zone);
  const lastDay = branch.slots_generated_until?.toString() ?? null;
  const occurrences: Schemas['WeeklyOccurrence'][] = [];
  for (let week = 1; week <= weeks; week += 1) {
    const date = firstDay.add({ weeks: week - 1 }).toString();
    if (lastDay === null || date > lastDay) {
      occurrences.push({ week, date, slot: null, problem: 'beyond_horizon' });
      continue;
    }
    const day = await listSlotsOfDay(db, branch.id, date, now.epochMilliseconds);
    const same = day.find((candidate) => candidate.start_time.slice(11, 16) === localTime);
    if (!same) {
      occurrences.push({ week, date, slot: null, problem: 'no_slot' });
      continue;
    }
    let problem: Schemas['WeeklyOccurrence']['problem'] = null;
    if (!same.is_bookeable) {
      if (Date.parse(same.start_time) <= now.epochMilliseconds) problem = 'past';
      else problem = (await repository.anySlotClosed(db, [same.id])) ? 'closed' : 'taken';
    }
    occurrences.push({ week, date, slot: same, problem });
  }
  return { branch_id: branch.id, iso_weekday: isoWeekday, local_time: localTime, occurrences };
}
