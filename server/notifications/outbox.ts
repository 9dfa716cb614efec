import type { Db } from '../db/database.ts';
import type { LocaleCode } from '../db/schema.ts';
import { insertOutboxMessage } from './repository.ts';
import type { RenderedEmail } from './templates/layout.ts';

// Writing a message is recording it: the worker delivers it later. Pass the transaction of the change that
// causes the message, so a rolled-back change sends nothing and a committed one is never left unsent.

export async function queueEmail(
  trx: Db,
  message: { to: string; locale: LocaleCode; kind: string; email: RenderedEmail; now: Date },
): Promise<number> {
  return insertOutboxMessage(trx, {
    channel: 'email',
    recipient: message.to.toLowerCase(),
    locale: message.locale,
    kind: message.kind,
    subject: message.email.subject,
    text_body: message.email.text,
    html_body: message.email.html,
    created_at: message.now,
    next_attempt_at: message.now,
  });
}

export async function queueSms(
  trx: Db,
  message: { to: string; locale: LocaleCode; kind: string; text: string; now: Date },
): Promise<number> {
  return insertOutboxMessage(trx, {
    channel: 'sms',
    recipient: message.to,
    locale: message.locale,
    kind: message.kind,
    subject: null,
    text_body: message.text,
    html_body: null,
    created_at: message.now,
    next_attempt_at: message.now,
  });
}
