import { z } from 'zod';
import { createCoupon, createCouponService, updateCoupon } from '../../booking/index.ts';
import { runChange } from '../change.ts';
import {
  activation,
  activationOptions,
  argument,
  BOTH_ACTIVATIONS,
  decimal,
  defineCommand,
  instant,
  listCommand,
  orNone,
  refuseBothActivations,
  wholeNumber,
} from '../command.ts';

const cap = () => wholeNumber({ min: 1 });

type CouponOptions = {
  discount?: number;
  'valid-from'?: Date;
  'valid-until'?: Date | null;
  'max-uses'?: number | null;
  'max-uses-per-user'?: number | null;
  'registered-before'?: Date | null;
  active?: boolean;
  inactive?: boolean;
};

/** The options given, as the coupon service names them. */
function couponSettings(input: CouponOptions) {
  return {
    discount: input.discount,
    valid_from: input['valid-from'],
    valid_until: input['valid-until'],
    max_redemptions: input['max-uses'],
    max_redemptions_per_user: input['max-uses-per-user'],
    registered_before: input['registered-before'],
    active: activation(input),
  };
}

export const couponCommands = {
  'coupon list': listCommand({
    usage: 'coupon list [--json]',
    summary: 'Lists coupons with their discount, window and caps.',
    async list({ db, clock }) {
      const coupons = await createCouponService({ db, clock }).listCoupons();
      return coupons.map((coupon) => ({
        code: coupon.code,
        discount: coupon.discount,
        valid_from: coupon.valid_from,
        valid_until: coupon.valid_until,
        max_uses: coupon.max_redemptions,
        max_uses_per_user: coupon.max_redemptions_per_user,
        registered_before: coupon.registered_before,
        active: coupon.active,
      }));
    },
  }),

  'coupon create': defineCommand({
    usage:
      'coupon create <CODE> --discount <fraction> [--valid-from <when>] [--valid-until <when>] [--max-uses <n>] [--max-uses-per-user <n>] [--registered-before <when>] [--inactive]',
    summary: 'Adds a coupon (codes are case-insensitive, stored upper-case).',
    schema: z
      .object({
        args: z.tuple([argument('the coupon code')]),
        discount: decimal(),
        'valid-from': instant().optional(),
        'valid-until': instant().optional(),
        'max-uses': cap().optional(),
        'max-uses-per-user': cap().optional(),
        'registered-before': instant().optional(),
        ...activationOptions,
      })
      .refine(refuseBothActivations, BOTH_ACTIVATIONS),
    async run(input, context) {
      const code = await runChange(
        context,
        (trx, actor) =>
          createCoupon(trx, context, {
            actor,
            code: input.args[0],
            settings: { ...couponSettings(input), discount: input.discount },
          }),
        { coupon_exists: `coupon ${input.args[0].trim().toUpperCase()} exists already` },
      );
      context.io.out(`created coupon ${code}`);
    },
  }),

  'coupon update': defineCommand({
    usage:
      'coupon update <CODE> [--discount <fraction>] [--valid-from <when>] [--valid-until <when>|none] [--max-uses <n>|none] [--max-uses-per-user <n>|none] [--registered-before <when>|none] [--active|--inactive]',
    summary: 'Changes a coupon; `none` lifts a limit.',
    schema: z
      .object({
        args: z.tuple([argument('the coupon code')]),
        discount: decimal().optional(),
        'valid-from': instant().optional(),
        'valid-until': orNone(instant()).optional(),
        'max-uses': orNone(cap()).optional(),
        'max-uses-per-user': orNone(cap()).optional(),
        'registered-before': orNone(instant()).optional(),
        ...activationOptions,
      })
      .refine(refuseBothActivations, BOTH_ACTIVATIONS),
    async run(input, context) {
      const [code] = input.args;
      const updated = await runChange(
        context,
        (trx, actor) => updateCoupon(trx, context, { actor, code, changes: couponSettings(input) }),
        { coupon_not_found: `there is no coupon ${code.trim().toUpperCase()}` },
      );
      context.io.out(`updated coupon ${updated}`);
    },
  }),
};
