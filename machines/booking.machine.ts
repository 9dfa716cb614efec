import { and, assign, sendTo, setup, type AnyActorLogic } from 'xstate';
import { placeholder } from './placeholder.ts';
import { ApiError, hasErrorCode } from './api.ts';
import {
  calendarFrom,
  calendarOn,
  loadingToday,
  monthNavigation,
  slotDate,
  totalEuros,
  type Calendar,
  type CalendarEvent,
  type Coupon,
  type TimeSlot,
} from './booking.pricing.ts';
import {
  basketKey,
  couponTerms,
  coverRequest,
  currentCover,
  isCoverSettled,
  isSeriesSelection,
  usesCredit,
} from './booking.selectors.ts';
import {
  withoutCreditCover,
  type BasketChanged,
  type CoverChanged,
  type CreditCover,
} from './creditCover.machine.ts';
import { withoutSessionChanges, type SessionChanged } from './session.changes.ts';
import { machineTypes } from './machine-types.ts';

/**
 * The booking flow (docs/decisions.md, 'Bookings and payments'): date -> slots -> selection -> coupon ->
 * summary -> creating -> payment, for one branch. The slot grid and the coupon are parallel regions of `browsing`; the summary and the payment dialog
 * are states of their own, so the UI shows exactly one of them.
 */

type CouponError = { kind: 'invalid'; detail: string } | { kind: 'unreachable' };
/** The summary's error line: the server's message, or a fallback the UI words (docs/decisions.md, 'Client'). */
export type SummaryError =
  { kind: 'server'; detail: string } | { kind: 'cannotConfirm' } | { kind: 'providerFailed' };
/** `offered`: applied by the flow itself (the early-bird coupon of the member's profile), not typed. */
type AppliedCoupon = Coupon & { code: string; offered?: boolean };
/** The coupon the member's profile offers without typing it (`offered_coupon` of `GET /auth/me`). */
export type OfferedCoupon = Coupon & { code: string };

/** A week of a weekly series as the server previews it (`previewWeeklySeries`): its slot, or why it cannot be booked. */
export type WeeklyOccurrence = {
  week: number;
  date: string;
  slot: TimeSlot | null;
  problem: 'taken' | 'closed' | 'past' | 'no_slot' | 'beyond_horizon' | null;
};
/** A weekly series being chosen (issue 31): the slot it repeats and its weeks, as last previewed. */
export type SeriesChoice = { anchor: TimeSlot; occurrences: WeeklyOccurrence[] };

/** How many weeks a series may span, the first included: the server's bounds (`previewWeeklySeries`). */
export const SERIES_WEEKS = { min: 2, max: 52, initial: 4 } as const;

export type BookingInput = {
  branchId: number;
  loggedIn: boolean;
  fallbackToday: string;
  /** The day to open on instead of today ("Book again": the next free week's), when it is not past. */
  openOn?: string | null;
  /** A slot of that day to choose once its slots load, when it is still bookable ("Book again"). */
  preselectSlotId?: number | null;
};

export type BookingContext = Calendar & {
  branchId: number;
  loggedIn: boolean;
  slots: TimeSlot[];
  selected: TimeSlot[];
  couponInput: string;
  coupon: AppliedCoupon | null;
  couponError: CouponError | null;
  /** Whether the offered coupon was looked up since the login (so a removed one is not applied again). */
  offerChecked: boolean;
  termsAccepted: boolean;
  summaryError: SummaryError | null;
  clientSecret: string | null;
  /** A slot picked while logged out: selected once the session is logged in (docs/decisions.md, 'Client'). */
  pendingSlot: TimeSlot | null;
  openOn: string | null;
  preselectSlotId: number | null;
  /** The weeks asked for when repeating the chosen slot weekly. */
  seriesWeeks: number;
  /** The weekly series being chosen: the basket then holds the weeks kept (`isSeriesSelection`). */
  series: SeriesChoice | null;
  /** The slot whose weeks are being previewed (the series' first week). */
  seriesAnchor: TimeSlot | null;
  /** The last preview of the weeks failed (network, server). */
  seriesFailed: boolean;
  /** The basket (`basketKey`) whose cover was last asked for, so each basket is asked about once. */
  coverAskedFor: string | null;
  /** The basket `cover` answers for; the cover of another basket is stale. */
  coverKey: string | null;
  /** What the member's credit would pay of that basket; null when it could not be read. */
  cover: CreditCover | null;
  /** The member's choice to pay with their credit (issue 31): on until they turn it off. */
  useCredit: boolean;
};

