import { discountedCents, sumCents } from '../kernel/money.ts';

export type SlotToPrice = { id: number; startTime: Date; priceCents: number };
export type CouponToApply = { id: number; discount: number; remainingUses: number | null };
export type PricedSlot = {
  slotId: number;
  basePriceCents: number;
  finalPriceCents: number;
  couponId: number | null;
};

/**
 * Prices a booking on the server. The coupon's discount applies per slot, rounded half up to the cent; when
 * the user has fewer uses left than slots (the early-bird coupon's first 3 slots), it applies to the earliest
 * slots by start time and the rest keep their basic price. The total is the sum of the rounded slot prices.
 */
export function priceSlots(
  slots: readonly SlotToPrice[],
  coupon: CouponToApply | null,
): { slots: PricedSlot[]; totalCents: number } {
  const byStart = [...slots].sort((a, b) => a.startTime.getTime() - b.startTime.getTime() || a.id - b.id);
  const priced = byStart.map((slot, index) => {
    const discounted = coupon !== null && (coupon.remainingUses === null || index < coupon.remainingUses);
    return {
      slotId: slot.id,
      basePriceCents: slot.priceCents,
      finalPriceCents: discounted ? discountedCents(slot.priceCents, coupon.discount) : slot.priceCents,
      couponId: discounted ? coupon.id : null,
    };
  });
  return { slots: priced, totalCents: sumCents(priced.map((slot) => slot.finalPriceCents)) };
}
