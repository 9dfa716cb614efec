import type { AdminCoupon } from '../../machines/adminConsole.actors.ts';

/** The demo's early-bird coupon as the console lists it. */
export const STORED_COUPON: AdminCoupon = {
  code: 'EARLYBIRD',
  discount: 0.1,
  valid_from: '2026-11-24T04:00:00.000Z',
  valid_until: null,
  max_uses: null,
  max_uses_per_user: 3,
  registered_before: '2026-12-01T00:00:00.000Z',
  active: true,
  uses: 4,
};
