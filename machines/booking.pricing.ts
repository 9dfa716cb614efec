import { assign, type DoneActorEvent, type ErrorActorEvent, type EventObject } from 'xstate';
import { temporal } from './temporal.ts';
import type { components } from '../openapi/schema.gen.ts';

export type TimeSlot = components['schemas']['TimeSlot'];
export type Coupon = components['schemas']['Coupon'];

/** Euros (2 decimals on the wire) to integer cents, so sums never drift. */
export function toCents(euros: number): number {
  return Math.round(euros * 100);
}

/**
 * docs/decisions.md (Money): round-half-up(price x (1 - discount)) in integers. The discount has at most
 * four decimals, so it is taken in basis points.
 */
export function discountedCents(priceEuros: number, discount: number | null): number {
  const cents = toCents(priceEuros);
  if (!discount) return cents;
  const basisPoints = Math.round(discount * 10_000);
  return Math.floor((cents * (10_000 - basisPoints) + 5_000) / 10_000);
}

/** The part of a coupon that prices a booking: its discount and how many slots it may still discount. */
export type CouponTerms = { discount: number; remainingUses: number | null } | null;

/**
 * The discount each slot gets, by the server's rule (docs/decisions.md): the coupon's, for the earliest
 * `remainingUses` slots by start time (all of them when it has no cap); null for the others.
 */
export function discountsBySlot(slots: readonly TimeSlot[], coupon: CouponTerms): Map<number, number | null> {
  const byStart = [...slots].sort((a, b) => a.start_time.localeCompare(b.start_time) || a.id - b.id);
  return new Map(
    byStart.map((slot, index) => [
      slot.id,
      coupon && (coupon.remainingUses === null || index < coupon.remainingUses) ? coupon.discount : null,
    ]),
  );
}

/** expected_total_final_price_eur: the sum of the discounted slot prices, in euros. */
export function totalEuros(slots: readonly TimeSlot[], coupon: CouponTerms): number {
  const discounts = discountsBySlot(slots, coupon);
  return (
    slots.reduce(
      (sum, slot) => sum + discountedCents(slot.basic_price_eur, discounts.get(slot.id) ?? null),
      0,
    ) / 100
  );
}

/** The branch-local calendar date of a slot (its ISO string carries the branch's offset). */
export function slotDate(slot: TimeSlot): string {
  return slot.start_time.slice(0, 10);
}

/** Selected slots grouped by date, dates sorted, slots in each date sorted by start. */
export function groupByDate(slots: readonly TimeSlot[]): { date: string; slots: TimeSlot[] }[] {
  const groups = new Map<string, TimeSlot[]>();
  for (const slot of [...slots].sort((a, b) => a.start_time.localeCompare(b.start_time))) {
    const date = slotDate(slot);
    groups.set(date, [...(groups.get(date) ?? []), slot]);
  }
  return [...groups.keys()].sort().map((date) => ({ date, slots: groups.get(date)! }));
}

/** The branch's calendar date of an ISO date-time with offset (the local-time answer). */
export function branchDate(iso: string): string {
  return iso.slice(0, 10);
}

/** docs/decisions.md, 'Client': 42 day cells, weeks starting on Monday, for the month of `month` (yyyy-MM). */
export function calendarCells(month: string): string[] {
  const first = temporal().PlainYearMonth.from(month).toPlainDate({ day: 1 });
  const start = first.subtract({ days: first.dayOfWeek - 1 });
  return Array.from({ length: 42 }, (_, index) => start.add({ days: index }).toString());
}

export function shiftMonth(month: string, months: number): string {
  return temporal().PlainYearMonth.from(month).add({ months }).toString();
}

/** The calendar the booking and the move flows browse: the branch's today, the chosen date, the shown month. */
export type Calendar = { today: string; date: string; month: string };

/** What the calendar takes: a date picked, the month before or after. */
export type CalendarEvent =
  { type: 'date.select'; date: string } | { type: 'month.previous' } | { type: 'month.next' };

/** The calendar on `date`, showing its month. */
export function calendarOn(date: string): Pick<Calendar, 'date' | 'month'> {
  return { date, month: date.slice(0, 7) };
}

/** The calendar opened on the branch's today (from its local time, or the device's fallback). */
export function calendarFrom(localTime: string): Calendar {
  const today = branchDate(localTime);
  return { today, ...calendarOn(today) };
}

/**
 * Opening the calendar (the booking and the move flows): on the branch's today as its local time says
 * (`loadLocalTime`), else on the device's, which the context holds already; either way on to `browsing`.
 */
export function loadingToday<TContext extends Calendar, TEvent extends EventObject>(
  branchId: (context: TContext) => number,
  /** The day to open on instead of today, when it is not past (the move flow: the booking's own day). */
  openOn: (context: TContext) => string | null = () => null,
) {
  /** The day to open on, when the flow names one that is not before `today`. */
  const openDay = (context: TContext, today: string) => {
    const date = openOn(context);
    return date !== null && date >= today ? calendarOn(date) : {};
  };
  return {
    invoke: {
      id: 'loadLocalTime',
      src: 'loadLocalTime',
      input: ({ context }: { context: TContext }) => ({ branchId: branchId(context) }),
      onDone: {
        target: 'browsing',
        actions: assign<TContext, DoneActorEvent<string>, undefined, TEvent, never>(({ context, event }) => {
          const calendar = calendarFrom(event.output);
          return { ...calendar, ...openDay(context, calendar.today) } as Partial<TContext>;
        }),
      },
      onError: {
        target: 'browsing',
        actions: assign<TContext, ErrorActorEvent, undefined, TEvent, never>(({ context }) =>
          openDay(context, context.today),
        ),
      },
    },
  } as const;
}

/** The calendar's month buttons, as the booking and the move flows take them: one month back, one forward. */
export function monthNavigation<TContext extends Calendar, TEvent extends EventObject>() {
  const shift = (months: number) => ({
    actions: assign<TContext, TEvent, undefined, TEvent, never>(
      ({ context }) => ({ month: shiftMonth(context.month, months) }) as Partial<TContext>,
    ),
  });
  return { 'month.previous': shift(-1), 'month.next': shift(1) };
}

/** True when the device's current UTC offset differs from the branch's (docs/decisions.md, 'Client'). */
export function deviceOffsetDiffers(branchTimeZone: string, deviceTimeZone: string): boolean {
  const now = temporal().Now.instant();
  return (
    now.toZonedDateTimeISO(branchTimeZone).offsetNanoseconds !==
    now.toZonedDateTimeISO(deviceTimeZone).offsetNanoseconds
  );
}
