import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { assertDevelopmentCaller } from '../http/dev-routes.ts';
import { defineHandlers } from '../http/operations.ts';
import { resolveLocale } from '../kernel/i18n.ts';
import { OUTBOX_PAGE_POLICY, renderOutboxPage } from './outbox-page.ts';
import { listOutboxMessages } from './repository.ts';

export function notificationHandlers(
  db: Db,
  config: Config,
  deps: { virtualDoors: () => Promise<{ id: number; name: string }[]> },
) {
  return defineHandlers({
    // Lets a developer (and the end-to-end tests) read the codes and links that would be e-mailed or texted:
    // JSON by default, a page for a browser (which asks for HTML first).
    listDevOutbox: async (request, reply) => {
      assertDevelopmentCaller(request, config);
      const rows = await listOutboxMessages(db, request.query.to, 200);
      const messages = rows.map((row) => ({
        id: Number(row.id),
        channel: row.channel,
        to: row.recipient,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        attachments: row.attachments.map((attachment) => ({
          filename: attachment.filename,
          content_type: attachment.contentType,
          content: attachment.content,
        })),
        status: row.status,
        created_at: new Date(row.created_at).toISOString(),
      }));
      if (request.headers.accept?.startsWith('text/html')) {
        const page = renderOutboxPage({
          locale: resolveLocale(request.headers.locale),
          doors: config.locks.provider === 'local' ? await deps.virtualDoors() : [],
          messages,
        });
        return reply
          .header('content-security-policy', OUTBOX_PAGE_POLICY)
          .header('cache-control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(page);
      }
      return messages;
    },
  });
}
