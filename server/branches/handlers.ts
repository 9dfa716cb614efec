import type { BranchService } from './service.ts';
import { defineHandlers } from '../http/operations.ts';

export function branchHandlers(branches: BranchService) {
  return defineHandlers({
    listBranches: async () => branches.listBranches(),
    getBranchLocalTime: async (request, reply) => {
      const localTime = await branches.getLocalTime(request.params.branchId);
      // Fastify sends a returned string verbatim; the contract says this answer is a JSON string.
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(localTime));
    },
    listSlots: async (request) => branches.listSlots(request.params.branch_id, request.params.date),
    getRefundRatios: async () => branches.getRefundRatios(),
  });
}
