import { afterAll, describe, expect, it, vi } from 'vitest';
import { fromCallback, type EventFrom, type SnapshotFrom } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import { bookingMachine } from '../../machines/booking.machine.ts';
import type { TimeSlot } from '../../machines/booking.pricing.ts';
import { basketKey, currentCover, isCoverSettled, usesCredit } from '../../machines/booking.selectors.ts';
import type { CreditCover } from '../../machines/creditCover.machine.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';
import { modelSession } from './model/session.ts';

const free: TimeSlot = {
  id: 1,
  start_time: '2026-11-23T09:00:00+00:00',
  end_time: '2026-11-23T10:00:00+00:00',
  basic_price_eur: 20,
  is_bookeable: true,
};
const taken: TimeSlot = { ...free, is_bookeable: false };
// The free slot's next week, as the weekly series' preview answers it.
const nextWeek: TimeSlot = {
  ...free,
  id: 2,
  start_time: '2026-11-30T09:00:00+00:00',
  end_time: '2026-11-30T10:00:00+00:00',
};
const weeks = [
  { week: 1, date: '2026-11-23', slot: free, problem: null },
  { week: 2, date: '2026-11-30', slot: nextWeek, problem: null },
  { week: 3, date: '2026-12-07', slot: null, problem: 'beyond_horizon' },
];

// What the member's credit pays of the free slot (issue 31): all of it, or nothing (no credit where it is).
const coveredWhole: CreditCover = {
  slots: [{ time_slot_id: free.id, price_eur: 20, credit_eur: 20, due_eur: 0 }],
  credit_eur: 20,
  due_eur: 0,
};
const uncovered: CreditCover = {
  slots: [{ time_slot_id: free.id, price_eur: 20, credit_eur: 0, due_eur: 20 }],
  credit_eur: 0,
  due_eur: 20,
};

type Event = EventFrom<typeof bookingMachine>;
// Each call's answers (success and the failures the UI tells apart) and the user's and the session's events.
const EVENTS = [
  { type: 'xstate.done.actor.loadLocalTime', output: '2026-11-23T08:00:00+00:00' },
  { type: 'xstate.error.actor.loadLocalTime', error: new ApiError(null) },
  { type: 'xstate.done.actor.loadSlots', output: [free] },
  { type: 'xstate.done.actor.loadSlots', output: [taken] },
  { type: 'xstate.error.actor.loadSlots', error: new ApiError('internal_error') },
  { type: 'xstate.done.actor.checkCoupon', output: { id: 7, discount: 0.05, remaining_uses: null } },
  { type: 'xstate.error.actor.checkCoupon', error: new ApiError('invalid_coupon', 'Invalid coupon code.') },
  { type: 'xstate.error.actor.checkCoupon', error: new ApiError(null) },
  {
    type: 'xstate.done.actor.loadOfferedCoupon',
    output: { id: 3, code: 'EARLYBIRD', discount: 0.1, remaining_uses: 3 },
  },
  { type: 'xstate.done.actor.loadOfferedCoupon', output: null },
  { type: 'xstate.error.actor.loadOfferedCoupon', error: new ApiError(null) },
  { type: 'xstate.done.actor.createBooking', output: 'cs_1_secret_x' },
  { type: 'xstate.done.actor.createBooking', output: null },
  { type: 'xstate.error.actor.createBooking', error: new ApiError('slot_unavailable', 'Slot taken') },
  {
    type: 'xstate.error.actor.createBooking',
    error: new ApiError('price_changed', 'The price has changed: the total is now €10.'),
  },
  {
    type: 'xstate.error.actor.createBooking',
    error: new ApiError('payment_provider_unavailable'),
  },
  { type: 'date.select', date: '2026-11-24' },
  { type: 'date.select', date: '2026-11-01' },
  { type: 'month.next' },
  { type: 'month.previous' },
  { type: 'slot.toggle', slot: free },
  { type: 'selection.clear' },
  { type: 'coupon.input', value: 'WELCOME5' },
  { type: 'coupon.apply' },
  { type: 'coupon.remove' },
  { type: 'summary.open' },
  { type: 'terms.toggle' },
  { type: 'credit.toggle' },
  { type: 'summary.close' },
  { type: 'booking.confirm' },
  { type: 'payment.failed' },
  { type: 'payment.close' },
  { type: 'session.changed', loggedIn: true },
  { type: 'session.changed', loggedIn: false },
] as unknown as Event[];
const SERIES_EVENTS = [
  { type: 'xstate.done.actor.previewWeeklySeries', output: weeks },
  { type: 'xstate.error.actor.previewWeeklySeries', error: new ApiError('internal_error') },
  { type: 'series.weeks', weeks: 3 },
  { type: 'series.preview' },
  { type: 'series.stop' },
  { type: 'slot.toggle', slot: nextWeek },
] as unknown as Event[];
const COUPON_EVENTS = new Set(['coupon.input', 'coupon.apply', 'coupon.remove']);

/**
 * The coupon and the weekly series are explored apart (the coupon without a series, the series without a coupon
 * typed): each is priced by the same total, and together they would multiply the graph for no new transition.
 */
