import { fromPromise } from 'xstate';
import { expectData, type ApiClient } from './api.ts';
import type { Branch } from './branches.ts';

/** The startup machine's branch loader over the typed API client (a 'shared' call). */
export function createStartupActors(api: ApiClient) {
  return {
    fetchBranches: fromPromise<Branch[]>(async () => expectData(api.GET('/bookings/branches'))),
  };
}
