import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type {
  AdminCoupon,
  AdminCouponCreate,
  AdminCouponUpdate,
} from '../../machines/adminConsole.actors.ts';
import {
  adminCouponMachine,
  couponChanges,
  couponOf,
  couponProblems,
  EMPTY_COUPON,
  fieldsOfCoupon,
  shownCouponProblems,
  type CouponFields,
} from '../../machines/adminCoupon.machine.ts';
import { ApiError } from '../../machines/api.ts';
import { STORED_COUPON } from './adminCoupon.fixtures.ts';

const STORED = STORED_COUPON;

/** The coupon as the server stores it. */
function stored(input: AdminCouponCreate): AdminCoupon {
  return {
    code: input.code,
    discount: input.discount,
    valid_from: input.valid_from ?? '2026-11-24T04:00:00Z',
    valid_until: input.valid_until ?? null,
    max_uses: input.max_uses ?? null,
    max_uses_per_user: input.max_uses_per_user ?? null,
    registered_before: input.registered_before ?? null,
    active: true,
    uses: 0,
  };
}

function start(coupon: AdminCoupon | null, answer: (input: unknown) => Promise<AdminCoupon>) {
  const asked: unknown[] = [];
  const events = { saved: 0, sessionEnded: 0 };
  const call = (input: unknown) => {
    asked.push(input);
    return answer(input);
  };
  const actor = createActor(
    adminCouponMachine.provide({
      actors: {
        createCoupon: fromPromise<AdminCoupon, AdminCouponCreate>(({ input }) => call(input)),
        updateCoupon: fromPromise<AdminCoupon, { code: string; update: AdminCouponUpdate }>(({ input }) =>
          call(input),
        ),
      },
      actions: { saved: () => void events.saved++, sessionEnded: () => void events.sessionEnded++ },
    }),
    { input: { coupon } },
  ).start();
  const fill = (patch: Partial<CouponFields>) => actor.send({ type: 'field.change', patch });
  return { actor, asked, events, fill };
}

