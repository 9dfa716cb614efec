import type { Db } from '../db/database.ts';
import type { LocaleCode } from '../db/schema.ts';
import { insertOutboxMessage } from './repository.ts';
import type { RenderedEmail } from './templates/layout.ts';

// Writing a message is recording it: the worker delivers it later. Pass the transaction of the change that
// causes the message, so a rolled-back change sends nothing and a committed one is never left unsent.

type QueuedMessage = { to: string; locale: LocaleCode; kind: string; now: Date };

function queue(
  trx: Db,
  message: QueuedMessage & {
    channel: 'email' | 'sms';
    subject: string | null;
    text: string;
    html: string | null;
  },
): Promise<number> {
  return insertOutboxMessage(trx, {
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
