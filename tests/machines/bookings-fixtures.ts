import type { Booking } from '../../machines/myBookings.selectors.ts';

/** A confirmed, cancelable booking of one hour on day `id` of December 2026, in Lisbon. */
export function booking(id: number, overrides: Partial<Booking> = {}): Booking {
  return {
    id,
    time_slot_data: {
      start_time: `2026-12-0${id}T10:00:00+00:00`,
      end_time: `2026-12-0${id}T11:00:00+00:00`,
      branch_data: { id: 1, name: 'Avenidas Novas', location: 'Lisboa', time_zone: 'Europe/Lisbon' },
    },
    created_at: '2026-11-20T10:00:00+00:00',
    status: 'confirmed',
    canceled: false,
    active: true,
    is_in_past: false,
    is_cancelable: true,
    final_price_eur: 20,
    paid: true,
    pay_again_url: null,
    refunded_eur: null,
    refundable_eur: 20,
    lock_code: null,
    lock_code_valid_from: null,
    lock_code_valid_until: null,
    checked_in_at: null,
    coupon_code: null,
    is_movable: true,
    coupon_discount: null,
    ...overrides,
  };
}
