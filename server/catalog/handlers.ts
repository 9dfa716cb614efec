import type { BranchService } from './service.ts';
import { REVALIDATED_PUBLIC_CACHE, sendPublicJson, SHORT_PUBLIC_CACHE } from '../http/caching.ts';
import { defineHandlers } from '../http/operations.ts';

export function branchHandlers(branches: BranchService) {
  return defineHandlers({
    listBranches: async (request, reply) =>
      sendPublicJson(
        request,
        reply,
        await branches.listBranches(request.query.lang ?? null),
        SHORT_PUBLIC_CACHE,
      ),
    getBranchLocalTime: async (request, reply) => {
      const localTime = await branches.getLocalTime(request.params.branchId);
      // Fastify sends a returned string verbatim; the contract says this answer is a JSON string.
      return reply
        .header('cache-control', 'no-store')
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(localTime));
    },
    listSlots: async (request, reply) =>
      sendPublicJson(
        request,
        reply,
        await branches.listSlots(request.params.branch_id, request.params.date),
        REVALIDATED_PUBLIC_CACHE,
      ),
    getRefundRatios: async (request, reply) =>
      sendPublicJson(request, reply, await branches.getRefundRatios(), SHORT_PUBLIC_CACHE),
  });
}
