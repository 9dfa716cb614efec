import { assign, setup } from 'xstate';
import { placeholder } from './placeholder.ts';
import { hasErrorCode } from './api.ts';
import {
  calendarFrom,
  calendarOn,
  loadingToday,
  discountedCents,
  monthNavigation,
  toCents,
  type Calendar,
  type CalendarEvent,
  type TimeSlot,
} from './booking.pricing.ts';
import { failureFeedback, type Feedback } from './feedback.ts';
import type { Booking } from './myBookings.selectors.ts';
import { machineTypes } from './machine-types.ts';

/**
 * Moving a booking (docs/decisions.md, "Moving a booking"): the booking modal in move mode for the booking's
 * branch. Load the booking -> pick a date and one free slot -> review the price difference -> confirm. An
 * equal or lower price moves at once (a lower one says what is refunded); a higher one opens the checkout for
 * the difference, and the booking moves once it is paid. A difference the server computes otherwise
 * (`price_difference_changed`) is shown and must be confirmed again; a slot taken meanwhile reloads the grid.
 */

export type MoveInput = { bookingId: number; fallbackToday: string };

export type MoveContext = Calendar & {
  bookingId: number;
  booking: Booking | null;
  slots: TimeSlot[];
  selected: TimeSlot | null;
  /** The server's figure after a `price_difference_changed`, until another slot is picked. */
  serverDifferenceEur: number | null;
  error: Feedback | null;
  clientSecret: string | null;
  refundedEur: number | null;
};

export type MoveEvent =
  | CalendarEvent
  | { type: 'slot.select'; slot: TimeSlot }
  | { type: 'review.open' }
  | { type: 'review.close' }
  | { type: 'move.confirm' }
  | { type: 'payment.failed' };

export type MoveRequest = {
  booking_id: number;
  time_slot_id: number;
  expected_price_difference_eur: number;
};
export type MoveAnswer = {
  status: 'moved' | 'awaiting_payment';
  refundedEur: number | null;
  clientSecret: string | null;
};

/** The new slot's price for this booking (its coupon's rate applies) minus what the booking costs, in euros. */
export function priceDifferenceEur(booking: Booking, slot: TimeSlot): number {
  return (
    (discountedCents(slot.basic_price_eur, booking.coupon_discount) - toCents(booking.final_price_eur)) / 100
  );
}

/** The difference the member confirms: the server's after it corrected us, else ours. */
export function shownDifferenceEur(context: MoveContext): number | null {
  if (!context.booking || !context.selected) return null;
  return context.serverDifferenceEur ?? priceDifferenceEur(context.booking, context.selected);
}

