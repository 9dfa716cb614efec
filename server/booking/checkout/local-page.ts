import { escapeHtml, noncePagePolicy } from '../../kernel/html.ts';
import { formatMoney } from '../../kernel/money.ts';
import { translateAll, type Locale, type Message } from '../../kernel/i18n.ts';

// The local provider's embedded checkout: a test card form, in the request's language, shown in an iframe
// where Stripe's would be. Its one script carries a nonce; the page's own CSP allows nothing else.

const TEXTS = {
  title: /*i18n*/ { id: 'checkoutPage.title', message: 'Pagamento de teste' },
  amount: /*i18n*/ { id: 'checkoutPage.amount', message: 'Montante:' },
  card: /*i18n*/ { id: 'checkoutPage.card', message: 'Número do cartão' },
  pay: /*i18n*/ { id: 'checkoutPage.pay', message: 'Pagar' },
  hint: /*i18n*/ {
    id: 'checkoutPage.hint',
    message: 'Modo de teste: o cartão 4242 4242 4242 4242 paga; 4000 0000 0000 0002 é recusado.',
  },
  declined: /*i18n*/ { id: 'checkoutPage.declined', message: 'Cartão recusado. Experimente outro cartão.' },
  paid: /*i18n*/ { id: 'checkoutPage.paid', message: 'Pagamento concluído. A regressar…' },
  failed: /*i18n*/ { id: 'checkoutPage.failed', message: 'Não foi possível processar o pagamento.' },
  closed: /*i18n*/ { id: 'checkoutPage.closed', message: 'Esta sessão de pagamento já terminou.' },
} as const satisfies Record<string, Message>;

/** The CSP of the page: only its own nonce-bearing script and style, and calls back to this server. */
export function localCheckoutPolicy(nonce: string): string {
  return noncePagePolicy(nonce, ["form-action 'self'", "frame-ancestors 'self'"]);
}

export function renderLocalCheckoutPage(page: {
  locale: Locale;
  nonce: string;
  amountCents: number;
  open: boolean;
}): string {
  const t = translateAll(page.locale, TEXTS);
  const messages = JSON.stringify({ declined: t.declined, paid: t.paid, failed: t.failed, closed: t.closed });
  const form = page.open
    ? `<form id="pay" novalidate>
  <label for="card">${escapeHtml(t.card)}</label>
  <input id="card" name="card_number" inputmode="numeric" autocomplete="off" placeholder="4242 4242 4242 4242" maxlength="32" required>
  <button type="submit">${escapeHtml(t.pay)} ${escapeHtml(formatMoney(page.locale, page.amountCents))}</button>
</form>`
    : '';
  return `<!doctype html>
<html lang="${page.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(t.title)}</title>
<style nonce="${page.nonce}">
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; padding: 24px; color: #1a1b1e; }
  main { max-width: 420px; margin: 0 auto; }
  label { display: block; font-weight: 600; margin: 16px 0 4px; }
  input { box-sizing: border-box; width: 100%; padding: 10px; font-size: 16px; border: 1px solid #868e96; border-radius: 6px; }
  button { margin-top: 16px; width: 100%; padding: 12px; font-size: 16px; border: 0; border-radius: 6px; background: #1971c2; color: #fff; cursor: pointer; }
  button:disabled { opacity: 0.6; }
  .hint { color: #495057; font-size: 14px; }
  [role="status"] { margin-top: 16px; font-weight: 600; }
</style>
</head>
<body>
<main>
<h1>${escapeHtml(t.title)}</h1>
<p>${escapeHtml(t.amount)} <strong>${escapeHtml(formatMoney(page.locale, page.amountCents))}</strong></p>
<p class="hint">${escapeHtml(t.hint)}</p>
${form}
<p id="status" role="status" aria-live="polite">${page.open ? '' : escapeHtml(t.closed)}</p>
</main>
<script nonce="${page.nonce}">
  const messages = ${messages.replaceAll('<', '\\u003c')};
  const form = document.getElementById('pay');
  const status = document.getElementById('status');
  form?.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector('button');
    button.disabled = true;
    status.textContent = '';
    try {
      const response = await fetch(location.pathname.replace(/\\/$/, '') + '/complete', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', locale: document.documentElement.lang },
        body: JSON.stringify({ card_number: form.card_number.value }),
      });
      const body = await response.json();
      if (response.ok && body.outcome === 'paid') {
        status.textContent = messages.paid;
        (window.top ?? window).location.href = body.return_url;
        return;
      }
      status.textContent = response.ok ? messages.declined : body.detail || messages.failed;
    } catch {
      status.textContent = messages.failed;
    }
    button.disabled = false;
  });
</script>
</body>
</html>
`;
}
