import type { Temporal } from 'temporal-polyfill';
import { recordAudit, type Actor, type AuditAction } from '../../kernel/audit.ts';
import { dateFromInstant, type Clock } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../kernel/errors.ts';
import { bringDueGridsInForce, localToday, readPriceGrids, refreshCachedPriceRange } from '../price-grids.ts';
import * as repository from '../repository.ts';
import { gridOfGrids, type DatePrice } from '../schedule.ts';
import {
  checkBand,
  clockTime,
  firstDay,
  isCents,
  MAX_PRICE_CENTS,
  refuse,
  repriceSlots,
} from './set-price-grid.ts';

// A date's own price (issue 32, 'Prices by date'), for the console (PUT and DELETE
// /admin/branches/{id}/prices/dates/{date}) and the CLI (`date-price set|remove|list`): the price of one
// date of the branch's calendar (a holiday, a peak day), over whatever grid would price it. In the caller's transaction, with the branch's
// lock as a grid's change takes it, it checks the price, stores it (or removes it), re-prices that date's slots that
// have not started and that no live booking holds by the same path as a grid's change (so a removed date's slots go
// back to the grid's price), refreshes the landing's price range and writes its audit row.

/** The most bands a date may have: one per half hour. */
export const MAX_DATE_BANDS = 48;

export type DatePriceInput = {
  actor: Actor;
  branchId: number;
  /** YYYY-MM-DD of the branch's calendar, from its today to ten years on. */
  date: string;
};

export type SetDatePriceInput = DatePriceInput & { price: DatePrice };

export type DatePriceResult = {
  date: string;
  /** Slots whose price changed. */
  repriced: number;
  /** Slots a live booking holds, which keep their price until they are free again. */
  kept: number;
};

/** A date's price rules: whole cents within bounds, bands within the day, none overlapping. */
function checkDatePrice(price: DatePrice): DatePrice {
  if (!isCents(price.dayPriceCents)) {
    refuse(`the day's price must be from 0 to ${MAX_PRICE_CENTS / 100} € in whole cents`, [
      { field: 'day_price_eur', problem: 'invalid' },
    ]);
  }
  if (price.bands.length > MAX_DATE_BANDS) {
    refuse(`a date has at most ${MAX_DATE_BANDS} bands`, [{ field: 'bands', problem: 'invalid' }]);
  }
  const sorted = [...price.bands].sort((a, b) => a.startsAtMinute - b.startsAtMinute);
  sorted.forEach((band, index) => {
    const span = `${clockTime(band.startsAtMinute)}-${clockTime(band.endsAtMinute)}`;
    checkBand(band, span);
    const previous = sorted[index - 1];
    if (previous && band.startsAtMinute < previous.endsAtMinute) {
      refuse(
        `bands overlap: ${clockTime(previous.startsAtMinute)}-${clockTime(previous.endsAtMinute)} and ${span}`,
        [{ field: 'bands', problem: 'invalid' }],
      );
    }
  });
  return { dayPriceCents: price.dayPriceCents, bands: sorted };
}

/** The date's price as the audit log keeps it, null for none. */
function auditView(price: DatePrice | undefined) {
  if (!price) return null;
  return {
    day_price_cents: price.dayPriceCents,
    bands: price.bands.map((band) => ({
      from: clockTime(band.startsAtMinute),
      to: clockTime(band.endsAtMinute),
      price_cents: band.priceCents,
    })),
  };
}

/**
 * The branch locked, due dated grids brought in force, and the date asked for checked against its today; then
 * `write` stores or removes the date's price, and the date's slots are re-priced, the range refreshed, the change
 * audited (the date's price before and after; the grid that prices the date otherwise, for the record).
 */
async function changeDatePrice(
  trx: Db,
  clock: Clock,
  input: DatePriceInput,
  action: AuditAction,
  write: (branch: repository.BranchRow, date: Temporal.PlainDate) => Promise<DatePrice | undefined>,
): Promise<DatePriceResult> {
  const now = clock.now();
  const branch = await repository.lockBranch(trx, input.branchId);
  if (!branch) throw new AppError('branch_not_found');
  const today = localToday(branch, now);
  const date = firstDay(input.date, today, 'date');
  await bringDueGridsInForce(trx, branch.id, today);
  const grids = await readPriceGrids(trx, branch);
  const before = grids.byDate.get(date.toString());
  const after = await write(branch, date);
  const nowDate = dateFromInstant(now);
  const written = (await repository.findBranch(trx, branch.id))!;
  const { repriced, kept } = await repriceSlots(trx, written, date, nowDate, date);
  await refreshCachedPriceRange(trx, branch.id, now);
  const grid = gridOfGrids(grids, date);
  await recordAudit(
    trx,
    input.actor,
    {
      action,
      entityType: 'branch',
      entityId: branch.id,
      before: { date: date.toString(), price: auditView(before) },
      after: {
        date: date.toString(),
        price: auditView(after),
        grid_default_price_cents: grid.defaultPriceCents,
      },
    },
    nowDate,
  );
  return { date: date.toString(), repriced, kept };
}

export async function setDatePrice(
  trx: Db,
  deps: { clock: Clock },
  input: SetDatePriceInput,
): Promise<DatePriceResult> {
  const price = checkDatePrice(input.price);
  return changeDatePrice(trx, deps.clock, input, 'branch.date_price', async (branch, date) => {
    await repository.savePriceOverride(trx, {
      branch_id: branch.id,
      local_date: date.toString(),
      day_price_cents: price.dayPriceCents,
      bands: JSON.stringify(
        price.bands.map((band) => ({
          starts_at_minute: band.startsAtMinute,
          ends_at_minute: band.endsAtMinute,
          price_cents: band.priceCents,
        })),
      ),
    });
    return price;
  });
}

/** Removes a date's price: its free slots go back to the grid's. A date without one answers `not_found`. */
export async function removeDatePrice(
  trx: Db,
  deps: { clock: Clock },
  input: DatePriceInput,
): Promise<DatePriceResult> {
  return changeDatePrice(trx, deps.clock, input, 'branch.date_price_removed', async (branch, date) => {
    if (!(await repository.deletePriceOverride(trx, branch.id, date.toString())))
      throw new AppError('not_found');
    return undefined;
  });
}
