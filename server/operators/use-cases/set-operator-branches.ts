import { recordAudit, type Actor } from '../../kernel/audit.ts';
import { dateFromInstant, type Clock } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../kernel/errors.ts';
import { branchIdsView, branchScopeOf, type BranchScope } from '../branches.ts';
import * as repository from '../repository.ts';

// Limiting a staff member to some branches, or giving them every branch again (null), for the console
// (PUT /admin/operators/{id}/branches, owners only) and the CLI (`operator branches`) alike, audited in the
// caller's transaction. An owner always has every branch: limiting one is refused rather than silently ignored.

export type SetOperatorBranchesInput = {
  actor: Actor;
  operatorId: number;
  /** null: every branch. */
  branchIds: readonly number[] | null;
};

/** Answers the operator's branches as they now are. */
export async function setOperatorBranches(
  trx: Db,
  deps: { clock: Clock },
  input: SetOperatorBranchesInput,
): Promise<BranchScope> {
  const operator = await repository.findLiveOperator(trx, input.operatorId, { lock: true });
  if (!operator) throw new AppError('operator_not_found');
  const wanted = [...new Set(input.branchIds ?? [])].sort((a, b) => a - b);
  if (operator.role === 'owner' && input.branchIds !== null) throw new AppError('owner_has_all_branches');
  if (input.branchIds !== null && wanted.length === 0) {
    throw new AppError('validation_failed', { problems: 'branch_ids: at least one branch, or null for all' });
  }
  if ((await repository.unknownBranchIds(trx, wanted)).length > 0) throw new AppError('branch_not_found');
  const before = branchScopeOf(
    operator,
    (await repository.branchesOfOperators(trx, [operator.id])).get(operator.id) ?? [],
  );
  await repository.replaceOperatorBranches(trx, operator.id, wanted);
  const after = branchScopeOf(operator, wanted);
  await recordAudit(
    trx,
    input.actor,
    {
      action: 'operator.set_branches',
      entityType: 'operator',
      entityId: operator.id,
      before: { branch_ids: branchIdsView(before) },
      after: { branch_ids: branchIdsView(after) },
    },
    dateFromInstant(deps.clock.now()),
  );
  return after;
}
