import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

export function healthHandlers(db: Db) {
  return {
    // A load balancer takes a process out of rotation when its database is unreachable.
    getHealth: async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        await sql`select 1`.execute(db);
        return { status: 'ok', database: 'ok' };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        return reply.status(503).send({ status: 'unavailable', database: 'unreachable' });
      }
    },
  };
}
