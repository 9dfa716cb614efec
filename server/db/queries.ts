import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, Db } from './database.ts';

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
