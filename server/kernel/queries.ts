import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { BookingsTable } from '../db/schema.ts';
import type { Database, Db } from '../db/database.ts';

// Statements every repository writes alike, written once. `db` is the caller's transaction (or the pool).

/** The tables whose rows are known by an `id` column. */
type TableWithId = { [T in keyof Database]: 'id' extends keyof Database[T] ? T : never }[keyof Database];
type RowId<T extends TableWithId> = Selectable<Database[T]>['id' & keyof Selectable<Database[T]>];

// Kysely cannot check a statement over a table chosen by a type parameter; the helpers' signatures check
// the table, its columns and their values, and run the statement through this view.
function updateAnyTable(db: Db, table: string) {
  return (db as unknown as Kysely<Record<string, Record<string, unknown>>>).updateTable(table);
}

/** Sets these columns on the row with this id. */
export async function updateById<T extends TableWithId>(
  db: Db,
  table: T,
  id: RowId<T>,
  values: Updateable<Database[T]>,
): Promise<void> {
  await updateAnyTable(db, table).set(values).where('id', '=', id).execute();
}

/**
 * Sets a column, on the rows whose columns equal `match`, where it is still null: a compare-and-set (of two
 * callers only the first sets it), to consume, retire or stamp once. Answers how many rows this call set.
 */
export async function setWhereStillNull<
  T extends keyof Database,
  C extends keyof Updateable<Database[T]> & string,
>(
  db: Db,
  table: T,
  match: Partial<Selectable<Database[T]>>,
  column: C,
  value: NonNullable<Updateable<Database[T]>[C]>,
): Promise<number> {
  let query = updateAnyTable(db, table).set({ [column]: value });
  for (const [matchColumn, matchValue] of Object.entries(match)) {
    query = query.where(matchColumn, '=', matchValue);
  }
  const result = await query.where(column, 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Locks door codes in id order. Every transaction that releases or re-codes a booking locks the booking's code
 * before the booking itself (the one lock order of door codes), so two releases of one shared code serialize: the
 * second reads the bookings the first left live, never a snapshot from before it (docs/decisions.md).
 */
export async function lockLockCodes(
  db: Db,
  lockCodeIds: readonly (number | null)[],
  options: { skipLocked?: boolean } = {},
): Promise<number[]> {
  const ids = [...new Set(lockCodeIds.filter((id): id is number => id !== null))].sort((a, b) => a - b);
  if (ids.length === 0) return [];
  let query = db.selectFrom('lock_codes').select('id').where('id', 'in', ids).orderBy('id').forUpdate();
  if (options.skipLocked) query = query.skipLocked();
  return (await query.execute()).map((row) => row.id);
}

/**
 * Locks booking rows after their door codes: `codeIdsOf` reads (without locking) the codes of the bookings
 * `lockRows` will lock; those codes are locked first, then the rows. A row whose code changed in between (a
 * release re-coded it, a payment gave it one) gives its rows back (a savepoint undone), has that code locked,
 * and the rows are locked again: no code is ever waited for while a booking row is held.
 */
export async function lockBookingsAfterCodes<Row extends { lock_code_id: number | null }>(
  db: Db,
  codeIdsOf: () => Promise<readonly (number | null)[]>,
  lockRows: () => Promise<Row[]>,
): Promise<Row[]> {
  const locked = new Set<number>();
  let wanted = await codeIdsOf();
  for (let round = 0; ; round += 1) {
    for (const id of await lockLockCodes(
      db,
      wanted.filter((id) => id !== null && !locked.has(id)),
    ))
      locked.add(id);
    // Outside a transaction (a plain read) a row lock ends with its statement anyway.
    const undoable = db.isTransaction && round < 3;
    if (undoable) await sql`savepoint lock_bookings_after_codes`.execute(db);
    const rows = await lockRows();
    const unlocked = rows.filter((row) => row.lock_code_id !== null && !locked.has(row.lock_code_id));
    if (unlocked.length === 0 || !undoable) {
      if (undoable) await sql`release savepoint lock_bookings_after_codes`.execute(db);
      // Past the rounds a release still locks the code before reading it: nothing is read unlocked.
      return rows;
    }
    // Row locks taken after a savepoint end when it is rolled back to; the codes' locks, taken before, stay.
    await sql`rollback to savepoint lock_bookings_after_codes`.execute(db);
    wanted = unlocked.map((row) => row.lock_code_id);
  }
}

/** Bookings (`booking`) with their branch (`branch`). */
export function bookingsWithBranch(db: Db) {
  return db
    .selectFrom('bookings as booking')
    .innerJoin('branches as branch', 'branch.id', 'booking.branch_id');
}

/** Sets the same columns on each of these bookings; none given, nothing happens. */
export async function setOnBookings(
  db: Db,
  bookingIds: readonly number[],
  values: Updateable<BookingsTable>,
): Promise<void> {
  if (bookingIds.length === 0) return;
  await db
    .updateTable('bookings')
    .set(values)
    .where('id', 'in', [...bookingIds])
    .execute();
}
