import { escapeHtml } from './html.ts';
import type { Message } from './i18n.ts';

// One look for every e-mail: a plain-text body a person can read as is, and a simple HTML version with the
// same words. Everything a user or a template supplies is escaped before it reaches the HTML.

export type EmailContent = {
  subject: string;
  greeting: string;
  paragraphs: string[];
  /** A code shown large, alone on its line. */
  code?: string;
  /** A button in HTML; the bare link in text. */
  action?: { label: string; url: string };
  /** Paragraphs after the code or the button. */
  after?: string[];
  signature: string;
};

/** The opening of every message to a member. */
export const GREETING: Message = /*i18n*/ { id: 'email.greeting', message: 'Olá {name},' };

/** Said under a list of times: they are the branch's, its zone named. */
export const LOCAL_TIMES: Message = /*i18n*/ {
  id: 'email.localTimes',
  message: 'Horas na hora local da filial ({zone}).',
};

export type RenderedEmail = { subject: string; text: string; html: string };

export function renderEmail(content: EmailContent, lang: string): RenderedEmail {
  const text = [
    content.greeting,
    ...content.paragraphs,
    ...(content.code ? [content.code] : []),
    ...(content.action ? [content.action.url] : []),
    ...(content.after ?? []),
    content.signature,
  ].join('\n\n');

  const paragraph = (line: string) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`;
  const code = content.code
    ? `<p style="margin:0 0 16px;font-size:28px;font-weight:700;letter-spacing:6px">${escapeHtml(content.code)}</p>`
    : '';
  const action = content.action
    ? `<p style="margin:0 0 16px"><a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:12px 20px;background:#111;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(content.action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#555;word-break:break-all">${escapeHtml(content.action.url)}</p>`
    : '';
  const html = [
    `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width"><title>${escapeHtml(content.subject)}</title></head>`,
    `<body style="margin:0;padding:24px;background:#f4f4f4;font-family:Arial,Helvetica,sans-serif;color:#111;line-height:1.5">`,
    `<div style="max-width:560px;margin:0 auto;padding:24px;background:#fff;border-radius:8px">`,
    paragraph(content.greeting),
    ...content.paragraphs.map(paragraph),
    code,
    action,
    ...(content.after ?? []).map(paragraph),
    paragraph(content.signature),
    `</div></body></html>`,
  ].join('');
  return { subject: content.subject, text, html };
}
