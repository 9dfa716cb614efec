import { escapeHtml, noncePagePolicy } from '../kernel/html.ts';
import { translator, type Locale, type Message } from '../kernel/i18n.ts';

// The development keypad of a branch's virtual door: type a code (and, to try another moment, an instant), and
// the door answers as a real one would. One nonce-bearing script and style, nothing else.

const TEXTS = {
  title: /*i18n*/ { id: 'doorPage.title', message: 'Porta virtual' },
  code: /*i18n*/ { id: 'doorPage.code', message: 'Código' },
  at: /*i18n*/ { id: 'doorPage.at', message: 'Momento (opcional, ISO)' },
  enter: /*i18n*/ { id: 'doorPage.enter', message: 'Abrir' },
  opened: /*i18n*/ { id: 'doorPage.opened', message: 'Porta aberta.' },
  refused: /*i18n*/ { id: 'doorPage.refused', message: 'Código recusado.' },
  outbox: /*i18n*/ { id: 'doorPage.outbox', message: 'Caixa de saída' },
  held: /*i18n*/ { id: 'doorPage.held', message: 'Códigos que esta porta aceita (desenvolvimento)' },
  column: /*i18n*/ { id: 'doorPage.column', message: 'Código' },
  from: /*i18n*/ { id: 'doorPage.from', message: 'De' },
  until: /*i18n*/ { id: 'doorPage.until', message: 'Até' },
} as const satisfies Record<string, Message>;

export function doorPagePolicy(nonce: string): string {
  return noncePagePolicy(nonce, ["form-action 'none'"]);
}

export function renderDoorPage(page: {
  locale: Locale;
  branchId: number;
  branchName: string;
  nonce: string;
  held: readonly { code: string; starts_at: Date; ends_at: Date }[];
}): string {
  const t = translator(page.locale);
  const enterUrl = `/api/dev/doors/${page.branchId}/enter`;
  return `<!doctype html>
<html lang="${page.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(t(TEXTS.title))} – ${escapeHtml(page.branchName)}</title>
<style nonce="${page.nonce}">
body{font-family:system-ui,sans-serif;max-width:22rem;margin:2rem auto;padding:0 1rem}
label{display:block;margin:.75rem 0 .25rem}
input{font-size:1.5rem;width:100%;box-sizing:border-box;padding:.4rem}
button{font-size:1.25rem;margin-top:1rem;width:100%;padding:.6rem}
#result{font-size:1.25rem;margin-top:1rem;min-height:1.5em}
.opened{color:#0a7a2f}.refused{color:#b00020}
</style>
</head>
<body>
<h1>${escapeHtml(t(TEXTS.title))}</h1>
<p>${escapeHtml(page.branchName)}</p>
<form id="keypad">
<label for="code">${escapeHtml(t(TEXTS.code))}</label>
<input id="code" name="code" inputmode="numeric" autocomplete="off" pattern="[0-9]{4,12}" required>
<label for="at">${escapeHtml(t(TEXTS.at))}</label>
<input id="at" name="at" placeholder="2026-03-30T09:50:00Z">
<button type="submit">${escapeHtml(t(TEXTS.enter))}</button>
</form>
<p id="result" role="status" aria-live="polite"></p>
<h2>${escapeHtml(t(TEXTS.held))}</h2>
<table>
<thead><tr><th>${escapeHtml(t(TEXTS.column))}</th><th>${escapeHtml(t(TEXTS.from))}</th><th>${escapeHtml(t(TEXTS.until))}</th></tr></thead>
<tbody>
${page.held.map((row) => `<tr><td>${escapeHtml(row.code)}</td><td>${row.starts_at.toISOString()}</td><td>${row.ends_at.toISOString()}</td></tr>`).join('\n')}
</tbody>
</table>
<p><a href="/api/dev/outbox">${escapeHtml(t(TEXTS.outbox))}</a></p>
<script nonce="${page.nonce}">
const texts = ${JSON.stringify({ opened: t(TEXTS.opened), refused: t(TEXTS.refused) })};
document.getElementById('keypad').addEventListener('submit', async (event) => {
  event.preventDefault();
  const code = document.getElementById('code').value.trim();
  const at = document.getElementById('at').value.trim();
  const response = await fetch(${JSON.stringify(enterUrl)}, {
    method: 'POST',
    headers: { 'content-type': 'application/json', locale: ${JSON.stringify(page.locale)} },
    body: JSON.stringify(at ? { code, at } : { code }),
  });
  const body = await response.json().catch(() => ({}));
  const result = document.getElementById('result');
  const opened = response.ok && body.opened === true;
  result.textContent = opened ? texts.opened : body.detail || texts.refused;
  result.className = opened ? 'opened' : 'refused';
});
</script>
</body>
</html>
`;
}
