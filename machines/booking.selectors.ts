import type { BookingContext } from './booking.machine.ts';
import { discountsBySlot, type CouponTerms, type TimeSlot } from './booking.pricing.ts';

// What the booking views read of the machine's context (the machine itself prices the booking with them too).

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

/**
 * Whether the basket is a weekly series to book as one (`weekly_series`): two or more chosen slots, every one a
 * week of the series being chosen. Fewer, or another slot added, and they are booked as separate slots.
 */
export function isSeriesSelection(context: Pick<BookingContext, 'series' | 'selected'>): boolean {
  const { series, selected } = context;
  return (
    series !== null &&
    selected.length >= 2 &&
    selected.every((slot) => series.occurrences.some((week) => week.slot?.id === slot.id))
  );
}

/**
 * The basket whose cover the member's credit is asked for (issue 31): its slots and coupon, as a key that changes
 * with either; null without a member or a slot (nothing to cover).
 */
export function basketKey(context: Pick<BookingContext, 'loggedIn' | 'selected' | 'coupon'>): string | null {
  if (!context.loggedIn || context.selected.length === 0) return null;
  const ids = context.selected.map((slot) => slot.id).sort((a, b) => a - b);
  return `${ids.join(',')}|${context.coupon?.id ?? ''}`;
}

/** The basket as the cover preview takes it, or null when there is none. */
export function coverRequest(
  context: Pick<BookingContext, 'loggedIn' | 'selected' | 'coupon'>,
): { time_slot_id: number[]; coupon_code: number | null } | null {
  if (basketKey(context) === null) return null;
  return {
    time_slot_id: context.selected.map((slot) => slot.id).sort((a, b) => a - b),
    coupon_code: context.coupon?.id ?? null,
  };
}

type CoverFacts = Pick<
  BookingContext,
  'loggedIn' | 'selected' | 'coupon' | 'coverKey' | 'cover' | 'useCredit'
>;

/** The cover of the basket as it stands: null while it is asked for, when unreadable, or for another basket. */
export function currentCover(context: CoverFacts): BookingContext['cover'] {
  return context.coverKey !== null && context.coverKey === basketKey(context) ? context.cover : null;
}

/** The basket's cover is known, or known to be unreadable (then the booking is paid without credit). */
export function isCoverSettled(context: CoverFacts): boolean {
  const key = basketKey(context);
  return key === null || context.coverKey === key;
}

/** The basket's cover could not be read: the booking is paid in full, without credit. */
export function isCoverUnread(context: CoverFacts): boolean {
  return basketKey(context) !== null && context.coverKey === basketKey(context) && context.cover === null;
}

/** The booking spends the member's credit: it covers something of the basket and the member keeps it on. */
export function usesCredit(context: CoverFacts): boolean {
  return context.useCredit && (currentCover(context)?.credit_eur ?? 0) > 0;
}
