import { describe, expect, it } from 'vitest';
import {
  groupBookings,
  listOf,
  mergeBackToBack,
  refundPercent,
  statusLabel,
  sumEuros,
  type Booking,
} from '../../machines/myBookings.selectors.ts';
import { booking } from './bookings-fixtures.ts';

function at(id: number, start: string, end: string, overrides: Partial<Booking> = {}): Booking {
  const base = booking(id, overrides);
  return { ...base, time_slot_data: { ...base.time_slot_data, start_time: start, end_time: end } };
}

describe('my bookings: grouping', () => {
  it('puts active bookings in Active or Past by time, and the rest in Canceled', () => {
    expect(listOf(booking(1))).toBe('active');
    expect(listOf(booking(1, { is_in_past: true }))).toBe('past');
    expect(listOf(booking(1, { active: false, canceled: true, status: 'canceled' }))).toBe('canceled');
    expect(listOf(booking(1, { active: false, status: 'expired' }))).toBe('canceled');
  });

  it('labels canceled, then past, then active (an expired checkout says expired)', () => {
    expect(statusLabel(booking(1, { canceled: true, is_in_past: true }))).toBe('canceled');
    expect(statusLabel(booking(1, { is_in_past: true }))).toBe('past');
    expect(statusLabel(booking(1))).toBe('active');
    expect(statusLabel(booking(1, { active: false, status: 'expired' }))).toBe('expired');
    // A Multibanco voucher whose money is awaited while the slot is held.
    const awaiting = {
      method: 'multibanco' as const,
      amount_eur: 15,
      held_until: '2026-03-23T10:00:00+00:00',
      voucher: {
        entity: '12345',
        reference: '123456789',
        expires_at: '2026-03-27T10:00:00+00:00',
        voucher_url: null,
      },
    };
    expect(statusLabel(booking(1, { status: 'pending', awaiting_payment: awaiting }))).toBe(
      'awaiting_payment',
    );
  });

  it('merges back-to-back bookings (also across offsets) and sorts by start', () => {
    const groups = mergeBackToBack([
      at(3, '2026-12-01T13:00:00+00:00', '2026-12-01T14:00:00+00:00'),
      at(2, '2026-12-01T11:00:00+01:00', '2026-12-01T12:00:00+00:00'),
      at(1, '2026-12-01T09:00:00+00:00', '2026-12-01T10:00:00+00:00'),
    ]);
    expect(groups.map((group) => group.bookings.map((item) => item.id))).toEqual([[1, 2], [3]]);
    expect(groups[0]?.start).toBe('2026-12-01T09:00:00+00:00');
    expect(groups[0]?.end).toBe('2026-12-01T12:00:00+00:00');
  });

  it('groups per branch into three lists', () => {
    const other = { id: 2, name: 'Boavista', location: 'Porto', time_zone: 'Europe/Lisbon' };
    const elsewhere = booking(4);
    elsewhere.time_slot_data = { ...elsewhere.time_slot_data, branch_data: other };
    const branches = groupBookings([
      booking(1),
      booking(2, { is_in_past: true }),
      booking(3, { active: false, canceled: true, status: 'canceled' }),
      elsewhere,
    ]);
    expect(branches.map((entry) => entry.branch.name)).toEqual(['Avenidas Novas', 'Boavista']);
    expect(branches[0]?.lists.active).toHaveLength(1);
    expect(branches[0]?.lists.past).toHaveLength(1);
    expect(branches[0]?.lists.canceled).toHaveLength(1);
    expect(branches[1]?.lists.active[0]?.bookings[0]?.id).toBe(4);
  });
});

describe('my bookings: money', () => {
  it('refund percent is refundable / final x 100, or 100 when the final price is 0', () => {
    expect(refundPercent({ refundable_eur: 10, final_price_eur: 20 })).toBe(50);
    expect(refundPercent({ refundable_eur: 0, final_price_eur: 0 })).toBe(100);
  });

  it('adds euro amounts in cents', () => {
    expect(sumEuros([0.1, 0.2])).toBe(0.3);
  });
});
