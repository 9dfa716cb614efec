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

/** One step of a booking's refund as its start nears: cancelling until `until` (epoch ms, inclusive) refunds `percent`. */
export type RefundStep = { percent: number; until: number };

const HOUR_MS = 3_600_000;

/**
 * The refunds a booking starting at `start` (epoch ms) gives from `now` on, in order, the last ending at the
 * start. A threshold of h hours applies while at least h hours are left (server/booking/refunds.ts); with less
 * than the lowest threshold left and no 0 threshold, nothing is refunded. Steps already over are left out, and
 * steps in a row with the same refund are one. Empty once the booking has started.
 */
export function refundSchedule(ratios: Record<string, number>, start: number, now: number): RefundStep[] {
  const tiers = refundTiers(ratios).filter((tier) => tier.hours >= 0);
  const steps = tiers.map((tier) => ({ percent: tier.percent, until: start - tier.hours * HOUR_MS }));
  if (!tiers.some((tier) => tier.hours === 0)) steps.push({ percent: 0, until: start });
  const merged: RefundStep[] = [];
  for (const step of steps.filter((candidate) => candidate.until > now)) {
    const last = merged.at(-1);
    if (last && last.percent === step.percent) last.until = step.until;
    else merged.push({ ...step });
  }
  return now < start ? merged : [];
}

/** The lowest threshold above 0 hours (the "less than N hours" of a booking no longer refundable), or null. */
export function lowestRefundThreshold(ratios: Record<string, number>): number | null {
  const hours = refundTiers(ratios)
    .map((tier) => tier.hours)
    .filter((value) => value > 0);
  return hours.length > 0 ? Math.min(...hours) : null;
}