function events(state: SnapshotFrom<typeof bookingMachine>): Event[] {
  const { context } = state;
  if (context.series !== null || state.matches({ browsing: { series: 'previewing' } }))
    return [
      ...EVENTS.filter((event) => !COUPON_EVENTS.has(event.type)),
      ...SERIES_EVENTS,
      ...coverAnswers(state),
    ];
  if (context.coupon === null && context.couponInput === '')
    return [...EVENTS, ...SERIES_EVENTS, ...coverAnswers(state)];
  return [...EVENTS, ...coverAnswers(state)];
}

/**
 * The cover child's answers for the basket as it stands (it is the booking flow's child, with a model of its own):
 * on the plain basket the credit pays it whole or could not be read; on a basket with a coupon or a series it pays
 * nothing (the graph stays small).
 */
function coverAnswers(state: SnapshotFrom<typeof bookingMachine>): Event[] {
  const { context } = state;
  const key = basketKey(context);
  if (key === null || isCoverSettled(context)) return [];
  const plain = context.series === null && context.coupon === null;
  return (plain ? [coveredWhole, null] : [uncovered]).map(
    (cover) => ({ type: 'cover.changed', key, cover }) as unknown as Event,
  );
}

const coverage = coverageOf(bookingMachine);
afterAll(() => coverage.save());

const input = { branchId: 1, loggedIn: false, fallbackToday: '2026-11-23' };

describe('booking machine, model-based', () => {
  const paths = generatePaths(bookingMachine, {
    events,
    input,
    maxStatesForSimplePaths: 0,
    // Few context facts, so the graph stays small: the state, the login, whether anything is selected, a coupon,
    // the terms and a slot waiting for the login.
    serializeState: (state) =>
      [
        JSON.stringify(state.value),
        `in:${state.context.loggedIn}`,
        `sel:${state.context.selected.length > 0}`,
        `coupon:${state.context.coupon !== null}`,
        `input:${state.context.couponInput !== ''}`,
        `offer:${state.context.offerChecked}`,
        `terms:${state.context.termsAccepted}`,
        `pending:${state.context.pendingSlot !== null}`,
        `series:${state.context.series !== null}`,
        `cover:${isCoverSettled(state.context)}`,
        `credit:${(currentCover(state.context)?.credit_eur ?? 0) > 0}`,
        `use:${usesCredit(state.context)}`,
      ].join(' '),
  });

  for (const path of paths) {
    it(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      const requestLogin = vi.fn();
      const created: unknown[] = [];
      // The session changes reach the machine through the app's bridge, from a real session.
      const world = modelSession();
      try {
        await replayPath(bookingMachine, path, {
          scripted: [
            'loadLocalTime',
            'loadSlots',
            'checkCoupon',
            'loadOfferedCoupon',
            'createBooking',
            'previewWeeklySeries',
          ],
          input,
          coverage,
          // The cover child answers as the path says (its `cover.changed`), not by itself.
          provide: {
            actions: { requestLogin },
            actors: { sessionChanges: world.bridge, creditCover: fromCallback(() => {}) },
          },
          onCall: (id, call) => {
            if (id === 'createBooking') created.push(call);
          },
          through: world.through,
          check: (snapshot) => {
            const { context } = snapshot;
            // Nothing before the branch's today is ever the selected date.
            expect(context.date >= context.today).toBe(true);
            // Only a logged-in user has a selection; a logged-out pick waits as the pending slot.
            if (!context.loggedIn) expect(context.selected).toEqual([]);
            // The summary opens with a selection; the payment dialog with a client secret.
            if (snapshot.matches('summary')) expect(context.selected.length).toBeGreaterThan(0);
            if (snapshot.matches('payment')) expect(context.clientSecret).not.toBeNull();
            // The terms checkbox is ticked only inside the summary.
            if (!snapshot.matches('summary')) expect(context.termsAccepted).toBe(false);
            if (context.pendingSlot) expect(requestLogin).toHaveBeenCalled();
            // A booking is asked for only once the basket's cover is settled; with credit in use it spends it and
            // expects to pay what the cover left, else the basket's total.
            if (snapshot.matches({ summary: 'creating' })) {
              expect(isCoverSettled(context)).toBe(true);
              expect(created.at(-1)).toMatchObject(
                usesCredit(context)
                  ? { use_credit: true, expected_total_final_price_eur: currentCover(context)!.due_eur }
                  : { expected_total_final_price_eur: expect.any(Number) as number },
              );
              if (!usesCredit(context)) expect(created.at(-1)).not.toHaveProperty('use_credit');
            }
            // A series being chosen holds only its weeks in the basket, and only for a logged-in member.
            const { series } = context;
            if (series) {
              expect(context.loggedIn).toBe(true);
              for (const chosen of context.selected)
                expect(series.occurrences.map((week) => week.slot?.id)).toContain(chosen.id);
            }
            // The offered coupon is looked up only for a logged-in member, and never over one already applied.
            if (snapshot.matches({ browsing: { coupon: 'offering' } })) {
              expect(context.loggedIn).toBe(true);
              expect(context.coupon).toBeNull();
            }
          },
        });
      } finally {
        world.session.stop();
      }
    });
  }
});

describe('booking machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});
