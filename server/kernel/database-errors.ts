import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { sqlState, SQLSTATE } from './sql-state.ts';

// PostgreSQL's answers that the rules in the schema refused a row, and a way to try a statement that may be
// refused without losing the transaction around it.

export { sqlState, SQLSTATE };

/** A unique or exclusion constraint refused the row: someone else holds what this row wanted. */
export function isConflict(error: unknown): boolean {
  const state = sqlState(error);
  return state === SQLSTATE.uniqueViolation || state === SQLSTATE.exclusionViolation;
}

export const REFUSED = Symbol('refused by a constraint');

/**
 * Runs `work` inside a savepoint: when a unique or exclusion constraint refuses it, only `work` is undone and
 * REFUSED is answered, so the transaction can try something else (another code, say).
 */
export async function attemptInSavepoint<T>(trx: Db, work: () => Promise<T>): Promise<T | typeof REFUSED> {
  await sql`savepoint attempt`.execute(trx);
  try {
    const result = await work();
    await sql`release savepoint attempt`.execute(trx);
    return result;
  } catch (error) {
    if (!isConflict(error)) throw error;
    await sql`rollback to savepoint attempt`.execute(trx);
    return REFUSED;
  }
}
