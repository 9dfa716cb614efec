// The refund schedule of a booking (issue 30), for the booking modal's summary and My bookings. Apart from
// machines/refund.ts (the policy's sentences, which the landing page loads): importing it here would split it
// into a chunk of its own on the landing page (tests/ui/bundle-budgets.test.ts).

/** The policy's tiers, highest threshold first, each threshold in hours and its refund as a whole percent. */
function tiersOf(ratios: Record<string, number>): { hours: number; percent: number }[] {
  return Object.entries(ratios)
    .map(([hours, ratio]) => ({ hours: Number(hours), percent: Math.round(ratio * 10000) / 100 }))
    .filter((tier) => Number.isFinite(tier.hours) && tier.hours >= 0 && Number.isFinite(tier.percent))
    .sort((a, b) => b.hours - a.hours);
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
  const tiers = tiersOf(ratios);
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
  const hours = tiersOf(ratios)
    .map((tier) => tier.hours)
    .filter((value) => value > 0);
  return hours.length > 0 ? Math.min(...hours) : null;
}
