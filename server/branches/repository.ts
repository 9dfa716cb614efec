import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
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

export async function insertPriceRules(db: Db, rules: readonly Omit<PriceRuleRow, 'id'>[]): Promise<void> {
  if (rules.length === 0) return;
  await db
    .insertInto('price_rules')
    .values([...rules])
    .execute();
}

export async function updateCachedPrices(
  db: Db,
  branchId: number,
  prices: { minCents: number; maxCents: number },
): Promise<void> {
  await db
    .updateTable('branches')
    .set({ min_price_cents: prices.minCents, max_price_cents: prices.maxCents })
    .where('id', '=', branchId)
    .execute();
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

export type SlotAvailabilityRow = {
  id: number;
  start_time: Date;
  end_time: Date;
  price_cents: number;
  taken: boolean;
  /** The branch's, on every row, so one round trip serves the listing. */
  time_zone: string;
  active_with_smart_lock: boolean;
};

/**
 * The slots starting on a branch-local date, each marked `taken` when a live booking of the branch
 * overlaps it: a confirmed one, or a pending one whose hold has not expired at `now`.
 */
export async function listSlotsOnDate(
  db: Db,
  branchId: number,
  localDate: string,
  now: Date,
): Promise<SlotAvailabilityRow[]> {
  return db
    .selectFrom('slots as slot')
    .innerJoin('branches as branch', 'branch.id', 'slot.branch_id')
    .select([
      'slot.id',
      'slot.start_time',
      'slot.end_time',
      'slot.price_cents',
      'branch.time_zone',
      'branch.active_with_smart_lock',
    ])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('bookings as booking')
            .select(sql.lit(1).as('one'))
            .whereRef('booking.branch_id', '=', 'slot.branch_id')
            // The same predicate as the no-overlap constraint's, so its GiST index serves this lookup.
            .where('booking.status', 'in', ['pending', 'confirmed'])
            .where(
              sql<boolean>`tstzrange(booking.start_time, booking.end_time, '[)') && tstzrange(slot.start_time, slot.end_time, '[)')`,
            )
            .where((inner) =>
              inner.or([
                inner('booking.status', '=', 'confirmed'),
                inner('booking.hold_expires_at', '>', now),
              ]),
            ),
        )
        .$castTo<boolean>()
        .as('taken'),
    )
    .where('slot.branch_id', '=', branchId)
    .where('slot.local_date', '=', localDate)
    .orderBy('slot.start_time')
    .execute();
}
