import { recordAudit, type Actor } from '../../kernel/audit.ts';
import { dateFromInstant, type Clock } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import { sqlState, SQLSTATE } from '../../kernel/database-errors.ts';
import { AppError } from '../../kernel/errors.ts';
import { readAdminBranch } from '../admin-branch.ts';
import { createBranchService, newBranchDefinition, type NewBranch } from '../service.ts';

// Adding a branch, for the console (POST /admin/branches) and the CLI (`branch create`) alike: in the caller's
// transaction it checks and stores the branch (links, descriptions sanitised, a slug of its own), maps its doors,
// generates its slots and writes its audit row.

/** Maps a branch's doors (the doors module's, given by the caller: that module comes after the catalog). */
export type MapBranchDoors = (trx: Db, branchId: number, deviceIds: readonly string[]) => Promise<unknown>;

export type BranchChangeDependencies = {
  clock: Clock;
  /** How many branch-local days, today included, have slots. */
  horizonDays: number;
  /** Whether map and image links may be plain `http:` (outside production). */
  allowPlainHttp?: boolean;
  mapDoors: MapBranchDoors;
};

export type CreateBranchInput = {
  actor: Actor;
  branch: NewBranch;
  /** The branch's doors, as the lock provider's device ids; none mapped when absent. */
  lockDevices?: readonly string[];
};

/** The slug is the branch's address on the landing: a second branch cannot take it (409 branch_slug_taken). */
export async function refusingTakenSlug<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (sqlState(error) === SQLSTATE.uniqueViolation) throw new AppError('branch_slug_taken');
    throw error;
  }
}

/** Answers the new branch's id. */
export async function createBranch(
  trx: Db,
  deps: BranchChangeDependencies,
  input: CreateBranchInput,
): Promise<number> {
  const branches = createBranchService({ ...deps, db: trx });
  const branchId = await refusingTakenSlug(() => branches.createBranch(newBranchDefinition(input.branch)));
  if (input.lockDevices) await deps.mapDoors(trx, branchId, input.lockDevices);
  await branches.ensureSlotHorizonOf(branchId);
  await recordAudit(
    trx,
    input.actor,
    {
      action: 'branch.create',
      entityType: 'branch',
      entityId: branchId,
      after: await readAdminBranch(trx, branchId),
    },
    dateFromInstant(deps.clock.now()),
  );
  return branchId;
}
