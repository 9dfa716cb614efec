import type { Db } from '../db/database.ts';

/** Messages recorded in the outbox, newest first, optionally only those to one recipient. */
export async function listOutboxMessages(db: Db, recipient: string | undefined, limit: number) {
  let query = db
    .selectFrom('outbox')
    .select(['id', 'channel', 'recipient', 'subject', 'text_body', 'html_body', 'status', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit);
  if (recipient) query = query.where('recipient', '=', recipient.trim().toLowerCase());
  return query.execute();
}
