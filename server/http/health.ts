import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { defineHandlers } from './operations.ts';

export function healthHandlers(db: Db) {
  return defineHandlers({
    // A load balancer takes a process out of rotation when its database is unreachable.
    getHealth: async (request, reply) => {
      try {
        await sql`select 1`.execute(db);
        return { status: 'ok', database: 'ok' };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        return reply.status(503).send({ status: 'unavailable', database: 'unreachable' });
      }
    },
  });
}
