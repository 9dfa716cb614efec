import type { Temporal } from 'temporal-polyfill';
import type { RefundRatios } from '../db/schema.ts';
import { portionCents } from '../kernel/money.ts';

// The refund policy: final price x the ratio of the largest hour threshold not above the hours left before the
// start. Hours are real elapsed hours (48 h before a start after a DST change is 48 real hours, not the same
// wall-clock time two days earlier).

const MILLISECONDS_PER_HOUR = 3_600_000;

function hoursUntil(start: Temporal.Instant, now: Temporal.Instant): number {
  return (start.epochMilliseconds - now.epochMilliseconds) / MILLISECONDS_PER_HOUR;
}

/** The ratio in force with `hoursLeft` hours to go; 0 when no threshold is reached. */
function refundRatioAt(ratios: RefundRatios, hoursLeft: number): number {
  let best: { threshold: number; ratio: number } | null = null;
  for (const [threshold, ratio] of Object.entries(ratios)) {
    const hours = Number(threshold);
    if (hours <= hoursLeft && (best === null || hours > best.threshold)) best = { threshold: hours, ratio };
  }
  return best?.ratio ?? 0;
}

/** The policy's ratio for cancelling now (what credit comes back at, issue 31); 0 once the booking has started. */
export function refundRatio(
  booking: { refundRatios: RefundRatios; start: Temporal.Instant },
  now: Temporal.Instant,
): number {
  const hoursLeft = hoursUntil(booking.start, now);
  return hoursLeft <= 0 ? 0 : refundRatioAt(booking.refundRatios, hoursLeft);
}

/**
 * What cancelling now would refund, in cents; 0 once the booking has started. `finalPriceCents` is the money part
 * of the price (`moneyPartCents`): what credit paid comes back as credit, at the same ratio.
 */
export function refundableCents(
  booking: { finalPriceCents: number; refundRatios: RefundRatios; start: Temporal.Instant },
  now: Temporal.Instant,
): number {
  const hoursLeft = hoursUntil(booking.start, now);
  if (hoursLeft <= 0) return 0;
  return portionCents(booking.finalPriceCents, refundRatioAt(booking.refundRatios, hoursLeft));
}

/**
 * Whether the booking may still move: its start is at least the policy's highest threshold away, so the
 * best refund tier still applies (a move never turns a partly refundable booking into a fully refundable one).
 */
export function withinBestRefundTier(
  booking: { refundRatios: RefundRatios; start: Temporal.Instant },
  now: Temporal.Instant,
): boolean {
  const hoursLeft = hoursUntil(booking.start, now);
  return hoursLeft > 0 && hoursLeft >= highestThreshold(booking.refundRatios);
}

export function highestThreshold(ratios: RefundRatios): number {
  return Math.max(0, ...Object.keys(ratios).map(Number));
}

/** The part of a booking's price paid in money: its price less what the member's credit paid (issue 31). */
export function moneyPartCents(booking: { final_price_cents: number; credit_cents: number }): number {
  return booking.final_price_cents - booking.credit_cents;
}
