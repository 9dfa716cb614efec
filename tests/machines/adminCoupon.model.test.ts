import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom } from 'xstate';
import {
  adminCouponMachine,
  couponProblems,
  EMPTY_COUPON,
  shownCouponProblems,
} from '../../machines/adminCoupon.machine.ts';
import { ApiError } from '../../machines/api.ts';
import { STORED_COUPON } from './adminCoupon.fixtures.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';

type Event = EventFrom<typeof adminCouponMachine>;

const STORED = STORED_COUPON;

// The owner typing a coupon, a wrong discount, leaving a field, saving; the server's answers to either call.
const EVENTS = [
  { type: 'field.change', patch: { code: 'VERAO', percent: '20' } },
  { type: 'field.change', patch: { percent: '150' } },
  { type: 'field.leave', field: 'percent' },
  { type: 'coupon.save' },
  ...['createCoupon', 'updateCoupon'].flatMap((call) => [
    { type: `xstate.done.actor.${call}`, output: STORED },
    { type: `xstate.error.actor.${call}`, error: new ApiError('coupon_exists', 'Já existe.') },
    { type: `xstate.error.actor.${call}`, error: new ApiError('coupon_not_found', 'Não existe.') },
    { type: `xstate.error.actor.${call}`, error: new ApiError('unauthorized', 'Sessão terminada.') },
  ]),
] as unknown as Event[];

const coverage = coverageOf(adminCouponMachine);
afterAll(() => coverage.save());

describe.each([
  ['a new coupon', null],
  ['a stored coupon', STORED],
] as const)('coupon form machine on %s, model-based', (_, coupon) => {
  const paths = generatePaths(adminCouponMachine, {
    events: EVENTS,
    input: { coupon },
    serializeState: (state) =>
      JSON.stringify([
        state.value,
        state.context.fields.percent,
        state.context.checked,
        state.context.touched,
        state.context.refused,
        state.context.error !== null,
      ]),
  });
  for (const path of paths) {
    it.concurrent(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      const calls: string[] = [];
      let saved = 0;
      let savedBefore = 0;
      await replayPath(adminCouponMachine, path, {
        scripted: ['createCoupon', 'updateCoupon'],
        input: { coupon },
        coverage,
        provide: { actions: { saved: () => (saved += 1), sessionEnded: () => {} } },
        onCall: (id) => calls.push(id),
        check: (snapshot, step) => {
          const { context } = snapshot;
          const type = step.event.type as string;
          // A form with a problem never calls the server; saving it shows every problem.
          if (step.event.type === 'coupon.save' && Object.keys(couponProblems(context.fields)).length > 0) {
            expect(snapshot.matches('editing')).toBe(true);
            expect(shownCouponProblems(context)).toEqual({
              ...context.refused,
              ...couponProblems(context.fields),
            });
          }
          // A new coupon is created, a stored one updated, never the other way round.
          expect(calls.every((call) => call === (coupon === null ? 'createCoupon' : 'updateCoupon'))).toBe(
            true,
          );
          // Once a new coupon is made, the form is empty again for the next.
          if (type === 'xstate.done.actor.createCoupon') {
            expect(context.fields).toEqual(EMPTY_COUPON);
            expect(shownCouponProblems(context)).toEqual({});
          }
          // A taken code is said beside the code.
          if (type.startsWith('xstate.error.actor') && snapshot.context.refused.code) {
            expect(context.refused).toEqual({ code: 'taken' });
            expect(context.error).toBeNull();
          }
          // Each answer of a save tells the page once (it reloads its list, closes the editor); a refusal never.
          const answered = type.startsWith('xstate.done.actor');
          const failed = type.startsWith('xstate.error.actor');
          if (answered) expect(saved).toBe(savedBefore + 1);
          if (failed) expect(saved).toBe(savedBefore);
          savedBefore = saved;
        },
      });
    });
  }
});

describe('coupon form machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});
