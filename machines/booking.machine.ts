import { assign, fromPromise, setup } from 'xstate';
import { ApiError, hasErrorCode } from './api.ts';
import {
  branchDate,
  discountsBySlot,
  slotDate,
  totalEuros,
  type Coupon,
  type CouponTerms,
  type TimeSlot,
} from './booking.pricing.ts';

/**
 * The booking flow of spec 4 (date -> slots -> selection -> coupon -> summary -> creating -> payment) for one
 * branch. The slot grid and the coupon are parallel regions of `browsing`; the summary and the payment dialog
 * are states of their own, so the UI shows exactly one of them.
 */

export type CouponError = { kind: 'invalid'; detail: string } | { kind: 'unreachable' };
/** The summary's error line: the server's message, or a fallback the UI words (spec 8). */
export type SummaryError =
  { kind: 'server'; detail: string } | { kind: 'cannotConfirm' } | { kind: 'providerFailed' };
export type AppliedCoupon = Coupon & { code: string };

export type BookingInput = { branchId: number; loggedIn: boolean; fallbackToday: string };

export type BookingContext = {
  branchId: number;
  loggedIn: boolean;
  today: string;
  date: string;
  month: string;
  slots: TimeSlot[];
  selected: TimeSlot[];
  couponInput: string;
  coupon: AppliedCoupon | null;
  couponError: CouponError | null;
  termsAccepted: boolean;
  summaryError: SummaryError | null;
  clientSecret: string | null;
  /** A slot picked while logged out: selected once the session is logged in (spec 2.7). */
  pendingSlot: TimeSlot | null;
};

export type BookingEvent =
  | { type: 'date.select'; date: string }
  | { type: 'month.previous' }
  | { type: 'month.next' }
  | { type: 'slot.toggle'; slot: TimeSlot }
  | { type: 'selection.clear' }
  | { type: 'coupon.input'; value: string }
  | { type: 'coupon.apply' }
  | { type: 'coupon.remove' }
  | { type: 'summary.open' }
  | { type: 'terms.toggle' }
  | { type: 'summary.close' }
  | { type: 'booking.confirm' }
  | { type: 'payment.failed' }
  | { type: 'payment.close' }
  | { type: 'session.changed'; loggedIn: boolean };

export type SlotsInput = { branchId: number; date: string };
export type CreateBookingInput = {
  time_slot_id: number[];
  max_bookings_per_slot: 1;
  coupon_code: number | null;
  expected_total_final_price_eur: number;
};

/** `invalid_coupon` with the server's message ('Invalid coupon code.'); anything else is 'can-not-verify-coupon'. */
function isCouponNotFound(error: unknown): error is ApiError {
  return hasErrorCode(error, 'invalid_coupon') && error.detail !== null;
}

export function summaryErrorOf(error: unknown): SummaryError {
  if (error instanceof ApiError) {
    if (error.code === 'payment_provider_unavailable') return { kind: 'providerFailed' };
    // A refusal the user can act on says why in the server's words (server faults carry no detail).
    if (error.detail) return { kind: 'server', detail: error.detail };
  }
  return { kind: 'cannotConfirm' };
}

