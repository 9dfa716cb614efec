import { assign } from 'xstate';
import type { AdminCoupon, AdminCouponCreate } from './adminConsole.actors.ts';
import { failedBackTo } from './adminErrors.ts';
import { adminMachineSetup } from './adminMachine.ts';
import type { Feedback } from './feedback.ts';
import { placeholder } from './placeholder.ts';
import { machineTypes } from './machine-types.ts';
import { withField } from './form-fields.ts';

/** The new-coupon form as the owner types it: the last day ('YYYY-MM-DD') and the limits may stay empty. */
export type CouponFields = { code: string; percent: string; until: string; maxUses: string; perUser: string };

export type AdminCouponContext = { fields: CouponFields; error: Feedback | null };

export type AdminCouponEvent =
  { type: 'field.change'; field: keyof CouponFields; value: string } | { type: 'coupon.create' };

const positiveInteger = (value: string) =>
  /^\d{1,7}$/.test(value) && Number(value) > 0 ? Number(value) : null;

/** The coupon the fields say (active, valid to the end of its last day in UTC), or null while they say none. */
export function couponOf(fields: CouponFields): AdminCouponCreate | null {
  const { code, percent, until, maxUses, perUser } = fields;
  const discount = /^\d{1,2}$|^100$/.test(percent) && Number(percent) > 0 ? Number(percent) / 100 : null;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(code) || discount === null) return null;
  if (
    (maxUses !== '' && positiveInteger(maxUses) === null) ||
    (perUser !== '' && positiveInteger(perUser) === null)
  )
    return null;
  return {
    code,
    discount,
    valid_until: until === '' ? null : new Date(`${until}T23:59:59Z`).toISOString(),
    max_uses: maxUses === '' ? null : positiveInteger(maxUses),
    max_uses_per_user: perUser === '' ? null : positiveInteger(perUser),
    active: true,
  };
}

/**
 * The console's new-coupon form (owners): creating empties the code and the discount for the next coupon (the
 * last day and the limits stay), and the page reloads its list (`created`). A failure stays on the form with its
 * error.
 */
export const adminCouponMachine = adminMachineSetup({
  types: machineTypes<AdminCouponContext, AdminCouponEvent>(),
  calls: { createCoupon: placeholder<AdminCoupon, AdminCouponCreate>('createCoupon') },
  reports: 'created',
  fallback: 'generic',
  guards: { isCoupon: ({ context }) => couponOf(context.fields) !== null },
}).createMachine({
  id: 'adminCoupon',
  context: { fields: { code: '', percent: '', until: '', maxUses: '', perUser: '' }, error: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'field.change': {
          actions: assign({
            fields: ({ context, event }) => withField(context.fields, event),
          }),
        },
        'coupon.create': { guard: 'isCoupon', target: 'creating' },
      },
    },
    creating: {
      entry: assign({ error: null }),
      invoke: {
        id: 'createCoupon',
        src: 'createCoupon',
        input: ({ context }) => couponOf(context.fields)!,
        onDone: {
          target: 'editing',
          actions: [
            assign({ fields: ({ context }) => ({ ...context.fields, code: '', percent: '' }) }),
            'created',
          ],
        },
        onError: failedBackTo('editing'),
      },
    },
  },
});
