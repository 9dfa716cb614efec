import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import type { TimeSlot } from '../../machines/booking.pricing.ts';
import { moveMachine, priceDifferenceEur, type MoveRequest } from '../../machines/move.machine.ts';
import { booking, bookingAt } from './bookings-fixtures.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';

type Event = EventFrom<typeof moveMachine>;

function slot(id: number, price: number, bookable = true): TimeSlot {
  return {
    id,
    start_time: `2026-12-10T${String(8 + id).padStart(2, '0')}:00:00+00:00`,
    end_time: `2026-12-10T${String(9 + id).padStart(2, '0')}:00:00+00:00`,
    basic_price_eur: price,
    is_bookeable: bookable,
  };
}

// Booking 1 costs 20 EUR with a 10 % coupon; booking 2 cannot move any more.
// On 3 December, two days after the branch's today (1 December): the calendar opens there (issue 30).
const MINE = bookingAt(1, '2026-12-03T10:00:00+00:00', '2026-12-03T11:00:00+00:00', {
  final_price_eur: 18,
  coupon_code: 'TEN',
  coupon_discount: 0.1,
});
const LISTS = [[MINE, booking(2, { is_movable: false })], [booking(1, { is_movable: false })]];
const SAME = slot(1, 20);
const CHEAPER = slot(2, 10);
const DEARER = slot(3, 30);
const TAKEN = slot(4, 20, false);
const SLOTS = [SAME, CHEAPER, DEARER, TAKEN];

const EVENTS = [
  ...LISTS.map((output) => ({ type: 'xstate.done.actor.loadBookings', output })),
  { type: 'xstate.error.actor.loadBookings', error: new ApiError(null) },
  { type: 'xstate.done.actor.loadLocalTime', output: '2026-12-01T09:00:00+00:00' },
  { type: 'xstate.error.actor.loadLocalTime', error: new ApiError(null) },
  { type: 'xstate.done.actor.loadSlots', output: SLOTS },
  { type: 'xstate.error.actor.loadSlots', error: new ApiError('service_unavailable') },
  { type: 'date.select', date: '2026-12-10' },
  { type: 'date.select', date: '2026-11-01' },
  { type: 'month.next' },
  { type: 'month.previous' },
  ...SLOTS.map((item) => ({ type: 'slot.select', slot: item })),
  { type: 'review.open' },
  { type: 'review.close' },
  { type: 'move.confirm' },
  { type: 'xstate.done.actor.moveBooking', output: { status: 'moved', refundedEur: 9, clientSecret: null } },
  {
    type: 'xstate.done.actor.moveBooking',
    output: { status: 'awaiting_payment', refundedEur: null, clientSecret: 'cs_1_secret_x' },
  },
  {
    type: 'xstate.error.actor.moveBooking',
    error: new ApiError('price_difference_changed', 'The difference is now €10.00.', {
      priceDifferenceEur: 10,
    }),
  },
  { type: 'xstate.error.actor.moveBooking', error: new ApiError('slot_unavailable', 'Taken.') },
  { type: 'xstate.error.actor.moveBooking', error: new ApiError('booking_not_movable', 'Too late.') },
  { type: 'xstate.error.actor.moveBooking', error: new ApiError('payment_provider_unavailable') },
  { type: 'payment.failed' },
] as unknown as Event[];

const coverage = coverageOf(moveMachine);
afterAll(() => coverage.save());

describe('move machine, model-based', () => {
  const paths = generatePaths(moveMachine, {
    events: EVENTS,
    input: { bookingId: 1, fallbackToday: '2026-11-30' },
    serializeState: (state) =>
      [
        JSON.stringify(state.value),
        `booking:${state.context.booking?.id ?? '-'}/${state.context.booking?.is_movable ?? '-'}`,
        `date:${state.context.date}`,
        `slots:${state.context.slots.length}`,
        `selected:${state.context.selected?.id ?? '-'}`,
        `server:${state.context.serverDifferenceEur ?? '-'}`,
        `error:${state.context.error !== null}`,
      ].join(' '),
    maxStatesForSimplePaths: 0,
  });

  for (const path of paths) {
    it.concurrent(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      const sent: MoveRequest[] = [];
      await replayPath(moveMachine, path, {
        scripted: ['loadBookings', 'loadLocalTime', 'loadSlots', 'moveBooking'],
        input: { bookingId: 1, fallbackToday: '2026-11-30' },
        coverage,
        onCall: (id, input) => {
          if (id === 'moveBooking') sent.push(input as MoveRequest);
        },
        check: (snapshot, step) => {
          const type = step.event.type as string;
          const { selected, booking: mine, today, date } = snapshot.context;
          // Only a free slot is ever chosen, and never a date before the branch's today.
          if (selected) expect(selected.is_bookeable).toBe(true);
          expect(date >= today).toBe(true);
          // The calendar opens on the booking's own day, not on today (issue 30).
          if (type.includes('loadLocalTime')) {
            const day = mine!.time_slot_data.start_time.slice(0, 10);
            expect(date).toBe(day >= today ? day : today);
          }
          // A booking that cannot move never gets past its loading.
          if (mine && !mine.is_movable) expect(snapshot.matches('unavailable')).toBe(true);
          // At most one call at a time.
          expect(Object.keys(snapshot.children).length).toBeLessThanOrEqual(1);
          // Confirming sends the chosen slot and the difference shown: the coupon's rate applied to the new
          // price minus the booking's price, or the server's figure after it corrected it.
          if (type === 'move.confirm' && snapshot.matches({ reviewing: 'moving' })) {
            const request = sent.at(-1)!;
            expect(request.booking_id).toBe(1);
            expect(request.time_slot_id).toBe(selected!.id);
            expect(request.expected_price_difference_eur).toBe(
              snapshot.context.serverDifferenceEur ?? priceDifferenceEur(mine!, selected!),
            );
          }
          if (type === 'xstate.error.actor.moveBooking' && snapshot.matches({ reviewing: 'idle' })) {
            expect(snapshot.context.error).not.toBeNull();
          }
          // The server's difference is kept only for the slot it was computed for.
          if (type === 'slot.select') expect(snapshot.context.serverDifferenceEur).toBeNull();
          // A taken slot drops the choice and reloads the grid.
          if (type === 'xstate.error.actor.moveBooking' && snapshot.matches({ browsing: 'loading' })) {
            expect(selected).toBeNull();
          }
          if (snapshot.matches('payment')) expect(snapshot.context.clientSecret).toBe('cs_1_secret_x');
          if (snapshot.matches('moved')) expect(snapshot.context.refundedEur).toBe(9);
        },
      });
    });
  }
});

describe('move machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});

describe('the price difference of a move', () => {
  it('applies the booking’s coupon rate to the new slot and rounds like the server', () => {
    expect(priceDifferenceEur(MINE, CHEAPER)).toBe(-9);
    expect(priceDifferenceEur(MINE, DEARER)).toBe(9);
    expect(priceDifferenceEur(booking(1, { final_price_eur: 12.55 }), slot(9, 12.55))).toBe(0);
    expect(
      priceDifferenceEur(booking(1, { final_price_eur: 10, coupon_discount: 0.1 }), slot(9, 12.55)),
    ).toBe(1.3);
  });
});
