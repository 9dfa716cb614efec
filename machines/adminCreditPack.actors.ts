import { fromPromise } from 'xstate';
import type { AdminCreditPack, AdminCreditPackCreate, AdminCreditPackUpdate } from './adminConsole.actors.ts';
import { expectData, type ApiClient } from './api.ts';

/**
 * The credit pack form's calls: POST /admin/credit-packs (a new pack) and PATCH /admin/credit-packs/{pack_id} (a
 * pack's changes), each answering the pack as stored.
 */
export function createAdminCreditPackActors(api: ApiClient) {
  return {
    createPack: fromPromise<AdminCreditPack, AdminCreditPackCreate>(({ input }) =>
      expectData(api.POST('/admin/credit-packs', { body: input })),
    ),
    updatePack: fromPromise<AdminCreditPack, { id: number; update: AdminCreditPackUpdate }>(({ input }) =>
      expectData(
        api.PATCH('/admin/credit-packs/{pack_id}', {
          params: { path: { pack_id: input.id } },
          body: input.update,
        }),
      ),
    ),
  };
}
