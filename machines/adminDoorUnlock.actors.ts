import { fromPromise } from 'xstate';
import { expectOk, type ApiClient } from './api.ts';
import type { AdminDoorUnlockRequest } from './adminDoorUnlock.machine.ts';

export function createAdminDoorUnlockActors(api: ApiClient) {
  return {
    unlockDoor: fromPromise<void, AdminDoorUnlockRequest>(({ input }) =>
      expectOk(
        api.POST('/admin/branches/{branch_id}/doors/{device_id}/unlock', {
          params: { path: { branch_id: input.branchId, device_id: input.deviceId } },
          body: { reason: input.reason, request_id: input.requestId },
        }),
      ),
    ),
  };
}
