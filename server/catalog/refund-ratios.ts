import { z } from 'zod';
import type { Db } from '../db/database.ts';
import type { RefundRatios } from '../db/schema.ts';
import { readSetting, writeSetting } from './settings-repository.ts';

export const REFUND_RATIOS_KEY = 'refund_ratios';

/** The policy in force until an operator sets one: full refund from 48 h before start, half from 24 h. */
const DEFAULT_REFUND_RATIOS: RefundRatios = { '48': 1, '24': 0.5, '0': 0 };

const refundRatiosSchema = z
  .record(z.string().regex(/^\d+$/, 'an hour threshold is a whole number of hours'), z.number().min(0).max(1))
  .refine((ratios) => Object.keys(ratios).length > 0, 'at least one threshold is needed');

export async function readRefundRatios(db: Db): Promise<RefundRatios> {
  const stored = await readSetting(db, REFUND_RATIOS_KEY);
  return stored === undefined ? DEFAULT_REFUND_RATIOS : refundRatiosSchema.parse(stored);
}

/** A policy must say what is refunded just before the start: its "0" threshold. */
export const refundPolicySchema = refundRatiosSchema.refine(
  (ratios) => '0' in ratios,
  'the ratios need a "0" threshold (the refund just before the start)',
);

/** Sets the policy of bookings made from now on; answers it as stored. */
export async function writeRefundRatios(db: Db, ratios: unknown): Promise<RefundRatios> {
  const policy = refundPolicySchema.parse(ratios);
  await writeSetting(db, REFUND_RATIOS_KEY, policy);
  return policy;
}
