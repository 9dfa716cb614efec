import { escapeHtml, noncePagePolicy } from '../../kernel/html.ts';
import { formatMoney } from '../../kernel/money.ts';
import type { Locale } from '../../kernel/i18n.ts';

// The local provider's embedded checkout: a test card form, in the request's language, shown in an iframe
// where Stripe's would be. Its one script carries a nonce; the page's own CSP allows nothing else.

const TEXTS = {
  pt: {
    title: 'Pagamento de teste',
    amount: 'Montante:',
    card: 'Número do cartão',
    pay: 'Pagar',
    hint: 'Modo de teste: o cartão 4242 4242 4242 4242 paga; 4000 0000 0000 0002 é recusado.',
    declined: 'Cartão recusado. Experimente outro cartão.',
    paid: 'Pagamento concluído. A regressar…',
    failed: 'Não foi possível processar o pagamento.',
    closed: 'Esta sessão de pagamento já terminou.',
  },
  en: {
    title: 'Test checkout',
    amount: 'Amount:',
    card: 'Card number',
    pay: 'Pay',
    hint: 'Test mode: card 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined.',
    declined: 'Card declined. Please try another card.',
    paid: 'Payment complete. Returning…',
    failed: 'The payment could not be processed.',
    closed: 'This checkout session is no longer open.',
  },
  fr: {
    title: 'Paiement de test',
    amount: 'Montant\u00a0:',
    card: 'Numéro de carte',
    pay: 'Payer',
    hint: 'Mode test : la carte 4242 4242 4242 4242 paie ; 4000 0000 0000 0002 est refusée.',
    declined: 'Carte refusée. Essayez une autre carte.',
    paid: 'Paiement effectué. Retour en cours…',
    failed: 'Le paiement n’a pas pu être traité.',
    closed: 'Cette session de paiement n’est plus ouverte.',
  },
  de: {
    title: 'Testzahlung',
    amount: 'Betrag:',
    card: 'Kartennummer',
    pay: 'Bezahlen',
    hint: 'Testmodus: Karte 4242 4242 4242 4242 zahlt; 4000 0000 0000 0002 wird abgelehnt.',
    declined: 'Karte abgelehnt. Bitte versuchen Sie eine andere Karte.',
    paid: 'Zahlung abgeschlossen. Sie werden weitergeleitet…',
    failed: 'Die Zahlung konnte nicht verarbeitet werden.',
    closed: 'Diese Bezahlsitzung ist nicht mehr offen.',
  },
  sk: {
    title: 'Testovacia platba',
    amount: 'Suma:',
    card: 'Číslo karty',
    pay: 'Zaplatiť',
    hint: 'Testovací režim: karta 4242 4242 4242 4242 zaplatí; 4000 0000 0000 0002 je zamietnutá.',
    declined: 'Karta bola zamietnutá. Skúste inú kartu.',
    paid: 'Platba prebehla. Presmerúvame…',
    failed: 'Platbu sa nepodarilo spracovať.',
    closed: 'Táto platobná relácia už nie je otvorená.',
  },
} as const satisfies Record<Locale, Record<string, string>>;

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
  const t = TEXTS[page.locale];
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
