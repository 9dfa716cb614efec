import { escapeHtml, noncePagePolicy } from '../kernel/html.ts';
import type { Locale } from '../kernel/i18n.ts';

// The development keypad of a branch's virtual door: type a code (and, to try another moment, an instant), and
// the door answers as a real one would. One nonce-bearing script and style, nothing else.

const TEXTS = {
  pt: {
    title: 'Porta virtual',
    code: 'Código',
    at: 'Momento (opcional, ISO)',
    enter: 'Abrir',
    opened: 'Porta aberta.',
    refused: 'Código recusado.',
    outbox: 'Caixa de saída',
    held: 'Códigos que esta porta aceita (desenvolvimento)',
    column: 'Código',
    from: 'De',
    until: 'Até',
  },
  en: {
    title: 'Virtual door',
    code: 'Code',
    at: 'Moment (optional, ISO)',
    enter: 'Open',
    opened: 'The door opened.',
    refused: 'Code refused.',
    outbox: 'Outbox',
    held: 'Codes this door accepts (development)',
    column: 'Code',
    from: 'From',
    until: 'Until',
  },
  fr: {
    title: 'Porte virtuelle',
    code: 'Code',
    at: 'Moment (facultatif, ISO)',
    enter: 'Ouvrir',
    opened: 'La porte s’est ouverte.',
    refused: 'Code refusé.',
    outbox: 'Boîte d’envoi',
    held: 'Codes acceptés par cette porte (développement)',
    column: 'Code',
    from: 'De',
    until: 'Jusqu’à',
  },
  de: {
    title: 'Virtuelle Tür',
    code: 'Code',
    at: 'Zeitpunkt (optional, ISO)',
    enter: 'Öffnen',
    opened: 'Die Tür ist offen.',
    refused: 'Code abgelehnt.',
    outbox: 'Postausgang',
    held: 'Codes, die diese Tür annimmt (Entwicklung)',
    column: 'Code',
    from: 'Von',
    until: 'Bis',
  },
  sk: {
    title: 'Virtuálne dvere',
    code: 'Kód',
    at: 'Okamih (nepovinné, ISO)',
    enter: 'Otvoriť',
    opened: 'Dvere sa otvorili.',
    refused: 'Kód bol odmietnutý.',
    outbox: 'Odoslané správy',
    held: 'Kódy, ktoré tieto dvere prijímajú (vývoj)',
    column: 'Kód',
    from: 'Od',
    until: 'Do',
  },
} as const satisfies Record<Locale, Record<string, string>>;

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
  const texts = TEXTS[page.locale];
  const enterUrl = `/api/dev/doors/${page.branchId}/enter`;
  return `<!doctype html>
<html lang="${page.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(texts.title)} – ${escapeHtml(page.branchName)}</title>
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
<h1>${escapeHtml(texts.title)}</h1>
<p>${escapeHtml(page.branchName)}</p>
<form id="keypad">
<label for="code">${escapeHtml(texts.code)}</label>
<input id="code" name="code" inputmode="numeric" autocomplete="off" pattern="[0-9]{4,12}" required>
<label for="at">${escapeHtml(texts.at)}</label>
<input id="at" name="at" placeholder="2026-03-30T09:50:00Z">
<button type="submit">${escapeHtml(texts.enter)}</button>
</form>
<p id="result" role="status" aria-live="polite"></p>
<h2>${escapeHtml(texts.held)}</h2>
<table>
<thead><tr><th>${escapeHtml(texts.column)}</th><th>${escapeHtml(texts.from)}</th><th>${escapeHtml(texts.until)}</th></tr></thead>
<tbody>
${page.held.map((row) => `<tr><td>${escapeHtml(row.code)}</td><td>${row.starts_at.toISOString()}</td><td>${row.ends_at.toISOString()}</td></tr>`).join('\n')}
</tbody>
</table>
<p><a href="/api/dev/outbox">${escapeHtml(texts.outbox)}</a></p>
<script nonce="${page.nonce}">
const texts = ${JSON.stringify({ opened: texts.opened, refused: texts.refused })};
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
