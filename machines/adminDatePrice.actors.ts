import { fromPromise } from 'xstate';
import type { DatePriceInput, PriceGrid } from './adminConsole.actors.ts';
import { expectData, type ApiClient } from './api.ts';

type PriceCall = { branchId: number; date: string };

/**
 * The prices calendar's calls: PUT and DELETE /admin/branches/{branch_id}/prices/dates/{date} (a date's own price
 * set or removed), each answering the branch's prices as they are now.
 */
export function createAdminDatePriceActors(api: ApiClient) {
  const path = (input: PriceCall) => ({ path: { branch_id: input.branchId, date: input.date } });
  return {
    setDatePrice: fromPromise<PriceGrid, PriceCall & { price: DatePriceInput }>(({ input }) =>
      expectData(
        api.PUT('/admin/branches/{branch_id}/prices/dates/{date}', {
          params: path(input),
          body: input.price,
        }),
      ),
    ),
    removeDatePrice: fromPromise<PriceGrid, PriceCall>(({ input }) =>
      expectData(api.DELETE('/admin/branches/{branch_id}/prices/dates/{date}', { params: path(input) })),
    ),
  };
}
