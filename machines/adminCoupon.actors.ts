import { fromPromise } from 'xstate';
import type { AdminCoupon, AdminCouponCreate } from './adminConsole.actors.ts';
import { expectData, type ApiClient } from './api.ts';

/** The new-coupon form's call: POST /admin/coupons, answering the coupon as stored. */
export function createAdminCouponActors(api: ApiClient) {
  return {
    createCoupon: fromPromise<AdminCoupon, AdminCouponCreate>(({ input }) =>
      expectData(api.POST('/admin/coupons', { body: input })),
    ),
  };
}