export const moveMachine = setup({
  types: machineTypes<MoveContext, MoveEvent, MoveInput>(),
  actors: {
    loadBookings: placeholder<Booking[]>('loadBookings'),
    loadLocalTime: placeholder<string, { branchId: number }>('loadLocalTime'),
    loadSlots: placeholder<TimeSlot[], { branchId: number; date: string }>('loadSlots'),
    moveBooking: placeholder<MoveAnswer, MoveRequest>('moveBooking'),
  },
  actions: {
    moveFailed: assign(({ event }) => ({
      error: failureFeedback((event as { error?: unknown }).error, 'can-not-move-booking'),
    })),
  },
  guards: {
    isMovable: ({ context }) => context.booking?.is_movable === true,
    isSelectableDate: ({ context, event }) => event.type === 'date.select' && event.date >= context.today,
    isSelectable: ({ event }) => event.type === 'slot.select' && event.slot.is_bookeable,
    hasSelection: ({ context }) => context.selected !== null,
    isAwaitingPayment: ({ event }) =>
      (event as { output?: MoveAnswer }).output?.status === 'awaiting_payment',
    isDifferenceChanged: ({ event }) =>
      hasErrorCode((event as { error?: unknown }).error, 'price_difference_changed'),
    isSlotGone: ({ event }) =>
      hasErrorCode((event as { error?: unknown }).error, 'slot_unavailable', 'slot_started'),
    isNotMovable: ({ event }) =>
      hasErrorCode((event as { error?: unknown }).error, 'booking_not_movable', 'booking_not_found'),
  },
}).createMachine({
  id: 'move',
  context: ({ input }) => ({
    bookingId: input.bookingId,
    booking: null,
    ...calendarFrom(input.fallbackToday),
    slots: [],
    selected: null,
    serverDifferenceEur: null,
    error: null,
    clientSecret: null,
    refundedEur: null,
  }),
  initial: 'loadingBooking',
  states: {
    loadingBooking: {
      invoke: {
        id: 'loadBookings',
        src: 'loadBookings',
        onDone: [
          {
            guard: ({ context, event }) =>
              event.output.some((booking) => booking.id === context.bookingId && booking.is_movable),
            target: 'loadingToday',
            actions: assign(({ context, event }) => ({
              booking: event.output.find((booking) => booking.id === context.bookingId) ?? null,
            })),
          },
          {
            target: 'unavailable',
            actions: assign(({ context, event }) => ({
              booking: event.output.find((booking) => booking.id === context.bookingId) ?? null,
            })),
          },
        ],
        onError: {
          target: 'unavailable',
          actions: 'moveFailed',
        },
      },
    },
    // The calendar opens on the booking's own day (its start carries the branch's offset, so its first ten
    // characters are the branch's date), not on today (issue 30).
    loadingToday: loadingToday<MoveContext, MoveEvent>(
      (context) => context.booking!.time_slot_data.branch_data.id,
      (context) => context.booking?.time_slot_data.start_time.slice(0, 10) ?? null,
    ),
    browsing: {
      initial: 'loading',
      on: {
        'date.select': {
          guard: 'isSelectableDate',
          target: '.loading',
          actions: assign(({ event }) => calendarOn(event.date)),
        },
        ...monthNavigation<MoveContext, MoveEvent>(),
      },
      states: {
        loading: {
          invoke: {
            id: 'loadSlots',
            src: 'loadSlots',
            input: ({ context }) => ({
              branchId: context.booking!.time_slot_data.branch_data.id,
              date: context.date,
            }),
            onDone: {
              target: 'ready',
              actions: assign(({ context, event }) => ({
                slots: event.output,
                // A chosen slot that is no longer free is dropped.
                selected:
                  context.selected &&
                  (event.output.some((slot) => slot.id === context.selected!.id && slot.is_bookeable) ||
                    !event.output.some((slot) => slot.id === context.selected!.id))
                    ? context.selected
                    : null,
              })),
            },
            onError: { target: 'failed', actions: assign({ slots: [] }) },
          },
        },
        ready: {
          on: {
            'slot.select': {
              guard: 'isSelectable',
              actions: assign(({ event }) => ({
                selected: event.slot,
                serverDifferenceEur: null,
                error: null,
              })),
            },
            'review.open': { guard: 'hasSelection', target: '#move.reviewing' },
          },
        },
        failed: {},
      },
    },
    reviewing: {
      initial: 'idle',
      on: { 'review.close': { target: 'browsing.ready', actions: assign({ error: null }) } },
      states: {
        idle: {
          on: { 'move.confirm': { target: 'moving', actions: assign({ error: null }) } },
        },
        moving: {
          on: { 'review.close': {} },
          invoke: {
            id: 'moveBooking',
            src: 'moveBooking',
            input: ({ context }) => ({
              booking_id: context.bookingId,
              time_slot_id: context.selected!.id,
              expected_price_difference_eur: shownDifferenceEur(context)!,
            }),
            onDone: [
              {
                guard: 'isAwaitingPayment',
                target: '#move.payment',
                actions: assign(({ event }) => ({ clientSecret: event.output.clientSecret })),
              },
              {
                target: '#move.moved',
                actions: assign(({ event }) => ({ refundedEur: event.output.refundedEur })),
              },
            ],
            onError: [
              {
                guard: 'isDifferenceChanged',
                target: 'idle',
                actions: [
                  assign(({ event }) => ({
                    serverDifferenceEur: (event.error as { priceDifferenceEur: number | null })
                      .priceDifferenceEur,
                  })),
                  'moveFailed',
                ],
              },
              {
                guard: 'isSlotGone',
                target: '#move.browsing.loading',
                actions: [assign({ selected: null, serverDifferenceEur: null }), 'moveFailed'],
              },
              {
                guard: 'isNotMovable',
                target: '#move.unavailable',
                actions: 'moveFailed',
              },
              {
                target: 'idle',
                actions: 'moveFailed',
              },
            ],
          },
        },
      },
    },
    /** The checkout for the difference; the booking moves when it is paid (the payment result says so). */
    payment: {
      initial: 'checkout',
      states: {
        checkout: { on: { 'payment.failed': 'failed' } },
        failed: {},
      },
    },
    moved: { type: 'final' },
    /** Not movable (any more): the modal says so. */
    unavailable: { type: 'final' },
  },
});
