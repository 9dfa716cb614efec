import { recordAudit, type Actor } from '../../kernel/audit.ts';
import { dateFromInstant, type Clock } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import { sqlState, SQLSTATE } from '../../kernel/database-errors.ts';
import { AppError } from '../../kernel/errors.ts';
import * as repository from '../coupons/repository.ts';
import {
  checkCouponSettings,
  givenSettings,
  invalidCoupon,
  normaliseCouponCode,
  readAdminCoupon,
  type CouponSettings,
} from '../coupons/service.ts';

// Adding a coupon, for the console (POST /admin/coupons) and the CLI (`coupon create`) alike: in the caller's
// transaction it refuses a code taken (409 coupon_exists) or not of the codes' form, checks the settings, stores
// the coupon (valid from now, no caps, active, unless said otherwise) and writes its audit row.

const COUPON_CODE = /^[A-Z0-9_-]{2,40}$/;

export type CreateCouponInput = {
  actor: Actor;
  /** As typed: codes are case-insensitive, stored upper-case. */
  code: string;
  settings: Pick<CouponSettings, 'discount'> & Partial<CouponSettings>;
};

/** Answers the code as stored. */
export async function createCoupon(
  trx: Db,
  deps: { clock: Clock },
  input: CreateCouponInput,
): Promise<string> {
  const now = dateFromInstant(deps.clock.now());
  const code = normaliseCouponCode(input.code);
  if (await repository.findCouponByCode(trx, code)) throw new AppError('coupon_exists');
  if (!COUPON_CODE.test(code))
    throw invalidCoupon('a coupon code is 2 to 40 letters, digits, - or _', 'code');
  const settings: CouponSettings = {
    valid_from: now,
    valid_until: null,
    max_redemptions: null,
    max_redemptions_per_user: null,
    registered_before: null,
    active: true,
    ...givenSettings(input.settings),
    discount: input.settings.discount,
  };
  checkCouponSettings(settings);
  try {
    await repository.insertCoupon(trx, { code, ...settings });
  } catch (error) {
    // Added by someone else since it was looked for.
    if (sqlState(error) === SQLSTATE.uniqueViolation) throw new AppError('coupon_exists');
    throw error;
  }
  const after = await readAdminCoupon(trx, (await repository.findCouponByCode(trx, code))!, now);
  await recordAudit(
    trx,
    input.actor,
    { action: 'coupon.create', entityType: 'coupon', entityId: code, after },
    now,
  );
  return code;
}
