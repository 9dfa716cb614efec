import { CompiledQuery, sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { preparedStatement, type Db } from '../db/database.ts';
import type {
  BranchesTable,
  DatedPriceGridsTable,
  PriceOverridesTable,
  PriceRulesTable,
  SlotsTable,
} from '../db/schema.ts';

// SQL for branches, their price rules and their slots. `db` may be a transaction.

export type BranchRow = Selectable<BranchesTable>;
export type PriceRuleRow = Selectable<PriceRulesTable>;
export type NewBranchRow = Insertable<BranchesTable>;
export type NewSlotRow = Insertable<SlotsTable>;
export type DatedPriceGridRow = Selectable<DatedPriceGridsTable>;
export type PriceOverrideRow = Selectable<PriceOverridesTable>;

export async function findBranch(db: Db, branchId: number): Promise<BranchRow | undefined> {
  return db.selectFrom('branches').selectAll().where('id', '=', branchId).executeTakeFirst();
}

/**
 * The branch, its row locked until the transaction ends. Whatever prices slots from the branch's grids (saving a
 * grid, generating slots) takes this first, so the grids it read are still the grids when it writes.
 */
export async function lockBranch(db: Db, branchId: number): Promise<BranchRow | undefined> {
  return db.selectFrom('branches').selectAll().where('id', '=', branchId).forNoKeyUpdate().executeTakeFirst();
}

export async function listBranches(db: Db): Promise<BranchRow[]> {
  return db.selectFrom('branches').selectAll().orderBy('order').orderBy('id').execute();
}

export async function countBranches(db: Db): Promise<number> {
  const { count } = await db
    .selectFrom('branches')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return count;
}

/** The first branch, bookable ones first: where a sale tied to no branch (a gift voucher) is booked. */
export async function firstBranchId(db: Db): Promise<number | undefined> {
  const row = await db
    .selectFrom('branches')
    .select('id')
    .orderBy('active_with_smart_lock', 'desc')
    .orderBy('id')
    .executeTakeFirst();
  return row?.id;
}

/** Gallery URLs of each branch, in gallery order. */
export async function listBranchImages(db: Db): Promise<Map<number, string[]>> {
  const rows = await db
    .selectFrom('branch_images')
    .select(['branch_id', 'url'])
    .orderBy('branch_id')
    .orderBy('position')
    .execute();
  const byBranch = new Map<number, string[]>();
  for (const row of rows) byBranch.set(row.branch_id, [...(byBranch.get(row.branch_id) ?? []), row.url]);
  return byBranch;
}

export async function listPriceRules(db: Db, branchId?: number): Promise<PriceRuleRow[]> {
  let query = db
    .selectFrom('price_rules')
    .selectAll()
    .orderBy('branch_id')
    .orderBy('iso_weekday')
    .orderBy('starts_at_minute');
  if (branchId !== undefined) query = query.where('branch_id', '=', branchId);
  return query.execute();
}

export async function findPriceRule(db: Db, ruleId: number): Promise<PriceRuleRow | undefined> {
  return db.selectFrom('price_rules').selectAll().where('id', '=', ruleId).executeTakeFirst();
}

export async function insertBranch(db: Db, branch: NewBranchRow): Promise<number> {
  const { id } = await db.insertInto('branches').values(branch).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function insertBranchImages(db: Db, branchId: number, urls: readonly string[]): Promise<void> {
  if (urls.length === 0) return;
  await db
    .insertInto('branch_images')
    .values(urls.map((url, position) => ({ branch_id: branchId, position, url })))
    .execute();
}

export async function updateBranch(
  db: Db,
  branchId: number,
  patch: Updateable<BranchesTable>,
): Promise<void> {
  if (Object.keys(patch).length === 0) return;
  await db.updateTable('branches').set(patch).where('id', '=', branchId).execute();
}

/**
 * Records that the branch takes bookings from `at` (a period opens) or no longer does (its open period ends), as
 * its `active_with_smart_lock` changes; `at` '-infinity' for a branch bookable since it exists. Occupancy counts an
 * hour open only inside such a period.
 */
export async function recordBookable(db: Db, branchId: number, bookable: boolean, at: Date | '-infinity') {
  if (bookable) {
    await db.insertInto('branch_bookable_periods').values({ branch_id: branchId, starts_at: at }).execute();
  } else {
    await db
      .updateTable('branch_bookable_periods')
      .set({ ends_at: at })
      .where('branch_id', '=', branchId)
      .where('ends_at', 'is', null)
      .execute();
  }
}

export async function replaceBranchImages(db: Db, branchId: number, urls: readonly string[]): Promise<void> {
  await db.deleteFrom('branch_images').where('branch_id', '=', branchId).execute();
  await insertBranchImages(db, branchId, urls);
}

/** Answers the new rules' ids, in the order given. */
export async function insertPriceRules(
  db: Db,
  rules: readonly Omit<PriceRuleRow, 'id'>[],
): Promise<number[]> {
  if (rules.length === 0) return [];
  const rows = await db
    .insertInto('price_rules')
    .values([...rules])
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

export async function deletePriceRules(db: Db, ruleIds: readonly number[]): Promise<void> {
  if (ruleIds.length === 0) return;
  await db
    .deleteFrom('price_rules')
    .where('id', 'in', [...ruleIds])
    .execute();
}

/** The dated grids, of one branch or all, by branch and first day. */
export async function listDatedPriceGrids(db: Db, branchId?: number): Promise<DatedPriceGridRow[]> {
  let query = db.selectFrom('dated_price_grids').selectAll().orderBy('branch_id').orderBy('starts_on');
  if (branchId !== undefined) query = query.where('branch_id', '=', branchId);
  return query.execute();
}

/** The branch's prices of single dates, in date order. */
export async function listPriceOverrides(db: Db, branchId: number): Promise<PriceOverrideRow[]> {
  return db
    .selectFrom('price_overrides')
    .selectAll()
    .where('branch_id', '=', branchId)
    .orderBy('local_date')
    .execute();
}

/** Stores a date's price, replacing the one it had. */
export async function savePriceOverride(
  db: Db,
  row: Omit<Insertable<PriceOverridesTable>, 'created_at'>,
): Promise<void> {
  await db
    .insertInto('price_overrides')
    .values(row)
    .onConflict((conflict) =>
      conflict
        .columns(['branch_id', 'local_date'])
        .doUpdateSet({ day_price_cents: row.day_price_cents, bands: row.bands }),
    )
    .execute();
}

/** Removes a date's price; answers whether it had one. */
export async function deletePriceOverride(db: Db, branchId: number, date: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('price_overrides')
    .where('branch_id', '=', branchId)
    .where('local_date', '=', date)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** Stores a dated grid, replacing the branch's grid of the same first day. */
export async function saveDatedPriceGrid(
  db: Db,
  grid: Omit<Insertable<DatedPriceGridsTable>, 'created_at'>,
): Promise<void> {
  await db
    .insertInto('dated_price_grids')
    .values(grid)
    .onConflict((conflict) =>
      conflict.columns(['branch_id', 'starts_on']).doUpdateSet({
        default_price_cents: grid.default_price_cents,
        bands: grid.bands,
      }),
    )
    .execute();
}

/** Deletes the branch's dated grids whose first day is `date` or earlier. */
export async function deleteDatedPriceGridsUntil(db: Db, branchId: number, date: string): Promise<void> {
  await db
    .deleteFrom('dated_price_grids')
    .where('branch_id', '=', branchId)
    .where('starts_on', '<=', date)
    .execute();
}

export async function updateCachedPrices(
  db: Db,
  branchId: number,
  prices: { minCents: number; maxCents: number },
): Promise<void> {
  await updateBranch(db, branchId, { min_price_cents: prices.minCents, max_price_cents: prices.maxCents });
}

export type SlotPriceRow = Pick<
  Selectable<SlotsTable>,
  'id' | 'start_time' | 'local_date' | 'price_cents' | 'next_price_cents'
>;

/**
 * The branch's slots that start after `now` on its local date `from` or later, locked like a booking locks its
 * slots (FOR NO KEY UPDATE, in id order), so a booking of one of them either committed before (and is seen) or
 * waits, and then reads the price written here.
 */
export async function lockSlotsToPrice(
  db: Db,
  branchId: number,
  from: string,
  now: Date,
  /** The last local date (inclusive); none: every later one. */
  until?: string,
): Promise<SlotPriceRow[]> {
  let query = db
    .selectFrom('slots')
    .select(['id', 'start_time', 'local_date', 'price_cents', 'next_price_cents'])
    .where('branch_id', '=', branchId)
    .where('local_date', '>=', from)
    .where('start_time', '>', now);
  if (until !== undefined) query = query.where('local_date', '<=', until);
  return query.orderBy('id').forNoKeyUpdate().execute();
}

/** Which of these slots have a live booking at `now`: confirmed, or pending with a hold not yet expired. */
export async function slotsWithLiveBookings(
  db: Db,
  slotIds: readonly number[],
  now: Date,
): Promise<Set<number>> {
  if (slotIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('bookings')
    .select('slot_id')
    .where('slot_id', '=', sql<number>`any(${[...slotIds]}::int[])`)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'confirmed'),
        eb.and([eb('status', '=', 'pending'), eb('hold_expires_at', '>', now)]),
      ]),
    )
    .execute();
  return new Set(rows.map((row) => row.slot_id));
}

/** Sets the price and the pending price of slots; one statement per distinct pair. */
export async function setSlotPrices(
  db: Db,
  changes: readonly { id: number; priceCents: number; nextPriceCents: number | null }[],
): Promise<void> {
  const byPrices = new Map<string, number[]>();
  for (const change of changes) {
    const key = `${change.priceCents}:${change.nextPriceCents ?? ''}`;
    byPrices.set(key, [...(byPrices.get(key) ?? []), change.id]);
  }
  for (const [key, ids] of byPrices) {
    const [price, next] = key.split(':') as [string, string];
    await db
      .updateTable('slots')
      .set({ price_cents: Number(price), next_price_cents: next === '' ? null : Number(next) })
      .where('id', '=', sql<number>`any(${ids}::int[])`)
      .execute();
  }
}

/**
 * Free slots that kept their price while a booking held them take the price their grid gives them now: those not
 * started, whose bookings all ended (a hold expired, a cancellation, a move away). Started slots forget theirs.
 * Slots a transaction has locked (being booked or priced) are left for the next run. Answers how many changed price.
 */
export async function takeNextPricesOfFreeSlots(db: Db, now: Date): Promise<number> {
  const locked = await db
    .selectFrom('slots')
    .select(['id', 'start_time'])
    .where('next_price_cents', 'is not', null)
    .orderBy('id')
    .forNoKeyUpdate()
    .skipLocked()
    .execute();
  const started = locked.filter((slot) => slot.start_time <= now).map((slot) => slot.id);
  const upcoming = locked.filter((slot) => slot.start_time > now).map((slot) => slot.id);
  if (started.length > 0) {
    await db
      .updateTable('slots')
      .set({ next_price_cents: null })
      .where('id', '=', sql<number>`any(${started}::int[])`)
      .execute();
  }
  const live = await slotsWithLiveBookings(db, upcoming, now);
  const free = upcoming.filter((id) => !live.has(id));
  if (free.length === 0) return 0;
  const result = await db
    .updateTable('slots')
    .set((eb) => ({ price_cents: eb.fn.coalesce('next_price_cents', 'price_cents'), next_price_cents: null }))
    .where('id', '=', sql<number>`any(${free}::int[])`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

// Ten thousand parameters per statement: few round trips, far below PostgreSQL's limit of 65,535.
const SLOT_INSERT_CHUNK = 2000;

/**
 * Adds slots, skipping any that already exist or would overlap one that does (both the unique and the
 * exclusion constraint act as arbiters of ON CONFLICT DO NOTHING), so generation is idempotent and safe
 * to run from several processes at once. Returns how many were added.
 */
export async function insertSlots(db: Db, slots: readonly NewSlotRow[]): Promise<number> {
  let inserted = 0;
  for (let offset = 0; offset < slots.length; offset += SLOT_INSERT_CHUNK) {
    const result = await db
      .insertInto('slots')
      .values(slots.slice(offset, offset + SLOT_INSERT_CHUNK))
      .onConflict((conflict) => conflict.doNothing())
      .executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0n);
  }
  return inserted;
}

/** Moves the generated horizon forward only: a slower concurrent run never moves it back. */
export async function advanceSlotsGeneratedUntil(db: Db, branchId: number, date: string): Promise<void> {
  await db
    .updateTable('branches')
    .set({ slots_generated_until: sql<string>`greatest(slots_generated_until, ${date}::date)` })
    .where('id', '=', branchId)
    .execute();
}

/**
 * A slot of the listing as PostgreSQL sends it: a JSON array, start and end as epoch milliseconds (the listing
 * needs no Date, and parsing ~50 per request showed).
 */
export type SlotAvailability = [
  id: number,
  startMs: number,
  endMs: number,
  priceCents: number,
  taken: boolean,
];

export type DaySlots = {
  time_zone: string;
  active_with_smart_lock: boolean;
  /** In start order; null when the day has none. */
  slots: SlotAvailability[] | null;
  /**
   * When the first of the day's holds that count as taken expires (epoch milliseconds), after which the same
   * rows would read otherwise with no change written; null when none is held.
   */
  next_hold_expiry_ms: number | null;
};

// The busiest read of the product (every calendar day a client opens), so its SQL is written once rather than
// built by the query builder on every request, and prepared once per connection (npm run bench showed both the
// building and PostgreSQL's planning). Its answer is one row: the branch with the day's slots as one JSON array
// (reading ~25 rows of 7 fields through the driver cost more than JSON.parse of the same values), start and end
// as date_part's float8 (extract's numeric cost the database a fifth of the query).
// `taken`: the slot has a live booking, or a closure in force (the operator console's) covers it. A booking covers
// exactly its slot's time (their foreign key) and the slots of a branch never overlap (slots_no_overlap), so a
// live booking overlapping the slot is a live booking of that slot. Live is confirmed, or pending with a hold that
// has not expired at $3. Both are read once per request, not once per slot (a scan per slot, even of an empty
// table, cost the database a third of the query): the day's live bookings, one probe of
// bookings_one_live_per_slot (same partial predicate) that stays flat however many bookings there are, and the
// branch's closures in force as periods. The first of those holds to expire says until when the answer stands
// (server/catalog/slot-day-cache.ts).
const LIST_SLOTS_ON_DATE = preparedStatement(
  'list_slots_on_date',
  `
with day as materialized (
  select slot.id, slot.start_time, slot.end_time, slot.price_cents from slots as slot
  where slot.branch_id = $1 and slot.local_date = $2
), live as materialized (
  select booking.slot_id, booking.status, booking.hold_expires_at from bookings as booking
  where booking.slot_id = any (array(select day.id from day))
    and booking.status in ('pending', 'confirmed')
    and (booking.status = 'confirmed' or booking.hold_expires_at > $3)
)
select branch.time_zone, branch.active_with_smart_lock, (
  select json_agg(json_build_array(
    day.id,
    date_part('epoch', day.start_time) * 1000,
    date_part('epoch', day.end_time) * 1000,
    day.price_cents,
    day.id = any (array(select live.slot_id from live))
    or tstzrange(day.start_time, day.end_time, '[)') && any (array(
      select tstzrange(closure.starts_at, closure.ends_at, '[)') from branch_closures as closure
      where closure.branch_id = $1 and closure.reopened_at is null
    ))
  ) order by day.start_time)
  from day
) as slots, (
  select date_part('epoch', min(live.hold_expires_at)) * 1000 from live where live.status = 'pending'
) as next_hold_expiry_ms
from branches as branch
where branch.id = $1`,
);

/**
 * The branch's zone and activation with its slots starting on a branch-local date (`taken` as above); null when
 * there is no such branch.
 */
export async function listSlotsOnDate(
  db: Db,
  branchId: number,
  localDate: string,
  nowMs: number,
): Promise<DaySlots | null> {
  // The instant as ISO text: the driver's own Date conversion goes through the process's local time, slowly.
  const { rows } = await db.executeQuery<DaySlots>(
    CompiledQuery.raw(LIST_SLOTS_ON_DATE, [branchId, localDate, new Date(nowMs).toISOString()]),
  );
  return rows[0] ?? null;
}
