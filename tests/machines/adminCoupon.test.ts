import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { AdminCoupon, AdminCouponCreate } from '../../machines/adminConsole.actors.ts';
import { adminCouponMachine, couponOf, type CouponFields } from '../../machines/adminCoupon.machine.ts';
import { ApiError } from '../../machines/api.ts';
import { formCall } from './adminForms.ts';

const empty: CouponFields = { code: '', percent: '', until: '', maxUses: '', perUser: '' };

/** The coupon as the server stores it. */
function stored(input: AdminCouponCreate): AdminCoupon {
  return {
    code: input.code,
    discount: input.discount,
    valid_from: '2026-11-24T04:00:00Z',
    valid_until: input.valid_until ?? null,
    max_uses: input.max_uses ?? null,
    max_uses_per_user: input.max_uses_per_user ?? null,
    registered_before: null,
    active: true,
    uses: 0,
  };
}

function start(answer: (input: AdminCouponCreate) => Promise<AdminCoupon>) {
  const call = formCall(answer);
  const actor = createActor(
    adminCouponMachine.provide({ actors: { createCoupon: call.logic }, actions: call.actions }),
  ).start();
  const fill = (fields: Partial<CouponFields>) => {
    for (const [field, value] of Object.entries(fields))
      actor.send({ type: 'field.change', field: field as keyof CouponFields, value });
  };
  return { actor, asked: call.asked, events: call.events, fill };
}

describe('new coupon form machine', () => {
  it('reads a coupon from the fields only when the code, the discount and the limits are one', () => {
    expect(couponOf({ ...empty, code: 'VERAO', percent: '15' })).toEqual({
      code: 'VERAO',
      discount: 0.15,
      valid_until: null,
      max_uses: null,
      max_uses_per_user: null,
      active: true,
    });
    expect(
      couponOf({ code: 'VERAO', percent: '100', until: '2026-12-31', maxUses: '50', perUser: '2' }),
    ).toEqual({
      code: 'VERAO',
      discount: 1,
      valid_until: '2026-12-31T23:59:59.000Z',
      max_uses: 50,
      max_uses_per_user: 2,
      active: true,
    });
    expect(couponOf({ ...empty, code: 'VER AO', percent: '15' })).toBeNull();
    expect(couponOf({ ...empty, code: 'VERAO', percent: '0' })).toBeNull();
    expect(couponOf({ ...empty, code: 'VERAO', percent: '101' })).toBeNull();
    expect(couponOf({ ...empty, code: 'VERAO', percent: '15', maxUses: '0' })).toBeNull();
    expect(couponOf({ ...empty, code: 'VERAO', percent: '15', perUser: 'x' })).toBeNull();
  });

  it('does not create while the fields are not a coupon', () => {
    const { actor, asked, fill } = start(async () => {
      throw new Error('not called');
    });
    fill({ code: 'VERAO' });
    expect(actor.getSnapshot().can({ type: 'coupon.create' })).toBe(false);
    actor.send({ type: 'coupon.create' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(asked).toEqual([]);
  });

  it('creates the coupon, then empties the code and the discount and keeps the last day and the limits', async () => {
    const { actor, asked, events, fill } = start(async (input) => stored(input));
    fill({ code: 'VERAO', percent: '20', until: '2026-12-31', maxUses: '10', perUser: '1' });
    actor.send({ type: 'coupon.create' });
    expect(actor.getSnapshot().matches('creating')).toBe(true);
    await waitFor(actor, (state) => state.matches('editing'));
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ code: 'VERAO', discount: 0.2, max_uses: 10, max_uses_per_user: 1 });
    expect(actor.getSnapshot().context).toEqual({
      fields: { code: '', percent: '', until: '2026-12-31', maxUses: '10', perUser: '1' },
      error: null,
    });
    expect(events.created).toBe(1);
  });

  it('keeps a refusal on the form with its sentence and the fields as typed; an ended session is reported', async () => {
    let code = 'validation_failed' as 'validation_failed' | 'unauthorized';
    const { actor, events, fill } = start(async () => {
      throw new ApiError(code, 'Esse código já existe.');
    });
    fill({ code: 'VERAO', percent: '20' });
    actor.send({ type: 'coupon.create' });
    await waitFor(actor, (state) => state.matches('editing'));
    expect(actor.getSnapshot().context).toEqual({
      fields: { ...empty, code: 'VERAO', percent: '20' },
      error: { text: 'Esse código já existe.' },
    });
    code = 'unauthorized';
    actor.send({ type: 'coupon.create' });
    await waitFor(actor, (state) => state.matches('editing'));
    expect(events).toEqual({ created: 0, sessionEnded: 1 });
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
