import type { components } from '../openapi/schema.gen.ts';

export type Booking = components['schemas']['Booking'];
export type BookingList = 'active' | 'past' | 'canceled';
export type BookingStatusLabel = 'active' | 'past' | 'canceled' | 'expired' | 'awaiting_payment';

/** What the member's credit paid of a booking (issue 31: `credit_eur`, present only then), when it paid something. */
export function creditPaidEur(booking: Pick<Booking, 'credit_eur'>): number | null {
  return booking.credit_eur !== undefined && booking.credit_eur > 0 ? booking.credit_eur : null;
}

/** docs/decisions.md, 'Bookings and payments', list grouping: active and in the past -> Past; active -> Active; otherwise Canceled. */
export function listOf(booking: Booking): BookingList {
  if (booking.active) return booking.is_in_past ? 'past' : 'active';
  return 'canceled';
}

/** docs/decisions.md, 'Bookings and payments', display status: canceled; otherwise past; otherwise active (an expired checkout says so). */
export function statusLabel(booking: Booking): BookingStatusLabel {
  if (booking.canceled) return 'canceled';
  if (booking.status === 'expired') return 'expired';
  if (booking.awaiting_payment) return 'awaiting_payment';
  return booking.is_in_past ? 'past' : 'active';
}

const startOf = (booking: Booking) => Date.parse(booking.time_slot_data.start_time);
const endOf = (booking: Booking) => Date.parse(booking.time_slot_data.end_time);

/** Back-to-back bookings of one list (one ends when the next starts), shown as one 'start - end' group. */
export type BookingGroup = { key: string; start: string; end: string; bookings: Booking[] };

export function mergeBackToBack(bookings: Booking[]): BookingGroup[] {
  const sorted = [...bookings].sort((a, b) => startOf(a) - startOf(b) || a.id - b.id);
  const groups: BookingGroup[] = [];
  for (const booking of sorted) {
    const last = groups.at(-1);
    const previous = last?.bookings.at(-1);
    if (last && previous && endOf(previous) === startOf(booking)) {
      last.bookings.push(booking);
      last.end = booking.time_slot_data.end_time;
    } else {
      groups.push({
        key: String(booking.id),
        start: booking.time_slot_data.start_time,
        end: booking.time_slot_data.end_time,
        bookings: [booking],
      });
    }
  }
  for (const group of groups) group.key = group.bookings.map((booking) => booking.id).join('-');
  return groups;
}

export type BranchBookings = {
  branch: Booking['time_slot_data']['branch_data'];
  lists: Record<BookingList, BookingGroup[]>;
};

/** Per branch (in order of each branch's first booking), three lists, each sorted by start and merged. */
export function groupBookings(bookings: Booking[]): BranchBookings[] {
  const byBranch = new Map<number, { branch: BranchBookings['branch']; items: Booking[] }>();
  const sorted = [...bookings].sort((a, b) => startOf(a) - startOf(b) || a.id - b.id);
  for (const booking of sorted) {
    const branch = booking.time_slot_data.branch_data;
    const entry = byBranch.get(branch.id) ?? { branch, items: [] };
    entry.items.push(booking);
    byBranch.set(branch.id, entry);
  }
  return [...byBranch.values()].map(({ branch, items }) => ({
    branch,
    lists: {
      active: mergeBackToBack(items.filter((booking) => listOf(booking) === 'active')),
      past: mergeBackToBack(items.filter((booking) => listOf(booking) === 'past')),
      canceled: mergeBackToBack(items.filter((booking) => listOf(booking) === 'canceled')),
    },
  }));
}

/** docs/decisions.md, 'Bookings and payments': refundable / final x 100, or 100 when the final price is 0. */
export function refundPercent(booking: Pick<Booking, 'refundable_eur' | 'final_price_eur'>): number {
  if (booking.final_price_eur === 0) return 100;
  return (booking.refundable_eur / booking.final_price_eur) * 100;
}

/** The sum of euro amounts, added in cents so that 0.1 + 0.2 is 0.3. */
export function sumEuros(amounts: number[]): number {
  return amounts.reduce((total, amount) => total + Math.round(amount * 100), 0) / 100;
}

/** Where a booking stands in its weekly series (issue 31): its week among the series' bookings listed. */
export type SeriesPlace = { week: number; weeks: number; following: Booking[] };

/** Each weekly series' bookings in start order, by series. */
export function seriesOf(bookings: readonly Booking[]): Map<number, Booking[]> {
  const series = new Map<number, Booking[]>();
  for (const booking of bookings) {
    if (booking.series_id === null || booking.series_id === undefined) continue;
    series.set(booking.series_id, [...(series.get(booking.series_id) ?? []), booking]);
  }
  for (const weeks of series.values())
    weeks.sort((a, b) => Date.parse(a.time_slot_data.start_time) - Date.parse(b.time_slot_data.start_time));
  return series;
}

export function seriesPlace(series: Map<number, Booking[]>, booking: Booking): SeriesPlace | null {
  const weeks = booking.series_id ? series.get(booking.series_id) : undefined;
  if (!weeks) return null;
  const index = weeks.indexOf(booking);
  return { week: index + 1, weeks: weeks.length, following: weeks.slice(index + 1) };
}
