import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import {
  COVER_DELAY_MS,
  creditCoverMachine,
  type CoverChanged,
  type CoverRequest,
} from '../../machines/creditCover.machine.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';

type Event = EventFrom<typeof creditCoverMachine>;
const ONE: CoverRequest = { time_slot_id: [1], coupon_code: null };
const TWO: CoverRequest = { time_slot_id: [1, 2], coupon_code: 7 };
// The baskets the booking flow tells of (one, another, none), the delay passing, and the preview's answers.
const EVENTS = [
  { type: 'basket.changed', key: '1|', basket: ONE },
  { type: 'basket.changed', key: '1,2|7', basket: TWO },
  { type: 'basket.changed', key: null, basket: null },
  { type: `xstate.after.${COVER_DELAY_MS}.creditCover.waiting` },
  {
    type: 'xstate.done.actor.previewCreditCover',
    output: { slots: [], credit_eur: 20, due_eur: 0 },
  },
  { type: 'xstate.error.actor.previewCreditCover', error: new ApiError('service_unavailable') },
] as unknown as Event[];

const coverage = coverageOf(creditCoverMachine);
afterAll(() => coverage.save());

describe('credit cover machine, model-based', () => {
  // The graph is walked without a parent to tell (the replay records what is told).
  const paths = generatePaths(creditCoverMachine.provide({ actions: { tell: () => {} } }), {
    events: EVENTS,
    serializeState: (state) => JSON.stringify([state.value, state.context.key]),
  });

  for (const path of paths) {
    it(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      const told: CoverChanged[] = [];
      const asked: unknown[] = [];
      await replayPath(creditCoverMachine, path, {
        scripted: ['previewCreditCover'],
        coverage,
        provide: { actions: { tell: (_: unknown, cover: CoverChanged) => void told.push(cover) } },
        onCall: (_, input) => asked.push(input),
        check: (snapshot, step) => {
          // Only the basket it was last told of is asked about, and only a basket with slots.
          if (snapshot.matches('previewing')) expect(asked.at(-1)).toEqual(snapshot.context.basket);
          if (snapshot.matches('waiting') || snapshot.matches('previewing'))
            expect(snapshot.context.key).not.toBeNull();
          // An answer is told with the key of the basket it answers.
          if (/^xstate\.(done|error)\.actor/.test(step.event.type))
            expect(told.at(-1)?.key).toBe(path.steps[path.steps.indexOf(step) - 1]!.state.context.key);
        },
      });
    });
  }
});

describe('credit cover machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});
