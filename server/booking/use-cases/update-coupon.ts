import { recordAudit, type Actor } from '../../kernel/audit.ts';
import { dateFromInstant, type Clock } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../kernel/errors.ts';
import * as repository from '../coupons/repository.ts';
import {
  checkCouponSettings,
  givenSettings,
  normaliseCouponCode,
  readAdminCoupon,
  type CouponSettings,
} from '../coupons/service.ts';

// Changing a coupon, for the console (PUT /admin/coupons/{code}) and the CLI (`coupon update`) alike: in the
// caller's transaction it changes the settings given (null lifts a limit), by the same rules as a new coupon's,
// and writes its audit row with the coupon before and after.

export type UpdateCouponInput = {
  actor: Actor;
  /** As typed: codes are case-insensitive. */
  code: string;
  changes: Partial<CouponSettings>;
};

/** Answers the code as stored. */
export async function updateCoupon(
  trx: Db,
  deps: { clock: Clock },
  input: UpdateCouponInput,
): Promise<string> {
  const now = dateFromInstant(deps.clock.now());
  const coupon = await repository.findCouponByCode(trx, normaliseCouponCode(input.code));
  if (!coupon) throw new AppError('coupon_not_found');
  const changes = givenSettings(input.changes);
  checkCouponSettings({ valid_from: coupon.valid_from, valid_until: coupon.valid_until, ...changes });
  const before = await readAdminCoupon(trx, coupon, now);
  await repository.updateCoupon(trx, coupon.id, changes);
  const after = await readAdminCoupon(trx, (await repository.findCouponByCode(trx, coupon.code))!, now);
  await recordAudit(
    trx,
    input.actor,
    { action: 'coupon.update', entityType: 'coupon', entityId: coupon.code, before, after },
    now,
  );
  return coupon.code;
}
