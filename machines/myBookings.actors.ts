import { fromPromise } from 'xstate';
import { expectData, expectOk, type ApiClient } from './api.ts';
import {
  HISTORY_PAGE,
  type BookAgainSlot,
  type CancelRequest,
  type HistoryPage,
} from './myBookings.machine.ts';
import type { Booking } from './myBookings.selectors.ts';

export function createMyBookingsActors(api: ApiClient) {
  return {
    loadBookings: fromPromise<Booking[]>(() => expectData(api.GET('/bookings/my-bookings'))),
    loadHistory: fromPromise<HistoryPage, { before: string }>(async ({ input }) => {
      const pending = api.GET('/bookings/my-bookings', {
        params: { query: { history_before: input.before, history_limit: HISTORY_PAGE } },
      });
      const bookings = await expectData(pending);
      return { bookings, nextCursor: (await pending).response.headers.get('next-history-cursor') };
    }),
    cancelBookings: fromPromise<void, CancelRequest>(({ input }) =>
      expectOk(api.POST('/bookings/cancel-bookings', { body: input })),
    ),
    resendCode: fromPromise<void, { booking_id: number }>(({ input }) =>
      expectOk(api.POST('/bookings/resend-code', { body: input })),
    ),
    findBookAgainSlot: fromPromise<BookAgainSlot, { booking_id: number }>(({ input }) =>
      expectData(
        api.GET('/bookings/{booking_id}/again', { params: { path: { booking_id: input.booking_id } } }),
      ),
    ),
  };
}
