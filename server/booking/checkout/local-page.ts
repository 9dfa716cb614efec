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
  method: /*i18n*/ { id: 'checkoutPage.method', message: 'Meio de pagamento' },
  methodCard: /*i18n*/ { id: 'checkoutPage.methodCard', message: 'Cartão' },
  methodMbWay: /*i18n*/ { id: 'checkoutPage.methodMbWay', message: 'MB WAY' },
  methodMultibanco: /*i18n*/ { id: 'checkoutPage.methodMultibanco', message: 'Referência Multibanco' },
  phone: /*i18n*/ { id: 'checkoutPage.phone', message: 'Número de telemóvel' },
  mbWaySend: /*i18n*/ { id: 'checkoutPage.mbWaySend', message: 'Enviar pedido MB WAY' },
  phoneTitle: /*i18n*/ {
    id: 'checkoutPage.phoneTitle',
    message: 'Telemóvel simulado: pedido de pagamento MB WAY',
  },
  approve: /*i18n*/ { id: 'checkoutPage.approve', message: 'Aprovar' },
  timeOut: /*i18n*/ { id: 'checkoutPage.timeOut', message: 'Deixar expirar' },
  mbWayDeclined: /*i18n*/ {
    id: 'checkoutPage.mbWayDeclined',
    message: 'O pedido MB WAY não foi aprovado a tempo. Tente de novo.',
  },
  multibancoIssue: /*i18n*/ { id: 'checkoutPage.multibancoIssue', message: 'Gerar referência Multibanco' },
  multibancoIssued: /*i18n*/ {
    id: 'checkoutPage.multibancoIssued',
    message: 'Referência gerada. A regressar…',
  },
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
  /** Whether the checkout offers a Multibanco voucher (the first slot is far enough ahead). */
  multibanco?: boolean;
}): string {
  const t = translateAll(page.locale, TEXTS);
  const messages = JSON.stringify({
    declined: t.declined,
    paid: t.paid,
    failed: t.failed,
    closed: t.closed,
    mbWayDeclined: t.mbWayDeclined,
    multibancoIssued: t.multibancoIssued,
  });
  const amount = escapeHtml(formatMoney(page.locale, page.amountCents));
  const methods: [string, string][] = [
    ['card', t.methodCard],
    ['mb_way', t.methodMbWay],
    ...(page.multibanco ? ([['multibanco', t.methodMultibanco]] as [string, string][]) : []),
  ];
  const form = page.open
    ? `<fieldset id="methods"><legend>${escapeHtml(t.method)}</legend>
${methods
  .map(
    ([value, label], index) =>
      `  <label class="method"><input type="radio" name="method" value="${value}"${index === 0 ? ' checked' : ''}> ${escapeHtml(label)}</label>`,
  )
  .join('\n')}
</fieldset>
<form id="pay" data-method="card" novalidate>
  <label for="card">${escapeHtml(t.card)}</label>
  <input id="card" name="card_number" inputmode="numeric" autocomplete="off" placeholder="4242 4242 4242 4242" maxlength="32" required>
  <button type="submit">${escapeHtml(t.pay)} ${amount}</button>
</form>
<form id="mb-way" data-method="mb_way" hidden novalidate>
  <label for="phone">${escapeHtml(t.phone)}</label>
  <input id="phone" name="mb_way_phone" inputmode="tel" autocomplete="off" placeholder="912 345 678" maxlength="20" required>
  <button type="submit">${escapeHtml(t.mbWaySend)}</button>
</form>
<section id="phone-screen" aria-labelledby="phone-title" hidden>
  <h2 id="phone-title">${escapeHtml(t.phoneTitle)}</h2>
  <p><strong>${amount}</strong></p>
  <button type="button" data-response="approve">${escapeHtml(t.approve)}</button>
  <button type="button" data-response="time_out" class="secondary">${escapeHtml(t.timeOut)}</button>
</section>
${
  page.multibanco
    ? `<form id="multibanco" data-method="multibanco" hidden novalidate>
  <button type="submit">${escapeHtml(t.multibancoIssue)} (${amount})</button>
</form>`
    : ''
}`
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
  fieldset { border: 0; padding: 0; margin: 16px 0 0; }
  legend { font-weight: 600; }
  label.method { display: inline-flex; gap: 4px; font-weight: 400; margin: 4px 16px 0 0; }
  label.method input { width: auto; }
  #phone-screen { margin-top: 16px; padding: 16px; border: 2px solid #1a1b1e; border-radius: 24px; }
  #phone-screen h2 { font-size: 16px; margin: 0; }
  button.secondary { background: #e9ecef; color: #1a1b1e; }
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
  const status = document.getElementById('status');
  const forms = [...document.querySelectorAll('form[data-method]')];
  const phoneScreen = document.getElementById('phone-screen');
  for (const radio of document.querySelectorAll('input[name="method"]')) {
    radio.addEventListener('change', () => {
      for (const form of forms) form.hidden = form.dataset.method !== radio.value;
      if (phoneScreen) phoneScreen.hidden = true;
      status.textContent = '';
    });
  }
  async function complete(body, buttons) {
    for (const button of buttons) button.disabled = true;
    status.textContent = '';
    try {
      const response = await fetch(location.pathname.replace(/\\/$/, '') + '/complete', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', locale: document.documentElement.lang },
        body: JSON.stringify(body),
      });
      const answer = await response.json();
      if (response.ok && (answer.outcome === 'paid' || answer.outcome === 'awaiting_payment')) {
        status.textContent = answer.outcome === 'paid' ? messages.paid : messages.multibancoIssued;
        (window.top ?? window).location.href = answer.return_url;
        return true;
      }
      status.textContent = response.ok
        ? body.method === 'mb_way' ? messages.mbWayDeclined : messages.declined
        : answer.detail || messages.failed;
    } catch {
      status.textContent = messages.failed;
    }
    for (const button of buttons) button.disabled = false;
    return false;
  }
  const card = document.getElementById('pay');
  card?.addEventListener('submit', (event) => {
    event.preventDefault();
    void complete({ method: 'card', card_number: card.card_number.value }, [card.querySelector('button')]);
  });
  const mbWay = document.getElementById('mb-way');
  mbWay?.addEventListener('submit', (event) => {
    event.preventDefault();
    // The request goes to the payer's phone: here a simulated one, where it is approved or left to time out.
    mbWay.hidden = true;
    phoneScreen.hidden = false;
    phoneScreen.querySelector('button').focus();
  });
  for (const button of phoneScreen?.querySelectorAll('button') ?? []) {
    button.addEventListener('click', async () => {
      const buttons = [...phoneScreen.querySelectorAll('button')];
      const body = { method: 'mb_way', mb_way_phone: mbWay.mb_way_phone.value, mb_way_response: button.dataset.response };
      if (!(await complete(body, buttons))) {
        phoneScreen.hidden = true;
        mbWay.hidden = false;
      }
    });
  }
  const multibanco = document.getElementById('multibanco');
  multibanco?.addEventListener('submit', (event) => {
    event.preventDefault();
    void complete({ method: 'multibanco' }, [multibanco.querySelector('button')]);
  });
</script>
</body>
</html>
`;
}
