import { recordAudit, type Actor } from '../../kernel/audit.ts';
import { dateFromInstant, type Clock } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../kernel/errors.ts';
import { centsToEuros } from '../../kernel/money.ts';
import {
  MAX_STAFF_REFUND_CEILING_CENTS,
  readStaffRefundCeiling,
  STAFF_REFUND_CEILING_KEY,
  writeStaffRefundCeiling,
} from '../refund-approvals.ts';

// Setting the staff refund ceiling (issue 32, item 2): the most a staff member refunds on a cancellation without
// an owner's approval. One use case for the console (PUT /admin/refund-ceiling) and the CLI (`approvals ceiling`),
// audited in the caller's transaction. It applies to the next cancellation; requests already made keep waiting.

export type SetStaffRefundCeilingInput = { actor: Actor; ceilingCents: number };

/** Answers the ceiling as stored, in cents. */
export async function setStaffRefundCeiling(
  trx: Db,
  deps: { clock: Clock },
  input: SetStaffRefundCeilingInput,
): Promise<number> {
  const cents = input.ceilingCents;
  if (!Number.isInteger(cents) || cents < 0 || cents > MAX_STAFF_REFUND_CEILING_CENTS) {
    throw new AppError(
      'validation_failed',
      { problems: `the ceiling is whole cents from 0 to ${MAX_STAFF_REFUND_CEILING_CENTS}` },
      { fields: [{ field: 'staff_refund_ceiling_eur', problem: 'invalid' }] },
    );
  }
  const before = await readStaffRefundCeiling(trx);
  await writeStaffRefundCeiling(trx, cents);
  await recordAudit(
    trx,
    input.actor,
    {
      action: 'refund_ceiling.set',
      entityType: 'setting',
      entityId: STAFF_REFUND_CEILING_KEY,
      before: { staff_refund_ceiling_eur: centsToEuros(before) },
      after: { staff_refund_ceiling_eur: centsToEuros(cents) },
    },
    dateFromInstant(deps.clock.now()),
  );
  return cents;
}