export type BookingEvent =
  | CalendarEvent
  | { type: 'slot.toggle'; slot: TimeSlot }
  | { type: 'selection.clear' }
  | { type: 'series.weeks'; weeks: number }
  | { type: 'series.preview' }
  | { type: 'series.stop' }
  | { type: 'coupon.input'; value: string }
  | { type: 'coupon.apply' }
  | { type: 'coupon.remove' }
  | { type: 'summary.open' }
  | { type: 'terms.toggle' }
  | { type: 'credit.toggle' }
  | { type: 'summary.close' }
  | { type: 'booking.confirm' }
  | { type: 'payment.failed' }
  | { type: 'payment.close' }
  | CoverChanged
  | SessionChanged;

export type SlotsInput = { branchId: number; date: string };
export type CreateBookingInput = {
  time_slot_id: number[];
  max_bookings_per_slot: 1;
  coupon_code: number | null;
  expected_total_final_price_eur: number;
  weekly_series?: true;
  use_credit?: true;
};
export type SeriesInput = { slotId: number; weeks: number };

/** `invalid_coupon` with the server's message ('Invalid coupon code.'); anything else is 'can-not-verify-coupon'. */
function isCouponNotFound(error: unknown): error is ApiError {
  return hasErrorCode(error, 'invalid_coupon') && error.detail !== null;
}

function summaryErrorOf(error: unknown): SummaryError {
  if (error instanceof ApiError) {
    if (error.code === 'payment_provider_unavailable') return { kind: 'providerFailed' };
    // A refusal the user can act on says why in the server's words (server faults carry no detail).
    if (error.detail) return { kind: 'server', detail: error.detail };
  }
  return { kind: 'cannotConfirm' };
}

/** What a logout leaves of the flow: no selection, no coupon, and the offer to look up again at the next login. */
const LOGGED_OUT = {
  loggedIn: false,
  selected: [],
  coupon: null,
  couponError: null,
  couponInput: '',
  offerChecked: false,
  series: null,
  seriesFailed: false,
  cover: null,
  coverKey: null,
} satisfies Partial<BookingContext>;

/** What a booking made leaves of the flow: an empty basket, whose credit was spent (or not) with it. */
const BOOKED = {
  selected: [],
  series: null,
  seriesFailed: false,
  summaryError: null,
  cover: null,
  coverKey: null,
} satisfies Partial<BookingContext>;

/**
 * The selection after `slot` is chosen or dropped. A slot outside the series being chosen ends the series (the
 * basket is then a plain selection of slots, each still booked on its own).
 */
function toggled(context: BookingContext, slot: TimeSlot): Partial<BookingContext> {
  const chosen = context.selected.some((candidate) => candidate.id === slot.id);
  const inSeries = context.series?.occurrences.some((week) => week.slot?.id === slot.id) ?? false;
  return {
    selected: chosen
      ? context.selected.filter((candidate) => candidate.id !== slot.id)
      : [...context.selected, slot],
    series: inSeries ? context.series : null,
    seriesFailed: false,
  };
}

