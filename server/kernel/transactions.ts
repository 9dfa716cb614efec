import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../db/database.ts';
import { sqlState, SQLSTATE } from './sql-state.ts';

// A deadlock or a serialization failure is PostgreSQL undoing one transaction so that others can go on: nothing
// of it was kept, and the same work run again usually succeeds. Such a failure is retried here, inside the
// server, rather than answered to the caller (docs/decisions.md, "Transient database errors").

/** Where each retry is reported: a Fastify or pino logger fits. */
export type TransactionRetryLog = { warn(details: object, message: string): void };

export type TransactionOptions = {
  /** What the transaction does, for the log. */
  name?: string;
  log?: TransactionRetryLog | null;
};

/** Tries in all, the first one included. */
export const TRANSACTION_TRIES = 4;

/** The longest wait before a retry. */
const MAX_BACKOFF_MS = 100;

/** A failure PostgreSQL raises to break a conflict between transactions; the transaction rolled back whole. */
export function isTransientTransactionFailure(error: unknown): boolean {
  const state = sqlState(error);
  return state === SQLSTATE.serializationFailure || state === SQLSTATE.deadlockDetected;
}

/**
 * Before retry `retry` (1, 2, ...): 5-10 ms, then 15-30 ms, then 45-90 ms (capped at 100 ms). The random half
 * keeps two transactions that just deadlocked from meeting again at the same moment.
 */
function backoffMs(retry: number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, 10 * 3 ** (retry - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/**
 * Runs `work` in a transaction and answers its result. When PostgreSQL ends the transaction with a deadlock
 * (40P01) or a serialization failure (40001), the whole transaction is run again, up to TRANSACTION_TRIES times
 * in all, after a short random wait; the last failure is thrown. Every other error is thrown at once.
 *
 * Only what escapes the transaction is seen: an error `work` handled itself (in a savepoint, say) is not retried.
 * `work` must therefore be safe to run again from the start: everything it wrote was rolled back, but a call it
 * made outside the database (a payment provider's) was not, and must be idempotent (keyed).
 *
 * When `db` is already a transaction, `work` runs inside it without retries: only the outermost transaction can
 * be run again, and it will be.
 */
export async function runTransaction<T>(
  db: Db,
  options: TransactionOptions,
  work: (trx: Db) => Promise<T>,
): Promise<T> {
  if (db.isTransaction) return work(db);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt >= TRANSACTION_TRIES || !isTransientTransactionFailure(error)) throw error;
      const waitMs = backoffMs(attempt);
      options.log?.warn(
        {
          transaction: options.name,
          sqlState: sqlState(error),
          attempt,
          retryInMs: Math.round(waitMs),
        },
        'a transaction ran into a concurrent one and was rolled back; running it again',
      );
      await sleep(waitMs);
    }
  }
}

/**
 * Runs `work` inside the caller's transaction when `db` is one, else in a transaction of its own, run again after a
 * deadlock (runTransaction).
 */
export function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return runTransaction(db, {}, work);
}