describe('coupon form machine', () => {
  it('reads a coupon from the fields only when the code, the discount, the days and the caps are one', () => {
    expect(couponOf({ ...EMPTY_COUPON, code: 'verao', percent: '15' })).toEqual({
      code: 'VERAO',
      discount: 0.15,
      valid_until: null,
      max_uses: null,
      max_uses_per_user: null,
      registered_before: null,
    });
    expect(
      couponOf({
        code: 'VERAO',
        percent: '100',
        from: '2026-12-01',
        until: '2026-12-31',
        maxUses: '50',
        perUser: '2',
        registeredBefore: '2026-12-15',
      }),
    ).toEqual({
      code: 'VERAO',
      discount: 1,
      valid_from: '2026-12-01T00:00:00Z',
      valid_until: '2026-12-31T23:59:59Z',
      max_uses: 50,
      max_uses_per_user: 2,
      registered_before: '2026-12-15T00:00:00Z',
    });
    const valid = { ...EMPTY_COUPON, code: 'VERAO', percent: '15' };
    expect(couponProblems({ ...valid, code: 'VER AO' })).toEqual({ code: 'invalid' });
    expect(couponProblems({ ...valid, code: 'V' })).toEqual({ code: 'invalid' });
    expect(couponProblems({ ...valid, percent: '0' })).toEqual({ percent: 'invalid' });
    expect(couponProblems({ ...valid, percent: '101' })).toEqual({ percent: 'invalid' });
    expect(couponProblems({ ...valid, percent: '12,5' })).toEqual({ percent: 'invalid' });
    expect(couponProblems({ ...valid, maxUses: '0', perUser: 'x' })).toEqual({
      maxUses: 'invalid',
      perUser: 'invalid',
    });
    expect(couponProblems({ ...valid, from: '2026-12-02', until: '2026-12-01' })).toEqual({
      until: 'before-start',
    });
    expect(couponProblems(EMPTY_COUPON)).toEqual({ code: 'missing', percent: 'missing' });
    expect(couponOf({ ...valid, percent: '' })).toBeNull();
  });

  it('a stored coupon shows as its fields, and only what was changed is sent', () => {
    const fields = fieldsOfCoupon(STORED);
    expect(fields).toEqual({
      code: 'EARLYBIRD',
      percent: '10',
      from: '2026-11-24',
      until: '',
      maxUses: '',
      perUser: '3',
      registeredBefore: '2026-12-01',
    });
    expect(couponChanges(STORED, fields)).toEqual({});
    expect(
      couponChanges(STORED, { ...fields, percent: '15', registeredBefore: '2027-01-10', perUser: '' }),
    ).toEqual({ discount: 0.15, registered_before: '2027-01-10T00:00:00Z', max_uses_per_user: null });
  });

  it('an invalid discount is not a silent no: saving shows each problem beside its field and asks nothing', () => {
    const { actor, asked, fill } = start(null, async () => {
      throw new Error('not called');
    });
    fill({ code: 'VERAO', percent: '150' });
    expect(shownCouponProblems(actor.getSnapshot().context)).toEqual({});
    actor.send({ type: 'field.leave', field: 'percent' });
    expect(shownCouponProblems(actor.getSnapshot().context)).toEqual({ percent: 'invalid' });
    expect(actor.getSnapshot().can({ type: 'coupon.save' })).toBe(true);
    fill({ maxUses: '-1' });
    actor.send({ type: 'coupon.save' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(shownCouponProblems(actor.getSnapshot().context)).toEqual({
      percent: 'invalid',
      maxUses: 'invalid',
    });
    expect(asked).toEqual([]);
  });

  it('creates the coupon, then empties every field for the next one', async () => {
    const { actor, asked, events, fill } = start(null, async (input) => stored(input as AdminCouponCreate));
    fill({ code: 'VERAO', percent: '20', until: '2026-12-31', maxUses: '10', perUser: '1' });
    actor.send({ type: 'coupon.save' });
    expect(actor.getSnapshot().matches('creating')).toBe(true);
    await waitFor(actor, (state) => state.matches('editing'));
    expect(asked).toEqual([
      {
        code: 'VERAO',
        discount: 0.2,
        valid_until: '2026-12-31T23:59:59Z',
        max_uses: 10,
        max_uses_per_user: 1,
        registered_before: null,
      },
    ]);
    expect(actor.getSnapshot().context.fields).toEqual(EMPTY_COUPON);
    expect(shownCouponProblems(actor.getSnapshot().context)).toEqual({});
    expect(events.saved).toBe(1);
  });

  it('a stored coupon saves its changes by its code; nothing changed sends nothing', async () => {
    const { actor, asked, events, fill } = start(STORED, async () => ({ ...STORED, discount: 0.25 }));
    actor.send({ type: 'coupon.save' });
    expect(asked).toEqual([]);
    expect(events.saved).toBe(1);
    fill({ percent: '25' });
    actor.send({ type: 'coupon.save' });
    await waitFor(actor, (state) => state.matches('editing'));
    expect(asked).toEqual([{ code: 'EARLYBIRD', update: { discount: 0.25 } }]);
    expect(actor.getSnapshot().context.fields.percent).toBe('25');
    expect(events.saved).toBe(2);
  });

  it('a refusal naming fields shows beside them until they change; another keeps its sentence; an ended session is reported', async () => {
    let error = new ApiError('coupon_exists', 'Já existe.');
    const { actor, events, fill } = start(null, async () => {
      throw error;
    });
    fill({ code: 'VERAO', percent: '20' });
    actor.send({ type: 'coupon.save' });
    await waitFor(actor, (state) => state.matches('editing'));
    expect(shownCouponProblems(actor.getSnapshot().context)).toEqual({ code: 'taken' });
    expect(actor.getSnapshot().context.fields).toMatchObject({ code: 'VERAO', percent: '20' });
    fill({ code: 'VERAO2' });
    expect(shownCouponProblems(actor.getSnapshot().context)).toEqual({});
    error = new ApiError('validation_failed', 'Pedido inválido', {
      fields: [{ field: 'valid_until', problem: 'invalid' }],
    });
    actor.send({ type: 'coupon.save' });
    await waitFor(actor, (state) => state.matches('editing'));
    expect(shownCouponProblems(actor.getSnapshot().context)).toEqual({ until: 'invalid' });
    expect(actor.getSnapshot().context.error).toBeNull();
    error = new ApiError('coupon_not_found', 'Cupão não encontrado.');
    actor.send({ type: 'coupon.save' });
    await waitFor(actor, (state) => state.matches('editing'));
    expect(actor.getSnapshot().context.error).toEqual({ text: 'Cupão não encontrado.' });
    error = new ApiError('unauthorized', 'Sessão terminada.');
    actor.send({ type: 'coupon.save' });
    await waitFor(actor, (state) => state.matches('editing'));
    expect(events).toEqual({ saved: 0, sessionEnded: 1 });
  });
});
