import { fromPromise } from 'xstate';
import { expectData, expectOk, type ApiClient } from './api.ts';
import type { ClosurePreview, ClosureRequest } from './adminClosure.machine.ts';
import { temporal } from './temporal.ts';

/** A wall-clock time of the branch ('2026-11-24T18:00') as an instant, by the branch's zone (a repeated hour takes the earlier). */
export function branchInstant(local: string, timeZone: string): string {
  return temporal()
    .PlainDateTime.from(local)
    .toZonedDateTime(timeZone, { disambiguation: 'earlier' })
    .toInstant()
    .toString();
}

function bodyOf(request: ClosureRequest) {
  return {
    branch_id: request.branchId,
    starts_at: branchInstant(request.from, request.timeZone),
    ends_at: branchInstant(request.to, request.timeZone),
    reason: request.reason,
  };
}

export function createAdminClosureActors(api: ApiClient) {
  return {
    previewClosure: fromPromise<ClosurePreview, ClosureRequest>(({ input }) =>
      expectData(api.POST('/admin/closures/preview', { body: bodyOf(input) })),
    ),
    closeBranch: fromPromise<void, ClosureRequest>(({ input }) =>
      expectOk(api.POST('/admin/closures', { body: bodyOf(input) })),
    ),
  };
}
