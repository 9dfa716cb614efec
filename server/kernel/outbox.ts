import type { Insertable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { LocaleCode, OutboxTable } from '../db/schema.ts';
import { emailDocument, type RenderedEmail } from './email-layout.ts';

// Writing a message is recording it: the worker delivers it later. Pass the transaction of the change that
// causes the message, so a rolled-back change sends nothing and a committed one is never left unsent.

/**
 * The one outbox insert, in the caller's transaction. A message with a dedupe key already written is ignored
 * (answers undefined): a repeated confirmation or job sends nothing twice. An e-mail's HTML body is put in the page
 * every e-mail shares here (`emailDocument`), whichever template wrote it.
 */
export async function insertOutboxMessage(
  db: Db,
  message: Insertable<OutboxTable>,
): Promise<number | undefined> {
  const html =
    message.channel === 'email' && message.html_body
      ? emailDocument({ lang: message.locale, subject: message.subject ?? '', body: message.html_body })
      : message.html_body;
  const row = await db
    .insertInto('outbox')
    .values({ ...message, html_body: html })
    .onConflict((conflict) => conflict.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** Whether a message under any of these dedupe keys was written (whatever became of it since). */
export async function outboxHasAny(db: Db, dedupeKeys: readonly string[]): Promise<boolean> {
  if (dedupeKeys.length === 0) return false;
  const row = await db
    .selectFrom('outbox')
    .select('id')
    .where('dedupe_key', 'in', [...dedupeKeys])
    .executeTakeFirst();
  return row !== undefined;
}

type QueuedMessage = { to: string; locale: LocaleCode; kind: string; now: Date };

async function queue(
  trx: Db,
  message: QueuedMessage & {
    channel: 'email' | 'sms';
    subject: string | null;
    text: string;
    html: string | null;
  },
): Promise<number> {
  // Without a dedupe key nothing can conflict, so the row is always written.
  const id = await insertOutboxMessage(trx, {
    channel: message.channel,
    recipient: message.to,
    locale: message.locale,
    kind: message.kind,
    subject: message.subject,
    text_body: message.text,
    html_body: message.html,
    created_at: message.now,
    next_attempt_at: message.now,
  });
  if (id === undefined) throw new Error('outbox message without a dedupe key was not written');
  return id;
}

export async function queueEmail(
  trx: Db,
  message: QueuedMessage & { email: RenderedEmail },
): Promise<number> {
  const { subject, text, html } = message.email;
  return queue(trx, { ...message, to: message.to.toLowerCase(), channel: 'email', subject, text, html });
}

export async function queueSms(trx: Db, message: QueuedMessage & { text: string }): Promise<number> {
  return queue(trx, { ...message, channel: 'sms', subject: null, html: null });
}
