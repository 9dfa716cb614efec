import type { Actor } from '../kernel/audit.ts';
import type { Db } from '../db/database.ts';
import { AppError, type ErrorCode } from '../kernel/errors.ts';
import { runTransaction } from '../kernel/transactions.ts';
import { actorOf, UsageError, type AdminContext } from './command.ts';

/**
 * Runs a use case in a transaction of its own, as the CLI's actor: the use case writes its audit row itself. A
 * refusal `words` names is said in the operator's words, with its code (exit 2); any other goes on as it is.
 */
export async function runChange<T>(
  context: AdminContext,
  work: (trx: Db, actor: Actor) => Promise<T>,
  words: Partial<Record<ErrorCode, string>> = {},
): Promise<T> {
  const actor = actorOf(context);
  return inWords(() => runTransaction(context.db, { name: 'admin' }, (trx) => work(trx, actor)), words);
}

/** Runs `work`; a refusal `words` names is said in the operator's words, with its code (exit 2). */
export async function inWords<T>(
  work: () => Promise<T>,
  words: Partial<Record<ErrorCode, string>>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const said = error instanceof AppError ? words[error.code] : undefined;
    if (said === undefined) throw error;
    throw new UsageError(`${said} (${(error as AppError).code})`);
  }
}
