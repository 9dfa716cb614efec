import { INTL_LOCALES, type Locale } from './i18n.ts';

// Money is integer cents everywhere on the server; euros appear only at the edges (JSON in and out).

/** Coupon discounts are stored as numeric(5, 4): a whole number of basis points of a hundredth of a percent. */
const DISCOUNT_SCALE = 10_000;

/** Euros as JSON carries them (at most two decimals) to cents; 0.29 is 29, not 28.999... */
export function eurosToCents(euros: number): number {
  return Math.round(Number((euros * 100).toFixed(6)));
}

/** Cents to euros with two decimals, as JSON shows them. */
export function centsToEuros(cents: number): number {
  return Math.round(cents) / 100;
}

/**
 * A slot's price after a discount: round-half-up(priceCents x (1 - discount)), computed in integers so no
 * binary fraction can tip a half cent the wrong way (1250 x 0.9 = 1125; 1255 x 0.9 = 1129.5 -> 1130).
 */
export function discountedCents(priceCents: number, discount: number): number {
  if (!Number.isInteger(priceCents) || priceCents < 0)
    throw new RangeError(`not a price in cents: ${priceCents}`);
  if (!(discount >= 0 && discount <= 1)) throw new RangeError(`not a discount fraction: ${discount}`);
  const keptScaled = DISCOUNT_SCALE - Math.round(discount * DISCOUNT_SCALE);
  return Math.floor((priceCents * keptScaled + DISCOUNT_SCALE / 2) / DISCOUNT_SCALE);
}

/** A refund: round-half-up(priceCents x ratio), in the same integer arithmetic as discounts. */
export function portionCents(priceCents: number, ratio: number): number {
  return discountedCents(priceCents, 1 - ratio);
}

export function sumCents(amounts: readonly number[]): number {
  return amounts.reduce((total, cents) => total + cents, 0);
}

/** Compares a figure the client showed (euros) with the server's (cents), in cents. */
export function sameAmount(clientEuros: number, serverCents: number): boolean {
  return eurosToCents(clientEuros) === serverCents;
}

/** An amount as a reader of that language writes it: '12,50 €' in Portuguese, '€12.50' in English. */
export function formatMoney(locale: Locale, cents: number): string {
  return new Intl.NumberFormat(INTL_LOCALES[locale], { style: 'currency', currency: 'EUR' }).format(
    cents / 100,
  );
}
