import { fromPromise } from 'xstate';
import type { AdminCoupon, AdminCouponCreate, AdminCouponUpdate } from './adminConsole.actors.ts';
import { expectData, type ApiClient } from './api.ts';

/**
 * The coupon form's calls: POST /admin/coupons (a new coupon) and PATCH /admin/coupons/{coupon_code} (a coupon's
 * changes), each answering the coupon as stored.
 */
export function createAdminCouponActors(api: ApiClient) {
  return {
    createCoupon: fromPromise<AdminCoupon, AdminCouponCreate>(({ input }) =>
      expectData(api.POST('/admin/coupons', { body: input })),
    ),
    updateCoupon: fromPromise<AdminCoupon, { code: string; update: AdminCouponUpdate }>(({ input }) =>
      expectData(
        api.PATCH('/admin/coupons/{coupon_code}', {
          params: { path: { coupon_code: input.code } },
          body: input.update,
        }),
      ),
    ),
  };
}
