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
    arrival: null,
    lock_code_valid_from: null,
    lock_code_valid_until: null,
    checked_in_at: null,
    coupon_code: null,
    is_movable: true,
    coupon_discount: null,
    refund_ratios: { '48': 1, '24': 0.5, '0': 0 },
    ...overrides,
  };
}

/** Booking `id` from `start` to `end` (ISO with the branch's offset), otherwise as `booking` makes it. */
export function bookingAt(id: number, start: string, end: string, overrides: Partial<Booking> = {}): Booking {
  const made = booking(id, overrides);
  return { ...made, time_slot_data: { ...made.time_slot_data, start_time: start, end_time: end } };
}

// The lists of my bookings the server can return, shared by the machine's model test and the component one:
// the first load (booking 1's door code readable, booking 3 not cancelable), the figures after a refused
// cancellation (booking 1 no longer cancelable, booking 2 cheaper), and a full first window of history.
export const FIRST_BOOKINGS = [
  booking(1, {
    refundable_eur: 10,
    lock_code: '123456',
    lock_code_valid_from: '2026-12-01T09:45:00+00:00',
    lock_code_valid_until: '2026-12-01T11:15:00+00:00',
    arrival: {
      directions: 'Porta azul ao lado do n.º 52.\nO ginásio fica à esquerda.',
      keypad: 'Marque os 6 dígitos e ✓.',
      rules: 'Sem calçado de rua.',
      entrance_photo_url: '/images/branches/lisboa-entrance.svg',
      map_url: 'https://maps.example/lisboa',
      wifi_network: 'Gym-Guest',
      wifi_password: 'squat-2026',
      support_phone: '+351 210 000 000',
    },
  }),
  booking(2),
  booking(3, { is_cancelable: false }),
];
export const CHANGED_BOOKINGS = [booking(1, { is_cancelable: false }), booking(2, { refundable_eur: 5 })];

/** A past booking of November 2026 (day `day`), id 100 + day. */
export const pastBooking = (day: number) =>
  booking(100 + day, {
    is_in_past: true,
    is_cancelable: false,
    is_movable: false,
    refundable_eur: 0,
    time_slot_data: {
      ...booking(1).time_slot_data,
      start_time: `2026-11-${String(day).padStart(2, '0')}T10:00:00+00:00`,
      end_time: `2026-11-${String(day).padStart(2, '0')}T11:00:00+00:00`,
    },
  });

/** Booking 1 beside a full first window of history (20 past bookings): older history may be left. */
export const LONG_HISTORY = [
  booking(1),
  ...Array.from({ length: 20 }, (_, index) => pastBooking(index + 10)),
];
