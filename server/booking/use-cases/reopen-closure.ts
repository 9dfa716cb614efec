import { recordAudit, type Actor } from '../../kernel/audit.ts';
import { dateFromInstant, type Clock } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../kernel/errors.ts';
import * as repository from '../repository.ts';

// Lifting a closure (the console's POST /admin/closures/{id}/reopen): its slots are bookable again from now on;
// the bookings it cancelled stay cancelled. Once only; audited.

export type ReopenClosureInput = { actor: Actor; closureId: number };

export async function reopenClosure(
  trx: Db,
  deps: { clock: Clock },
  input: ReopenClosureInput,
): Promise<void> {
  const at = dateFromInstant(deps.clock.now());
  const closure = await repository.lockClosure(trx, input.closureId);
  if (!closure) throw new AppError('closure_not_found');
  if (closure.reopened_at !== null) throw new AppError('closure_reopened');
  await repository.setClosureReopened(trx, closure.id, at);
  await recordAudit(
    trx,
    input.actor,
    {
      action: 'closure.reopen',
      entityType: 'closure',
      entityId: closure.id,
      before: { reopened_at: null },
      after: { reopened_at: at.toISOString() },
    },
    at,
  );
}
