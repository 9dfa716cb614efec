import { recordAudit, type Actor } from '../../kernel/audit.ts';
import { dateFromInstant } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import { readAdminBranch } from '../admin-branch.ts';
import * as repository from '../repository.ts';
import { createBranchService, type BranchChanges } from '../service.ts';
import { refusingTakenSlug, type BranchChangeDependencies } from './create-branch.ts';

// Changing a branch, for the console (PUT /admin/branches/{id}) and the CLI (`branch update`) alike: in the
// caller's transaction it changes the fields given (descriptions merged per language, the gallery replaced),
// remaps its doors when given, and writes its audit row with the branch before and after. Prices change through
// their own use case (set-price-grid.ts).

export type UpdateBranchInput = {
  actor: Actor;
  branchId: number;
  changes: BranchChanges;
  /** The branch's doors, replacing those mapped ([] clears them); left as they are when absent. */
  lockDevices?: readonly string[];
  /** The branch's VAT rate (a fraction; null: the server's `VAT_RATE`); left as it is when absent. */
  vatRate?: number | null;
  /** How many guests a member may add to a booking (issue 31); left as it is when absent. */
  guestLimit?: number;
};

/** How far the branch's slots were generated before the change: those keep their times. */
export type UpdateBranchResult = { slotsGeneratedUntil: string | null };

export async function updateBranch(
  trx: Db,
  deps: BranchChangeDependencies,
  input: UpdateBranchInput,
): Promise<UpdateBranchResult> {
  const before = await readAdminBranch(trx, input.branchId);
  if (Object.values(input.changes).some((value) => value !== undefined)) {
    const branches = createBranchService({ ...deps, db: trx });
    await refusingTakenSlug(() => branches.updateBranch(input.branchId, input.changes));
  }
  if (input.lockDevices) await deps.mapDoors(trx, input.branchId, input.lockDevices);
  // Payments recorded from now on take it; the ledger's rows keep the rate they were written with.
  if (input.vatRate !== undefined)
    await repository.updateBranch(trx, input.branchId, { vat_rate: input.vatRate });
  // Guests already on bookings stay; the limit applies to the next ones added.
  if (input.guestLimit !== undefined)
    await repository.updateBranch(trx, input.branchId, { guest_limit: input.guestLimit });
  await recordAudit(
    trx,
    input.actor,
    {
      action: 'branch.update',
      entityType: 'branch',
      entityId: input.branchId,
      before,
      after: await readAdminBranch(trx, input.branchId),
    },
    dateFromInstant(deps.clock.now()),
  );
  return { slotsGeneratedUntil: before.slots_generated_until };
}
