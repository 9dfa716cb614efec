import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { assertDevelopmentCaller } from '../http/dev-routes.ts';
import { defineHandlers } from '../http/operations.ts';
import { listOutboxMessages } from './repository.ts';

export function notificationHandlers(db: Db, config: Config) {
  return defineHandlers({
    // Lets a developer (and the end-to-end tests) read the codes and links that would be e-mailed or texted.
    listDevOutbox: async (request) => {
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
  });
}
