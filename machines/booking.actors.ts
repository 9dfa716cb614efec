import { fromPromise } from 'xstate';
import { expectData, type ApiClient } from './api.ts';
import type { Coupon, TimeSlot } from './booking.pricing.ts';
import type {
  CreateBookingInput,
  OfferedCoupon,
  SeriesInput,
  SlotsInput,
  WeeklyOccurrence,
} from './booking.machine.ts';
import type { CoverRequest, CreditCover } from './creditCover.machine.ts';

/** The booking flow's calls over the typed client (docs/decisions.md, 'Contract and API'). */
export function createBookingActors(api: ApiClient) {
  return {
    loadLocalTime: fromPromise<string, { branchId: number }>(({ input }) =>
      expectData(
        api.GET('/bookings/local-time/branch/{branchId}', { params: { path: { branchId: input.branchId } } }),
      ),
    ),
    loadSlots: fromPromise<TimeSlot[], SlotsInput>(({ input }) =>
      expectData(
        api.GET('/bookings/slots/{branch_id}/{date}', {
          params: { path: { branch_id: input.branchId, date: input.date } },
        }),
      ),
    ),
    checkCoupon: fromPromise<Coupon, { code: string }>(({ input }) =>
      expectData(api.GET('/bookings/coupon-code/{code}', { params: { path: { code: input.code } } })),
    ),
    loadOfferedCoupon: fromPromise<OfferedCoupon | null>(async () => {
      const user = await expectData(api.GET('/auth/me'));
      return user.offered_coupon;
    }),
    previewWeeklySeries: fromPromise<WeeklyOccurrence[], SeriesInput>(async ({ input }) => {
      const series = await expectData(
        api.GET('/bookings/weekly/{slot_id}', {
          params: { path: { slot_id: input.slotId }, query: { weeks: input.weeks } },
        }),
      );
      return series.occurrences;
    }),
    previewCreditCover: fromPromise<CreditCover, CoverRequest>(({ input }) =>
      expectData(api.POST('/wallet/cover', { body: input })),
    ),
    createBooking: fromPromise<string | null, CreateBookingInput>(async ({ input }) => {
      const data = await expectData(api.POST('/bookings/', { body: input }));
      return data.checkout_session.clientSecret;
    }),
  };
}
