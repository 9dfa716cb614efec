/** One tier of the refund policy: cancelling more than `hours` ahead refunds `percent` of the price. */
type RefundTier = { hours: number; percent: number };

/** The refund ratios (hour threshold as a string -> fraction), sorted by threshold, descending (docs/decisions.md, 'Bookings and payments'). */
export function refundTiers(ratios: Record<string, number>): RefundTier[] {
  return Object.entries(ratios)
    .map(([hours, ratio]) => ({ hours: Number(hours), percent: Math.round(ratio * 10000) / 100 }))
    .filter((tier) => Number.isFinite(tier.hours) && Number.isFinite(tier.percent))
    .sort((a, b) => b.hours - a.hours);
}

/**
 * How a tier reads: 'more than N hours ahead' (`above`), 'less than N hours ahead' for the 0 threshold below a
 * higher one (`below`: never 'more than 0 hours'), or 'at any time' when 0 is the only threshold (`always`).
 */
export type RefundSentence =
  | { kind: 'above'; hours: number; percent: number }
  | { kind: 'below'; hours: number; percent: number }
  | { kind: 'always'; percent: number };

/** refundRatiosText: each tier rendered by the locale's sentence, joined by spaces. */
export function refundPolicyText(
  ratios: Record<string, number>,
  sentence: (tier: RefundSentence) => string,
): string {
  const tiers = refundTiers(ratios);
  return tiers
    .map((tier, index): RefundSentence => {
      if (tier.hours > 0) return { kind: 'above', hours: tier.hours, percent: tier.percent };
      const next = tiers[index - 1];
      return next
        ? { kind: 'below', hours: next.hours, percent: tier.percent }
        : { kind: 'always', percent: tier.percent };
    })
    .map(sentence)
    .join(' ');
}
