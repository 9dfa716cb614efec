import { escapeHtml } from './html.ts';
import type { Message } from './i18n.ts';

// One look for every e-mail: a plain-text body a person can read as is, and a simple HTML version with the
// same words. Everything a user or a template supplies is escaped before it reaches the HTML. Templates write the
// body; `emailDocument` puts every e-mail's body in the same page, applied once where e-mails are written (the
// outbox, server/kernel/outbox.ts), so no message can go out unstyled.

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

/** The e-mail's body (greeting, paragraphs, code, button, signature): `emailDocument` gives it its page. */
export function renderEmail(content: EmailContent): RenderedEmail {
  const text = [
    content.greeting,
    ...content.paragraphs,
    ...(content.code ? [content.code] : []),
    ...(content.action ? [content.action.url] : []),
    ...(content.after ?? []),
    content.signature,
  ].join('\n\n');

  const paragraph = (line: string) => `<p>${escapeHtml(line)}</p>`;
  const code = content.code ? `<p class="code" style="${CODE_STYLE}">${escapeHtml(content.code)}</p>` : '';
  const action = content.action
    ? `<p><a class="button" href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:12px 20px;background:#111;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(content.action.label)}</a></p>` +
      `<p class="muted" style="font-size:13px;color:#555;word-break:break-all">${escapeHtml(content.action.url)}</p>`
    : '';
  const html = [
    paragraph(content.greeting),
    ...content.paragraphs.map(paragraph),
    code,
    action,
    ...(content.after ?? []).map(paragraph),
    paragraph(content.signature),
  ].join('');
  return { subject: content.subject, text, html };
}

/** A code (verification, door) shown large, alone on its line. */
export const CODE_STYLE = 'font-size:28px;font-weight:700;letter-spacing:6px';

/**
 * Light by default, dark where the reader's mail app is (Apple Mail, iOS, Outlook.com and others honour
 * `prefers-color-scheme`); the inline styles are the light look for apps that drop `<style>`.
 */
const STYLES = [
  '.email p,.email ul{margin:0 0 16px}',
  '.email h2{margin:24px 0 8px}',
  '.email a{color:#0b57d0}',
  '@media (prefers-color-scheme: dark){',
  'body,.page{background:#111111 !important;color:#ececec !important}',
  '.email{background:#1f1f1f !important;color:#ececec !important}',
  '.email a{color:#8ab4f8 !important}',
  '.email a.button{background:#d4ff3a !important;color:#111111 !important}',
  '.email .muted{color:#b5b5b5 !important}',
  '}',
].join('');

/** Puts an e-mail's HTML body in the page every e-mail shares; a page already made is left as it is. */
export function emailDocument(input: { lang: string; subject: string; body: string }): string {
  if (/^\s*<!doctype html>/i.test(input.body)) return input.body;
  return [
    `<!doctype html><html lang="${escapeHtml(input.lang)}"><head><meta charset="utf-8">`,
    '<meta name="viewport" content="width=device-width">',
    '<meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark">',
    `<title>${escapeHtml(input.subject)}</title><style>${STYLES}</style></head>`,
    '<body class="page" style="margin:0;padding:24px;background:#f4f4f4;color:#111;font-family:Arial,Helvetica,sans-serif;line-height:1.5">',
    '<div class="email" style="max-width:560px;margin:0 auto;padding:24px;background:#ffffff;color:#111;border-radius:8px">',
    input.body,
    '</div></body></html>',
  ].join('');
}
