import { fromPromise } from 'xstate';
import { expectData, type ApiClient } from './api.ts';
import type { Branch } from './branches.ts';

/**
 * The startup machine's branch loader over the typed API client (a 'shared' call), descriptions in the
 * interface's language only (`lang`): the listing's size follows the number of branches, not five languages each.
 */
export function createStartupActors(api: ApiClient, language: () => keyof Branch['descriptions_data']) {
  return {
    fetchBranches: fromPromise<Branch[]>(async () =>
      expectData(api.GET('/bookings/branches', { params: { query: { lang: language() } } })),
    ),
  };
}
