/** One tier of the refund policy: cancelling more than `hours` ahead refunds `percent` of the price. */
export type RefundTier = { hours: number; percent: number };

/** The refund ratios (hour threshold as a string -> fraction), sorted by threshold, descending (docs/decisions.md, 'Bookings and payments'). */
export function refundTiers(ratios: Record<string, number>): RefundTier[] {
  return Object.entries(ratios)
    .map(([hours, ratio]) => ({ hours: Number(hours), percent: Math.round(ratio * 10000) / 100 }))
    .filter((tier) => Number.isFinite(tier.hours) && Number.isFinite(tier.percent))
    .sort((a, b) => b.hours - a.hours);
}

/** refundRatiosText: each tier rendered by the locale's sentence, joined by spaces. */
export function refundPolicyText(
  ratios: Record<string, number>,
  sentence: (tier: RefundTier) => string,
): string {
  return refundTiers(ratios).map(sentence).join(' ');
}
