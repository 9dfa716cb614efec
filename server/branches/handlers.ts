import type { FastifyReply, FastifyRequest } from 'fastify';
import type { operations } from '../../openapi/schema.gen.ts';
import type { BranchService } from './service.ts';

type Path<Operation extends keyof operations> = operations[Operation]['parameters']['path'];

export function branchHandlers(branches: BranchService) {
  return {
    listBranches: async () => branches.listBranches(),
    getBranchLocalTime: async (
      request: FastifyRequest<{ Params: Path<'getBranchLocalTime'> }>,
      reply: FastifyReply,
    ) => {
      const localTime = await branches.getLocalTime(request.params.branchId);
      // Fastify sends a returned string verbatim; the contract says this answer is a JSON string.
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(localTime));
    },
    listSlots: async (request: FastifyRequest<{ Params: Path<'listSlots'> }>) =>
      branches.listSlots(request.params.branch_id, request.params.date),
    getRefundRatios: async () => branches.getRefundRatios(),
  };
}
