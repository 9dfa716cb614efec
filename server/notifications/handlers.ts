import type { FastifyRequest } from 'fastify';
import type { operations } from '../../openapi/schema.gen.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { assertDevelopmentCaller } from '../http/dev-routes.ts';
import { listOutboxMessages } from './repository.ts';

type OutboxQuery = NonNullable<operations['listDevOutbox']['parameters']['query']>;

export function notificationHandlers(db: Db, config: Config) {
  return {
    // Lets a developer (and the end-to-end tests) read the codes and links that would be e-mailed or texted.
    listDevOutbox: async (request: FastifyRequest<{ Querystring: OutboxQuery }>) => {
      assertDevelopmentCaller(request, config);
      const rows = await listOutboxMessages(db, request.query.to, 200);
      return rows.map((row) => ({
        id: Number(row.id),
        channel: row.channel,
        to: row.recipient,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        status: row.status,
        created_at: new Date(row.created_at).toISOString(),
      }));
    },
  };
}
