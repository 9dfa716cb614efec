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
