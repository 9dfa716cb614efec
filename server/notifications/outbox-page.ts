import { escapeHtml } from '../kernel/html.ts';
import { translator, type Locale, type Message } from '../kernel/i18n.ts';

// The development outbox as a page, for a developer's browser (the JSON answer stays for tests and scripts):
// the messages that would be e-mailed or texted, and, with the offline lock provider, a link to each branch's
// virtual door, so the whole loop (book, pay, read the code, open the door) runs in a browser.

const TEXTS = {
  title: /*i18n*/ { id: 'outboxPage.title', message: 'Caixa de saída' },
  doors: /*i18n*/ { id: 'outboxPage.doors', message: 'Portas virtuais' },
  none: /*i18n*/ { id: 'outboxPage.none', message: 'Nenhuma mensagem.' },
  to: /*i18n*/ { id: 'outboxPage.to', message: 'Para' },
} as const satisfies Record<string, Message>;

export const OUTBOX_PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

export function renderOutboxPage(page: {
  locale: Locale;
  doors: readonly { id: number; name: string }[];
  messages: readonly {
    channel: string;
    to: string;
    subject: string | null;
    text: string;
    status: string;
    created_at: string;
  }[];
}): string {
  const t = translator(page.locale);
  const doors = page.doors.length
    ? `<h2>${escapeHtml(t(TEXTS.doors))}</h2>\n<ul>\n${page.doors
        .map((door) => `<li><a href="/api/dev/doors/${door.id}">${escapeHtml(door.name)}</a></li>`)
        .join('\n')}\n</ul>`
    : '';
  const messages = page.messages.length
    ? page.messages
        .map(
          (message) => `<article>
<h3>${escapeHtml(message.subject ?? message.channel.toUpperCase())}</h3>
<p>${escapeHtml(t(TEXTS.to))}: ${escapeHtml(message.to)} · ${escapeHtml(message.channel)} · ${escapeHtml(message.status)} · ${escapeHtml(message.created_at)}</p>
<pre>${escapeHtml(message.text)}</pre>
</article>`,
        )
        .join('\n')
    : `<p>${escapeHtml(t(TEXTS.none))}</p>`;
  return `<!doctype html>
<html lang="${page.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(t(TEXTS.title))}</title>
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;background:#f4f4f5;padding:.75rem}article{border-top:1px solid #ddd;margin-top:1rem}</style>
</head>
<body>
<h1>${escapeHtml(t(TEXTS.title))}</h1>
${doors}
${messages}
</body>
</html>`;
}