export const bookingMachine = setup({
  types: {
    context: {} as BookingContext,
    events: {} as BookingEvent,
    input: {} as BookingInput,
  },
  actors: {
    // Provided by machines/booking.actors.ts (tests provide scripted ones).
    loadLocalTime: fromPromise<string, { branchId: number }>(() => Promise.reject(new Error('not provided'))),
    loadSlots: fromPromise<TimeSlot[], SlotsInput>(() => Promise.reject(new Error('not provided'))),
    checkCoupon: fromPromise<Coupon, { code: string }>(() => Promise.reject(new Error('not provided'))),
    createBooking: fromPromise<string | null, CreateBookingInput>(() =>
      Promise.reject(new Error('not provided')),
    ),
  },
  actions: {
    // Provided by the app: opens the auth modal on its login view.
    requestLogin: () => {},
  },
  guards: {
    isLoggedIn: ({ context }) => context.loggedIn,
    isSelectable: ({ context, event }) =>
      event.type === 'slot.toggle' &&
      (event.slot.is_bookeable || context.selected.some((slot) => slot.id === event.slot.id)),
    isSelectableDate: ({ context, event }) => event.type === 'date.select' && event.date >= context.today,
    hasSelection: ({ context }) => context.selected.length > 0,
    hasCouponInput: ({ context }) => context.couponInput.trim() !== '',
    hasTermsAccepted: ({ context }) => context.termsAccepted,
    isCouponNotFound: ({ event }) => isCouponNotFound((event as { error?: unknown }).error),
    hasPendingSlot: ({ context, event }) =>
      event.type === 'session.changed' && event.loggedIn && context.pendingSlot !== null,
  },
}).createMachine({
  id: 'booking',
  context: ({ input }) => ({
    branchId: input.branchId,
    loggedIn: input.loggedIn,
    today: input.fallbackToday,
    date: input.fallbackToday,
    month: input.fallbackToday.slice(0, 7),
    slots: [],
    selected: [],
    couponInput: '',
    coupon: null,
    couponError: null,
    termsAccepted: false,
    summaryError: null,
    clientSecret: null,
    pendingSlot: null,
  }),
  on: {
    'session.changed': [
      {
        guard: 'hasPendingSlot',
        actions: assign(({ context }) => {
          const slot = context.pendingSlot!;
          const selectable = context.slots.some(
            (candidate) => candidate.id === slot.id && candidate.is_bookeable,
          );
          return {
            loggedIn: true,
            pendingSlot: null,
            selected: selectable ? [...context.selected, slot] : context.selected,
          };
        }),
      },
      {
        actions: assign(({ event }) =>
          event.loggedIn
            ? { loggedIn: true }
            : { loggedIn: false, selected: [], coupon: null, couponError: null, couponInput: '' },
        ),
      },
    ],
  },
  initial: 'loadingToday',
  states: {
    loadingToday: {
      invoke: {
        id: 'loadLocalTime',
        src: 'loadLocalTime',
        input: ({ context }) => ({ branchId: context.branchId }),
        onDone: {
          target: 'browsing',
          actions: assign(({ event }) => {
            const today = branchDate(event.output);
            return { today, date: today, month: today.slice(0, 7) };
          }),
        },
        // The device's idea of the branch's date (from Temporal) is the fallback.
        onError: { target: 'browsing' },
      },
    },
    browsing: {
      type: 'parallel',
      on: {
        'date.select': {
          guard: 'isSelectableDate',
          target: '.slots.loading',
          actions: assign(({ event }) => ({ date: event.date, month: event.date.slice(0, 7) })),
        },
        'month.previous': {
          actions: assign(({ context }) => ({ month: shiftMonthText(context.month, -1) })),
        },
        'month.next': {
          actions: assign(({ context }) => ({ month: shiftMonthText(context.month, 1) })),
        },
      },
      states: {
        slots: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'loadSlots',
                src: 'loadSlots',
                input: ({ context }) => ({ branchId: context.branchId, date: context.date }),
                onDone: {
                  target: 'ready',
                  // Selected slots of this date that are no longer bookable are dropped (spec 4).
                  actions: assign(({ context, event }) => {
                    const bookable = new Set(
                      event.output.filter((slot) => slot.is_bookeable).map((slot) => slot.id),
                    );
                    return {
                      slots: event.output,
                      selected: context.selected.filter(
                        (slot) => slotDate(slot) !== context.date || bookable.has(slot.id),
                      ),
                    };
                  }),
                },
                onError: { target: 'failed', actions: assign({ slots: [] }) },
              },
            },
            ready: {
              on: {
                'slot.toggle': [
                  {
                    guard: 'isLoggedIn',
                    actions: assign(({ context, event }) => {
                      const chosen = context.selected.some((slot) => slot.id === event.slot.id);
                      if (!chosen && !event.slot.is_bookeable) return {};
                      return {
                        selected: chosen
                          ? context.selected.filter((slot) => slot.id !== event.slot.id)
                          : [...context.selected, event.slot],
                      };
                    }),
                  },
                  {
                    guard: 'isSelectable',
                    actions: [assign(({ event }) => ({ pendingSlot: event.slot })), 'requestLogin'],
                  },
                ],
                'selection.clear': { actions: assign({ selected: [] }) },
                'summary.open': {
                  guard: 'hasSelection',
                  target: '#booking.summary',
                },
              },
            },
            failed: {},
          },
        },
        coupon: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'coupon.input': {
                  actions: assign(({ event }) => ({ couponInput: event.value, couponError: null })),
                },
                'coupon.apply': { guard: 'hasCouponInput', target: 'checking' },
                'coupon.remove': {
                  actions: assign({ coupon: null, couponInput: '', couponError: null }),
                },
              },
            },
            checking: {
              invoke: {
                id: 'checkCoupon',
                src: 'checkCoupon',
                input: ({ context }) => ({ code: context.couponInput.trim() }),
                onDone: {
                  target: 'idle',
                  actions: assign(({ context, event }) => ({
                    coupon: { ...event.output, code: context.couponInput.trim() },
                    couponError: null,
                  })),
                },
                onError: [
                  {
                    guard: 'isCouponNotFound',
                    target: 'idle',
                    actions: assign(({ event }) => ({
                      coupon: null,
                      couponError: {
                        kind: 'invalid' as const,
                        detail: (event.error as ApiError).detail!,
                      },
                    })),
                  },
                  {
                    target: 'idle',
                    actions: assign({ coupon: null, couponError: { kind: 'unreachable' as const } }),
                  },
                ],
              },
            },
          },
        },
      },
    },
    summary: {
      initial: 'reviewing',
      exit: assign({ termsAccepted: false }),
      on: {
        // Logged out meanwhile (another tab, an expired token): the selection is gone, so is the summary.
        'session.changed': {
          guard: ({ event }) => !event.loggedIn,
          target: 'browsing',
          actions: assign({
            loggedIn: false,
            selected: [],
            coupon: null,
            couponError: null,
            couponInput: '',
            summaryError: null,
          }),
        },
        'summary.close': {
          target: 'browsing',
          actions: assign({ summaryError: null }),
        },
      },
      states: {
        reviewing: {
          on: {
            'terms.toggle': { actions: assign(({ context }) => ({ termsAccepted: !context.termsAccepted })) },
            'booking.confirm': { guard: 'hasTermsAccepted', target: 'creating' },
          },
        },
        creating: {
          on: { 'summary.close': {} },
          invoke: {
            id: 'createBooking',
            src: 'createBooking',
            input: ({ context }) => ({
              time_slot_id: context.selected.map((slot) => slot.id),
              max_bookings_per_slot: 1 as const,
              coupon_code: context.coupon?.id ?? null,
              expected_total_final_price_eur: totalEuros(context.selected, couponTerms(context)),
            }),
            onDone: [
              {
                guard: ({ event }) => event.output === null,
                target: '#booking.confirmed',
                actions: assign({ selected: [], summaryError: null, clientSecret: null }),
              },
              {
                target: '#booking.payment',
                actions: assign(({ event }) => ({
                  selected: [],
                  summaryError: null,
                  clientSecret: event.output,
                })),
              },
            ],
            onError: {
              target: 'reviewing',
              actions: assign(({ event }) => ({ summaryError: summaryErrorOf(event.error) })),
            },
          },
        },
      },
    },
    payment: {
      // The slots reload behind the dialog, so the grid shows the new holds once it closes.
      initial: 'checkout',
      invoke: {
        id: 'loadSlots',
        src: 'loadSlots',
        input: ({ context }) => ({ branchId: context.branchId, date: context.date }),
        onDone: { actions: assign(({ event }) => ({ slots: event.output })) },
      },
      on: { 'payment.close': { target: 'browsing', actions: assign({ clientSecret: null }) } },
      states: {
        checkout: { on: { 'payment.failed': 'failed' } },
        failed: {},
      },
    },
    /** A booking whose total was 0 EUR is confirmed at once, without a checkout. */
    confirmed: {
      on: { 'payment.close': 'browsing' },
    },
  },
});

function shiftMonthText(month: string, months: number): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (monthNumber - 1) + months;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** Selectors the UI reads. */
/** The applied coupon's pricing terms (discount and slots it may still discount), or null. */
export function couponTerms(context: BookingContext): CouponTerms {
  return context.coupon
    ? { discount: context.coupon.discount, remainingUses: context.coupon.remaining_uses ?? null }
    : null;
}

/**
 * The discount shown on a slot: a selected slot's is the one the booking will get; an unselected slot
 * shows the coupon's while it still has uses left beyond the slots already selected.
 */
export function slotDiscount(context: BookingContext, slot: TimeSlot): number | null {
  const terms = couponTerms(context);
  if (!terms) return null;
  if (context.selected.some((selected) => selected.id === slot.id)) {
    return discountsBySlot(context.selected, terms).get(slot.id) ?? null;
  }
  return terms.remainingUses === null || context.selected.length < terms.remainingUses
    ? terms.discount
    : null;
}

export function discountOf(context: BookingContext): number | null {
  return context.coupon?.discount ?? null;
}
