import { CompiledQuery, sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { preparedStatement, type Db } from '../db/database.ts';
import type { BranchesTable, PriceRulesTable, SlotsTable } from '../db/schema.ts';

// SQL for branches, their price rules and their slots. `db` may be a transaction.

export type BranchRow = Selectable<BranchesTable>;
export type PriceRuleRow = Selectable<PriceRulesTable>;
export type NewBranchRow = Insertable<BranchesTable>;
export type NewSlotRow = Insertable<SlotsTable>;

export async function findBranch(db: Db, branchId: number): Promise<BranchRow | undefined> {
  return db.selectFrom('branches').selectAll().where('id', '=', branchId).executeTakeFirst();
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

/** Deletes a price rule; answers its branch, or undefined when there was none. */
export async function deletePriceRule(db: Db, ruleId: number): Promise<number | undefined> {
  const row = await db
    .deleteFrom('price_rules')
    .where('id', '=', ruleId)
    .returning('branch_id')
    .executeTakeFirst();
  return row?.branch_id;
}

export async function updateCachedPrices(
  db: Db,
  branchId: number,
  prices: { minCents: number; maxCents: number },
): Promise<void> {
  await updateBranch(db, branchId, { min_price_cents: prices.minCents, max_price_cents: prices.maxCents });
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
// table, cost the database a third of the query): the day's live bookings by slot id, one probe of
// bookings_one_live_per_slot (same partial predicate) that stays flat however many bookings there are, and the
// branch's closures in force as periods.
const LIST_SLOTS_ON_DATE = preparedStatement(
  'list_slots_on_date',
  `
select branch.time_zone, branch.active_with_smart_lock, (
  select json_agg(json_build_array(
    slot.id,
    date_part('epoch', slot.start_time) * 1000,
    date_part('epoch', slot.end_time) * 1000,
    slot.price_cents,
    slot.id = any (array(
      select booking.slot_id from bookings as booking
      where booking.slot_id = any (array(
          select day.id from slots as day where day.branch_id = $1 and day.local_date = $2))
        and booking.status in ('pending', 'confirmed')
        and (booking.status = 'confirmed' or booking.hold_expires_at > $3)
    )) or tstzrange(slot.start_time, slot.end_time, '[)') && any (array(
      select tstzrange(closure.starts_at, closure.ends_at, '[)') from branch_closures as closure
      where closure.branch_id = $1 and closure.reopened_at is null
    ))
  ) order by slot.start_time)
  from slots as slot
  where slot.branch_id = $1 and slot.local_date = $2
) as slots
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
