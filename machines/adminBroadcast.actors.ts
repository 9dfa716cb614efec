import { fromPromise } from 'xstate';
import { expectData, type ApiClient } from './api.ts';
import { branchInstant } from './adminClosure.actors.ts';
import type {
  BroadcastAudienceRequest,
  BroadcastDetail,
  BroadcastPreview,
  BroadcastRequest,
} from './adminBroadcast.machine.ts';

function audienceOf(request: BroadcastAudienceRequest) {
  return {
    branch_id: request.branchId,
    starts_at: branchInstant(request.from, request.timeZone),
    ends_at: branchInstant(request.to, request.timeZone),
  };
}

export function createAdminBroadcastActors(api: ApiClient) {
  return {
    previewBroadcast: fromPromise<BroadcastPreview, BroadcastAudienceRequest>(({ input }) =>
      expectData(api.POST('/admin/broadcasts/preview', { body: audienceOf(input) })),
    ),
    sendBroadcast: fromPromise<BroadcastDetail, BroadcastRequest>(({ input }) =>
      expectData(
        api.POST('/admin/broadcasts', {
          body: {
            ...audienceOf(input),
            idempotency_key: input.idempotencyKey,
            channels: input.channels,
            texts: { pt: input.texts.pt ?? { subject: '', body: '' }, ...input.texts },
          },
        }),
      ),
    ),
  };
}
