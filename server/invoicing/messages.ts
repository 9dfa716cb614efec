import type { Db } from '../db/database.ts';
import { renderEmail, GREETING } from '../kernel/email-layout.ts';
import { resolveLocale, translator, type Locale, type Message } from '../kernel/i18n.ts';
import { formatMoney } from '../kernel/money.ts';
import { insertOutboxMessage } from '../kernel/outbox.ts';
import { kindTitle } from '../adapters/invoicing/index.ts';
import type { TaxDocumentRow } from './repository.ts';
import * as repository from './repository.ts';

// The member's copy of each document, once issued: an e-mail with its PDF attached, in the member's language.
// The confirmation, move and cancellation messages go out at once (a document may wait for its provider); this
// one follows when the document has its number. The operator hears of a document the provider refused.

const TEXTS = {
  subject: /*i18n*/ { id: 'email.taxDocument.subject', message: '{kind} n.º {number} – {brand}' },
  issued: /*i18n*/ {
    id: 'email.taxDocument.issued',
    message: 'Segue em anexo a sua {kind} {number}, de {total}.',
  },
  notValid: /*i18n*/ {
    id: 'email.taxDocument.notValid',
    message:
      'Este documento foi emitido sem serviço de faturação certificado e não é válido para efeitos fiscais.',
  },
  signature: /*i18n*/ { id: 'email.taxDocument.signature', message: 'A equipa {brand}' },
  refusedSubject: /*i18n*/ {
    id: 'alert.taxDocumentRefused.subject',
    message: 'Documento fiscal recusado pelo serviço de faturação (movimento {entry})',
  },
  refusedText: /*i18n*/ {
    id: 'alert.taxDocumentRefused.text',
    message:
      'O serviço de faturação recusou a {kind} do movimento {entry} ({total}): {reason}. Emita-a à mão e registe o motivo.',
  },
} satisfies Record<string, Message>;

export function documentFileName(document: TaxDocumentRow): string {
  return `${(document.number ?? `document-${document.id}`).replace(/[^A-Za-z0-9]+/g, '-')}.pdf`;
}

/** The member's e-mail with the issued document's PDF, in the issuing transaction; once per document. */
export async function queueDocumentEmail(
  trx: Db,
  deps: { companyName: string },
  document: TaxDocumentRow,
  now: Date,
  /** Another key for a copy sent again from the console (the first one is sent once per document). */
  dedupeKey = `tax_document:${document.id}`,
): Promise<boolean> {
  if (!document.user_id || !document.pdf || !document.number) return false;
  const recipient = await repository.findRecipient(trx, document.user_id);
  if (!recipient?.email) return false;
  const locale: Locale = resolveLocale(recipient.locale);
  const t = translator(locale);
  const kind = t(kindTitle(document.kind));
  const values = {
    kind,
    number: document.number,
    total: formatMoney(locale, document.total_cents),
    brand: deps.companyName,
  };
  const email = renderEmail({
    subject: t(TEXTS.subject, values),
    greeting: t(GREETING, { name: recipient.first_name }),
    paragraphs: [t(TEXTS.issued, values), ...(document.provider === 'local' ? [t(TEXTS.notValid)] : [])],
    signature: t(TEXTS.signature, values),
  });
  await insertOutboxMessage(trx, {
    channel: 'email',
    recipient: recipient.email.toLowerCase(),
    locale,
    kind: 'tax_document',
    subject: email.subject,
    text_body: email.text,
    html_body: email.html,
    attachments: JSON.stringify([
      {
        filename: documentFileName(document),
        contentType: 'application/pdf',
        content: Buffer.from(document.pdf).toString('base64'),
        encoding: 'base64',
      },
    ]),
    dedupe_key: dedupeKey,
    created_at: now,
    next_attempt_at: now,
  });
  return true;
}

/** The operator's alert about a document the provider refused for good, once per document. */
export async function queueRefusalAlert(
  trx: Db,
  deps: { operatorEmail: string | null; operatorLocale: Locale },
  document: TaxDocumentRow,
  reason: string,
  now: Date,
): Promise<void> {
  if (!deps.operatorEmail) return;
  const t = translator(deps.operatorLocale);
  const values = {
    kind: t(kindTitle(document.kind)),
    entry: document.ledger_entry_id,
    total: formatMoney(deps.operatorLocale, document.total_cents),
    reason,
  };
  const subject = t(TEXTS.refusedSubject, values);
  await insertOutboxMessage(trx, {
    channel: 'email',
    recipient: deps.operatorEmail,
    locale: deps.operatorLocale,
    kind: 'operator_alert',
    subject,
    text_body: `${t(TEXTS.refusedText, values)}\n`,
    html_body: null,
    dedupe_key: `tax_document_refused:${document.id}`,
    created_at: now,
    next_attempt_at: now,
  });
}
