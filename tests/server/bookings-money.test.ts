import { describe, expect, it } from 'vitest';
import {
  centsToEuros,
  discountedCents,
  eurosToCents,
  portionCents,
  sameAmount,
  sumCents,
} from '../../server/kernel/money.ts';
import { priceSlots } from '../../server/booking/pricing.ts';

describe('money in cents', () => {
  it('rounds a discounted price half up to the cent', () => {
    expect(discountedCents(1500, 0.1)).toBe(1350);
    expect(discountedCents(1255, 0.1)).toBe(1130); // 1129.5
    expect(discountedCents(1245, 0.1)).toBe(1121); // 1120.5
    expect(discountedCents(1, 0.5)).toBe(1); // 0.5
    expect(discountedCents(999, 0.3333)).toBe(666); // 666.0333
    expect(discountedCents(1999, 0.05)).toBe(1899); // 1899.05
  });

  it('never lets a binary fraction tip a half cent the wrong way', () => {
    // 0.07 x 0.5 is 0.035000000000000003 in floating point; 0.15 x 0.7 = 0.10499999999999998.
    expect(discountedCents(7, 0.5)).toBe(4);
    expect(discountedCents(15, 0.3)).toBe(11); // 10.5
  });

  it('keeps the whole price without a discount and nothing with a full one', () => {
    expect(discountedCents(1500, 0)).toBe(1500);
    expect(discountedCents(1500, 1)).toBe(0);
  });

  it('refuses prices that are not whole cents and discounts outside 0..1', () => {
    expect(() => discountedCents(12.5, 0.1)).toThrow(RangeError);
    expect(() => discountedCents(100, 1.5)).toThrow(RangeError);
  });

  it('takes a refund portion with the same rounding', () => {
    expect(portionCents(1255, 0.5)).toBe(628); // 627.5
    expect(portionCents(1350, 1)).toBe(1350);
    expect(portionCents(1350, 0)).toBe(0);
  });

  it('reads client euro figures into exact cents and writes two-decimal euros', () => {
    expect(eurosToCents(0.29)).toBe(29);
    expect(eurosToCents(13.5)).toBe(1350);
    expect(eurosToCents(1.005)).toBe(101);
    expect(centsToEuros(1129)).toBe(11.29);
    expect(sameAmount(40.5, 4050)).toBe(true);
    expect(sameAmount(40.49, 4050)).toBe(false);
    expect(sumCents([1350, 1350, 1500])).toBe(4200);
  });
});

describe('pricing a booking', () => {
  const at = (iso: string) => new Date(iso);
  const slots = [
    { id: 14, startTime: at('2026-04-01T13:00:00Z'), priceCents: 1255 },
    { id: 11, startTime: at('2026-04-01T10:00:00Z'), priceCents: 1255 },
    { id: 12, startTime: at('2026-04-01T11:00:00Z'), priceCents: 1255 },
    { id: 13, startTime: at('2026-04-01T12:00:00Z'), priceCents: 1255 },
  ];

  it('sums the rounded slot prices rather than rounding the discounted sum', () => {
    const { totalCents } = priceSlots(slots, { id: 1, discount: 0.1, remainingUses: null });
    expect(totalCents).toBe(4 * 1130); // not round(4 x 1129.5) = 4518
  });

  it('applies a coupon with uses left for fewer slots to the earliest slots only', () => {
    const priced = priceSlots(slots, { id: 7, discount: 0.1, remainingUses: 3 });
    expect(priced.slots.map((slot) => [slot.slotId, slot.finalPriceCents, slot.couponId])).toEqual([
      [11, 1130, 7],
      [12, 1130, 7],
      [13, 1130, 7],
      [14, 1255, null],
    ]);
    expect(priced.totalCents).toBe(3 * 1130 + 1255);
  });

  it('charges the basic prices without a coupon', () => {
    expect(priceSlots(slots, null).totalCents).toBe(4 * 1255);
  });
});