export const bookingMachine = setup({
  types: machineTypes<BookingContext, BookingEvent, BookingInput>(),
  actors: {
    // Provided by machines/booking.actors.ts (tests provide scripted ones).
    loadLocalTime: placeholder<string, { branchId: number }>('loadLocalTime'),
    loadSlots: placeholder<TimeSlot[], SlotsInput>('loadSlots'),
    checkCoupon: placeholder<Coupon, { code: string }>('checkCoupon'),
    loadOfferedCoupon: placeholder<OfferedCoupon | null>('loadOfferedCoupon'),
    previewWeeklySeries: placeholder<WeeklyOccurrence[], SeriesInput>('previewWeeklySeries'),
    createBooking: placeholder<string | null, CreateBookingInput>('createBooking'),
    // The app provides sessionChanges(session) (machines/session.changes.ts): logins and logouts meanwhile.
    sessionChanges: withoutSessionChanges,
    // The app provides creditCoverMachine (machines/creditCover.machine.ts) over the API client; any logic
    // that hears `basket.changed` and tells `cover.changed` will do.
    creditCover: withoutCreditCover as AnyActorLogic,
  },
  actions: {
    // Provided by the app: opens the auth modal on its login view.
    requestLogin: () => {},
    // A booking used some of the offered coupon's uses: it is looked up again (and dropped if none are left).
    forgetOfferedCoupon: assign(({ context }) =>
      context.coupon?.offered ? { coupon: null, offerChecked: false } : {},
    ),
    // The basket changed: the cover child is told (it asks once the basket rests), or told there is none.
    askCover: sendTo('cover', ({ context }): BasketChanged => ({
      type: 'basket.changed',
      key: basketKey(context),
      basket: coverRequest(context),
    })),
  },
  guards: {
    isLoggedIn: ({ context }) => context.loggedIn,
    // Not xstate's not(): that helper would join the landing page's share of xstate (tests/ui/bundle-budgets).
    isLoggedOut: ({ context }) => !context.loggedIn,
    isSelectable: ({ context, event }) =>
      event.type === 'slot.toggle' &&
      (event.slot.is_bookeable || context.selected.some((slot) => slot.id === event.slot.id)),
    isSelectableDate: ({ context, event }) => event.type === 'date.select' && event.date >= context.today,
    hasSelection: ({ context }) => context.selected.length > 0,
    // One slot chosen (or a series already being chosen, whose weeks are asked for again): it can repeat weekly.
    canRepeat: ({ context }) =>
      context.loggedIn && (context.series !== null || context.selected.length === 1),
    hasSeries: ({ context }) => context.series !== null,
    isWeeksInRange: ({ event }) =>
      event.type === 'series.weeks' &&
      Number.isInteger(event.weeks) &&
      event.weeks >= SERIES_WEEKS.min &&
      event.weeks <= SERIES_WEEKS.max,
    hasCouponInput: ({ context }) => context.couponInput.trim() !== '',
    needsOffer: ({ context }) => context.loggedIn && !context.offerChecked && context.coupon === null,
    hasTermsAccepted: ({ context }) => context.termsAccepted,
    // The cover of this basket is known (or known to be unreadable): what the booking pays is settled.
    isCoverSettled: ({ context }) => isCoverSettled(context),
    hasBasketMoved: ({ context }) => basketKey(context) !== context.coverAskedFor,
    isCurrentCover: ({ context, event }) =>
      event.type === 'cover.changed' && event.key === basketKey(context),
    hasCredit: ({ context }) => (currentCover(context)?.credit_eur ?? 0) > 0,
    isPriceChanged: ({ event }) => hasErrorCode((event as { error?: unknown }).error, 'price_changed'),
    isCouponNotFound: ({ event }) => isCouponNotFound((event as { error?: unknown }).error),
    hasPendingSlot: ({ context, event }) =>
      event.type === 'session.changed' && event.loggedIn && context.pendingSlot !== null,
  },
}).createMachine({
  id: 'booking',
  context: ({ input }) => ({
    branchId: input.branchId,
    loggedIn: input.loggedIn,
    ...calendarFrom(input.fallbackToday),
    slots: [],
    selected: [],
    couponInput: '',
    coupon: null,
    couponError: null,
    offerChecked: false,
    termsAccepted: false,
    summaryError: null,
    clientSecret: null,
    pendingSlot: null,
    openOn: input.openOn ?? null,
    preselectSlotId: input.preselectSlotId ?? null,
    seriesWeeks: SERIES_WEEKS.initial,
    series: null,
    seriesAnchor: null,
    seriesFailed: false,
    coverAskedFor: null,
    coverKey: null,
    cover: null,
    useCredit: true,
  }),
  invoke: [
    { id: 'session', src: 'sessionChanges' },
    { id: 'cover', src: 'creditCover' },
  ],
  // Issue 31: whenever the basket (its slots, its coupon, the member) changes, its cover is asked for again.
  always: {
    guard: 'hasBasketMoved',
    actions: [assign(({ context }) => ({ coverAskedFor: basketKey(context) })), 'askCover'],
  },
  on: {
    'cover.changed': {
      guard: 'isCurrentCover',
      actions: assign(({ event }) => ({ coverKey: event.key, cover: event.cover })),
    },
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
        actions: assign(({ event }) => (event.loggedIn ? { loggedIn: true } : LOGGED_OUT)),
      },
    ],
  },
  initial: 'loadingToday',
  states: {
    loadingToday: loadingToday<BookingContext, BookingEvent>(
      (context) => context.branchId,
      (context) => context.openOn,
    ),
    browsing: {
      type: 'parallel',
      on: {
        'date.select': {
          guard: 'isSelectableDate',
          target: '.slots.loading',
          actions: assign(({ event }) => calendarOn(event.date)),
        },
        ...monthNavigation<BookingContext, BookingEvent>(),
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
                  // Selected slots of this date that are no longer bookable are dropped (docs/decisions.md, 'Bookings and payments').
                  actions: assign(({ context, event }) => {
                    const bookable = new Set(
                      event.output.filter((slot) => slot.is_bookeable).map((slot) => slot.id),
                    );
                    const selected = context.selected.filter(
                      (slot) => slotDate(slot) !== context.date || bookable.has(slot.id),
                    );
                    // "Book again": its slot is chosen on the first load, if a member may still book it.
                    const preselected = event.output.find(
                      (slot) =>
                        slot.id === context.preselectSlotId &&
                        slot.is_bookeable &&
                        context.loggedIn &&
                        !selected.some((chosen) => chosen.id === slot.id),
                    );
                    const next = preselected ? [...selected, preselected] : selected;
                    return {
                      slots: event.output,
                      selected: next,
                      preselectSlotId: null,
                      // A failed look-up of the weeks is told until the basket changes.
                      seriesFailed: next.length === context.selected.length && context.seriesFailed,
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
                    guard: and(['isLoggedIn', 'isSelectable']),
                    actions: assign(({ context, event }) => toggled(context, event.slot)),
                  },
                  {
                    guard: 'isSelectable',
                    actions: [assign(({ event }) => ({ pendingSlot: event.slot })), 'requestLogin'],
                  },
                ],
                'selection.clear': {
                  guard: 'hasSelection',
                  actions: assign({ selected: [], series: null, seriesFailed: false }),
                },
                'summary.open': {
                  guard: 'hasSelection',
                  target: '#booking.summary',
                },
              },
            },
            failed: {},
          },
        },
        // Issue 31: the chosen slot repeated weekly. The server previews the weeks (price, or why one cannot be
        // booked); the bookable ones fill the basket, and the member drops any of them like any chosen slot.
        series: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'series.weeks': {
                  guard: 'isWeeksInRange',
                  actions: assign(({ event }) => ({ seriesWeeks: event.weeks })),
                },
                'series.preview': {
                  guard: 'canRepeat',
                  target: 'previewing',
                  actions: assign(({ context }) => ({
                    seriesAnchor: context.series?.anchor ?? context.selected[0]!,
                  })),
                },
                // The series is dropped; its first week stays chosen if it was.
                'series.stop': {
                  guard: 'hasSeries',
                  actions: assign(({ context }) => ({
                    selected: context.selected.filter((slot) => slot.id === context.series!.anchor.id),
                    series: null,
                    seriesFailed: false,
                  })),
                },
              },
            },
            previewing: {
              invoke: {
                id: 'previewWeeklySeries',
                src: 'previewWeeklySeries',
                input: ({ context }) => ({
                  slotId: context.seriesAnchor!.id,
                  weeks: context.seriesWeeks,
                }),
                onDone: {
                  target: 'idle',
                  // Logged out meanwhile: the basket was emptied, and stays so.
                  actions: assign(({ context, event }) =>
                    context.loggedIn
                      ? {
                          series: {
                            anchor: context.seriesAnchor!,
                            occurrences: event.output,
                          },
                          selected: event.output.flatMap((week) =>
                            week.slot && !week.problem ? [week.slot] : [],
                          ),
                          seriesFailed: false,
                        }
                      : {},
                  ),
                },
                onError: { target: 'idle', actions: assign({ seriesFailed: true }) },
              },
            },
          },
        },
        coupon: {
          initial: 'idle',
          states: {
            idle: {
              // A logged-in member's offered coupon (the early bird) is applied once, unless one is applied already.
              always: { guard: 'needsOffer', target: 'offering' },
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
            offering: {
              // Logged out meanwhile: the answer would be the previous member's.
              always: { guard: 'isLoggedOut', target: 'idle' },
              on: {
                'coupon.input': {
                  actions: assign(({ event }) => ({ couponInput: event.value, couponError: null })),
                },
                // A code typed meanwhile wins over the offer.
                'coupon.apply': {
                  guard: 'hasCouponInput',
                  target: 'checking',
                  actions: assign({ offerChecked: true }),
                },
              },
              invoke: {
                id: 'loadOfferedCoupon',
                src: 'loadOfferedCoupon',
                onDone: {
                  target: 'idle',
                  actions: assign(({ event }) => ({
                    offerChecked: true,
                    coupon: event.output && { ...event.output, offered: true },
                  })),
                },
                // Without the offer the member can still type the code; the server prices it all the same.
                onError: { target: 'idle', actions: assign({ offerChecked: true }) },
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
                    // Codes are case-insensitive and written in capitals: 'welcome5' is echoed as WELCOME5.
                    coupon: { ...event.output, code: context.couponInput.trim().toUpperCase() },
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
          actions: assign({ ...LOGGED_OUT, summaryError: null }),
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
            'credit.toggle': {
              guard: 'hasCredit',
              actions: assign(({ context }) => ({ useCredit: !context.useCredit })),
            },
            'booking.confirm': { guard: and(['hasTermsAccepted', 'isCoverSettled']), target: 'creating' },
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
              // With credit, what is left to pay as the cover said (issue 31); else the basket's total.
              expected_total_final_price_eur: usesCredit(context)
                ? context.cover!.due_eur
                : totalEuros(context.selected, couponTerms(context)),
              ...(isSeriesSelection(context) ? { weekly_series: true as const } : {}),
              ...(usesCredit(context) ? { use_credit: true as const } : {}),
            }),
            onDone: [
              {
                guard: ({ event }) => event.output === null,
                target: '#booking.confirmed',
                actions: assign({ ...BOOKED, clientSecret: null }),
              },
              {
                target: '#booking.payment',
                actions: assign(({ event }) => ({ ...BOOKED, clientSecret: event.output })),
              },
            ],
            onError: [
              // The total changed meanwhile (a price, the credit spent elsewhere): said as the server words it, and
              // the basket's cover is asked for again, so the next confirmation sends what is due now.
              {
                guard: 'isPriceChanged',
                target: 'reviewing',
                actions: assign(({ event }) => ({
                  summaryError: summaryErrorOf(event.error),
                  coverAskedFor: null,
                  coverKey: null,
                  cover: null,
                })),
              },
              {
                target: 'reviewing',
                actions: assign(({ event }) => ({ summaryError: summaryErrorOf(event.error) })),
              },
            ],
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
        // Without the new list the old one is stale (it misses the new holds), as after a failed load of the grid;
        // the grid loads again when the dialog closes. Unhandled, the failure would stop the whole flow.
        onError: { actions: assign({ slots: [] }) },
      },
      on: {
        'payment.close': {
          target: 'browsing',
          actions: [assign({ clientSecret: null }), 'forgetOfferedCoupon'],
        },
      },
      states: {
        checkout: { on: { 'payment.failed': 'failed' } },
        failed: {},
      },
    },
    /** A booking whose total was 0 EUR is confirmed at once, without a checkout. */
    confirmed: {
      on: { 'payment.close': { target: 'browsing', actions: 'forgetOfferedCoupon' } },
    },
  },
});
