import { recordAudit, type Actor } from '../../kernel/audit.ts';
import { dateFromInstant, type Clock } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import type { RefundRatios } from '../../db/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import {
  readRefundRatios,
  REFUND_RATIOS_KEY,
  refundPolicySchema,
  writeRefundRatios,
} from '../refund-ratios.ts';

// Setting the refund policy of bookings made from now on (bookings made before keep theirs), for the console
// (PUT /admin/refund-policy) and the CLI (`refund-ratios set`) alike, with its audit row in the caller's
// transaction.

export type SetRefundRatiosInput = {
  actor: Actor;
  /** Whole hours before the start -> the fraction refunded from then on; a "0" threshold is required. */
  ratios: unknown;
};

/** Answers the policy as stored. */
export async function setRefundRatios(
  trx: Db,
  deps: { clock: Clock },
  input: SetRefundRatiosInput,
): Promise<RefundRatios> {
  const checked = refundPolicySchema.safeParse(input.ratios);
  if (!checked.success) {
    throw new AppError(
      'validation_failed',
      {
        problems: checked.error.issues
          .map((issue) =>
            issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
          )
          .join('; '),
      },
      { fields: [{ field: 'thresholds', problem: 'invalid' }] },
    );
  }
  const before = await readRefundRatios(trx);
  const after = await writeRefundRatios(trx, checked.data);
  await recordAudit(
    trx,
    input.actor,
    { action: 'refund_policy.set', entityType: 'refund_policy', entityId: REFUND_RATIOS_KEY, before, after },
    dateFromInstant(deps.clock.now()),
  );
  return after;
}
