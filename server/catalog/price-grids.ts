import { Temporal } from 'temporal-polyfill';
import type { Db } from '../db/database.ts';
import type { DatedPriceBand } from '../db/schema.ts';
import * as repository from './repository.ts';
import {
  gridOfGrids,
  gridsBetween,
  priceRangeOfGrids,
  type BranchSchedule,
  type PriceGrid,
  type PriceGrids,
  type PriceRule,
} from './schedule.ts';

// A branch's price grids as stored: the grid in force (the branch's default price and its price rules) and the
// dated grids waiting for their first day (docs/decisions.md, 'Prices that apply when saved'). Read by slot
// generation, by the cached price range and by the one use case that changes prices (use-cases/set-price-grid.ts).

export function bandOfRule(rule: DatedPriceBand): PriceRule {
  return {
    isoWeekday: rule.iso_weekday,
    startsAtMinute: rule.starts_at_minute,
    endsAtMinute: rule.ends_at_minute,
    priceCents: rule.price_cents,
  };
}

export function ruleOfBand(band: PriceRule): DatedPriceBand {
  return {
    iso_weekday: band.isoWeekday,
    starts_at_minute: band.startsAtMinute,
    ends_at_minute: band.endsAtMinute,
    price_cents: band.priceCents,
  };
}

/** The branch's hours and slot length with a grid's prices. Stored hours were checked when they were written. */
export function scheduleOf(branch: repository.BranchRow, grid: PriceGrid): BranchSchedule {
  return {
    timeZone: branch.time_zone,
    slotMinutes: branch.slot_minutes,
    openingHours: branch.opening_hours,
    ...grid,
  };
}

/** The branch's local date at `now`. */
export function localToday(branch: Pick<repository.BranchRow, 'time_zone'>, now: Temporal.Instant) {
  return now.toZonedDateTimeISO(branch.time_zone).toPlainDate();
}

function gridsOf(
  branch: repository.BranchRow,
  rules: readonly repository.PriceRuleRow[],
  dated: readonly repository.DatedPriceGridRow[],
  byDate: readonly repository.PriceOverrideRow[],
): PriceGrids {
  return {
    byDate: new Map(
      byDate.map((row) => [
        row.local_date,
        {
          dayPriceCents: row.day_price_cents,
          bands: row.bands.map((band) => ({
            startsAtMinute: band.starts_at_minute,
            endsAtMinute: band.ends_at_minute,
            priceCents: band.price_cents,
          })),
        },
      ]),
    ),
    inForce: { defaultPriceCents: branch.default_price_cents, priceRules: rules.map(bandOfRule) },
    dated: dated.map((row) => ({
      startsOn: Temporal.PlainDate.from(row.starts_on),
      grid: { defaultPriceCents: row.default_price_cents, priceRules: row.bands.map(bandOfRule) },
    })),
  };
}

export async function readPriceGrids(db: Db, branch: repository.BranchRow): Promise<PriceGrids> {
  // One after the other: `db` may be a transaction, one connection.
  const rules = await repository.listPriceRules(db, branch.id);
  const dated = await repository.listDatedPriceGrids(db, branch.id);
  return gridsOf(branch, rules, dated, await repository.listPriceOverrides(db, branch.id));
}

/**
 * The grid that prices the branch's today (a dated grid whose day has come counts before it is brought in force)
 * and the dated grids that take over later; undefined when there is no such branch.
 */
export async function priceGridsFromToday(db: Db, branchId: number, now: Temporal.Instant) {
  const branch = await repository.findBranch(db, branchId);
  if (!branch) return undefined;
  const grids = await readPriceGrids(db, branch);
  const today = localToday(branch, now);
  return {
    branch,
    today,
    current: gridOfGrids(grids, today),
    later: grids.dated.filter((dated) => Temporal.PlainDate.compare(dated.startsOn, today) > 0),
    /** Dates from today on with a price of their own, in order. */
    byDate: [...grids.byDate]
      .filter(([date]) => date >= today.toString())
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([date, price]) => ({ date, price })),
    grids,
  };
}

/**
 * Makes `grid` the branch's grid in force: its default price, and its bands as price rules. Rules that stay the
 * same keep their ids (`price-rule remove <id>` still names them); the others are deleted, then the new inserted.
 */
export async function writeGridInForce(db: Db, branchId: number, grid: PriceGrid): Promise<void> {
  const key = (band: PriceRule) =>
    `${band.isoWeekday}:${band.startsAtMinute}:${band.endsAtMinute}:${band.priceCents}`;
  const current = await repository.listPriceRules(db, branchId);
  const wanted = new Set(grid.priceRules.map(key));
  const kept = new Set<string>();
  const stale: number[] = [];
  for (const rule of current) {
    const ruleKey = key(bandOfRule(rule));
    if (wanted.has(ruleKey) && !kept.has(ruleKey)) kept.add(ruleKey);
    else stale.push(rule.id);
  }
  await repository.deletePriceRules(db, stale);
  await repository.insertPriceRules(
    db,
    grid.priceRules
      .filter((band) => !kept.has(key(band)))
      .map((band) => ({ branch_id: branchId, ...ruleOfBand(band) })),
  );
  await repository.updateBranch(db, branchId, { default_price_cents: grid.defaultPriceCents });
}

/**
 * Dated grids whose first day has come (in the branch's zone) stop waiting: the latest becomes the grid in force and
 * their rows go. Prices of slots do not change: those days were already priced by these grids. Answers whether
 * anything changed. The caller holds the branch's lock (repository.lockBranch).
 */
export async function bringDueGridsInForce(
  db: Db,
  branchId: number,
  today: Temporal.PlainDate,
): Promise<boolean> {
  const dated = await repository.listDatedPriceGrids(db, branchId);
  // ISO dates compare as text.
  const latest = dated.filter((row) => row.starts_on <= today.toString()).at(-1);
  if (!latest) return false;
  await writeGridInForce(db, branchId, {
    defaultPriceCents: latest.default_price_cents,
    priceRules: latest.bands.map(bandOfRule),
  });
  await repository.deleteDatedPriceGridsUntil(db, branchId, latest.starts_on);
  return true;
}

/**
 * Re-derives the branch's cached [min, max] price, which the landing shows: every price of the grids that price a
 * day from today (in the branch's zone) to the last day with slots, over the branch's opening hours. A grid whose
 * first day lies past the slots generated counts once the slot horizon reaches it.
 */
export async function refreshCachedPriceRange(
  db: Db,
  branchId: number,
  now: Temporal.Instant,
): Promise<{ minCents: number; maxCents: number } | null> {
  const branch = await repository.findBranch(db, branchId);
  if (!branch) return null;
  const today = localToday(branch, now);
  const generatedUntil = branch.slots_generated_until
    ? Temporal.PlainDate.from(branch.slots_generated_until)
    : today;
  const grids = gridsBetween(
    await readPriceGrids(db, branch),
    today,
    Temporal.PlainDate.compare(generatedUntil, today) > 0 ? generatedUntil : today,
  );
  const range = priceRangeOfGrids(scheduleOf(branch, grids[0]!), grids);
  if (range.minCents !== branch.min_price_cents || range.maxCents !== branch.max_price_cents) {
    await repository.updateCachedPrices(db, branch.id, range);
  }
  return range;
}
