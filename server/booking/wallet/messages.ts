import type { Temporal } from 'temporal-polyfill';
import { GREETING } from '../../kernel/email-layout.ts';
import { escapeHtml } from '../../kernel/html.ts';
import { type Locale, type Message, translator } from '../../kernel/i18n.ts';
import { formatMoney } from '../../kernel/money.ts';
import { formatLocalDay } from '../../kernel/time-format.ts';
import type { CreditUnit } from '../../db/schema.ts';

// The wallet's e-mails (issue 31): a pack bought (what is in the wallet, until when, the invoice), and a lot
// about to expire, 14 days ahead. In the member's language; dates in the selling branch's zone.

/** The zone a voucher's dates are counted and shown in (a voucher is not tied to one branch). */
export const VOUCHER_TIME_ZONE = 'Europe/Lisbon';

const TEXTS = {
  boughtSubject: /*i18n*/ {
    id: 'email.creditPack.subject',
    message: 'O seu pacote «{name}» está na carteira',
  },
  bought: /*i18n*/ {
    id: 'email.creditPack.bought',
    message:
      'Obrigado pela compra. Tem {credit} de crédito na sua carteira, para sessões que comecem até {day}.',
  },
  use: /*i18n*/ {
    id: 'email.creditPack.use',
    message:
      'Ao reservar, o crédito paga as horas que cobre (o que expira primeiro é gasto primeiro); o resto paga-se como sempre.',
  },
  invoice: /*i18n*/ { id: 'email.creditPack.invoice', message: 'Fatura: {url}' },
  wallet: /*i18n*/ { id: 'email.creditPack.wallet', message: 'A sua carteira: {url}' },
  expirySubject: /*i18n*/ {
    id: 'email.creditExpiry.subject',
    message: 'O seu crédito «{name}» expira a {day}',
  },
  expiry: /*i18n*/ {
    id: 'email.creditExpiry.body',
    message:
      'Ainda tem {credit} de crédito de «{name}». Cobre sessões que comecem até {day}; o que sobrar depois disso perde-se.',
  },
  book: /*i18n*/ { id: 'email.creditExpiry.book', message: 'Reservar: {url}' },
  hours: /*i18n*/ {
    id: 'wallet.credit.hours',
    message: '{hours, plural, one {# hora} other {# horas}}',
  },
} as const satisfies Record<string, Message>;

/** Credit as people read it: "10 horas", "25,00 €". */
export function describeCredit(locale: Locale, unit: CreditUnit, amount: number): string {
  if (unit === 'cents') return formatMoney(locale, amount);
  return translator(locale)(TEXTS.hours, { hours: amount / 60 });
}

function layout(paragraphs: readonly string[], links: readonly { text: string; url: string }[]) {
  return [
    ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ...links.map((link) => `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.text)}</a></p>`),
  ].join('\n');
}

export function creditPackBoughtMessage(input: {
  locale: Locale;
  firstName: string;
  name: string;
  unit: CreditUnit;
  amount: number;
  expiresAt: Temporal.Instant;
  timeZone: string;
  invoiceUrl: string | null;
  walletUrl: string;
}) {
  const t = translator(input.locale);
  const day = formatLocalDay(input.locale, input.timeZone, input.expiresAt, 'genitive');
  const paragraphs = [
    t(GREETING, { name: input.firstName }),
    t(TEXTS.bought, { credit: describeCredit(input.locale, input.unit, input.amount), day }),
    t(TEXTS.use),
  ];
  const links = [
    ...(input.invoiceUrl
      ? [{ text: t(TEXTS.invoice, { url: input.invoiceUrl }), url: input.invoiceUrl }]
      : []),
    { text: t(TEXTS.wallet, { url: input.walletUrl }), url: input.walletUrl },
  ];
  return {
    subject: t(TEXTS.boughtSubject, { name: input.name }),
    text: [...paragraphs, '', ...links.map((link) => link.text), ''].join('\n'),
    html: layout(paragraphs, links),
  };
}

export function creditExpiryMessage(input: {
  locale: Locale;
  firstName: string;
  name: string;
  unit: CreditUnit;
  remaining: number;
  expiresAt: Temporal.Instant;
  timeZone: string;
  bookUrl: string;
}) {
  const t = translator(input.locale);
  const day = formatLocalDay(input.locale, input.timeZone, input.expiresAt, 'genitive');
  const paragraphs = [
    t(GREETING, { name: input.firstName }),
    t(TEXTS.expiry, {
      credit: describeCredit(input.locale, input.unit, input.remaining),
      name: input.name,
      day,
    }),
  ];
  const links = [{ text: t(TEXTS.book, { url: input.bookUrl }), url: input.bookUrl }];
  return {
    subject: t(TEXTS.expirySubject, { name: input.name, day }),
    text: [...paragraphs, '', ...links.map((link) => link.text), ''].join('\n'),
    html: layout(paragraphs, links),
  };
}

const VOUCHER_TEXTS = {
  giftSubject: /*i18n*/ {
    id: 'email.giftVoucher.subject',
    message: '{buyer} ofereceu-lhe um vale de {amount}',
  },
  gift: /*i18n*/ {
    id: 'email.giftVoucher.gift',
    message:
      '{buyer} ofereceu-lhe um vale de {amount} para treinar num dos nossos ginásios privados: o espaço inteiro só para si, à hora que escolher.',
  },
  message: /*i18n*/ { id: 'email.giftVoucher.message', message: 'A mensagem de {buyer}:' },
  code: /*i18n*/ { id: 'email.giftVoucher.code', message: 'Código do vale: {code}' },
  redeem: /*i18n*/ {
    id: 'email.giftVoucher.redeem',
    message:
      'Crie uma conta (ou entre na sua), abra A minha conta → Carteira e introduza o código: o valor fica no seu crédito até {day}.',
  },
  open: /*i18n*/ { id: 'email.giftVoucher.open', message: 'Usar o vale: {url}' },
  boughtSubject: /*i18n*/ {
    id: 'email.giftVoucher.boughtSubject',
    message: 'O seu vale de {amount} para {recipient} foi enviado',
  },
  bought: /*i18n*/ {
    id: 'email.giftVoucher.bought',
    message:
      'Obrigado. Enviámos a {recipient} ({email}) o vale de {amount} com a sua mensagem. Pode usá-lo até {day}.',
  },
} as const satisfies Record<string, Message>;

export function giftVoucherMessage(input: {
  locale: Locale;
  buyer: string;
  recipientName: string;
  amountCents: number;
  message: string | null;
  code: string;
  expiresAt: Temporal.Instant;
  timeZone: string;
  redeemUrl: string;
}) {
  const t = translator(input.locale);
  const amount = formatMoney(input.locale, input.amountCents);
  const day = formatLocalDay(input.locale, input.timeZone, input.expiresAt, 'genitive');
  const greeting = t(GREETING, { name: input.recipientName });
  const intro = t(VOUCHER_TEXTS.gift, { buyer: input.buyer, amount });
  const note = input.message ? [t(VOUCHER_TEXTS.message, { buyer: input.buyer }), input.message] : [];
  const code = t(VOUCHER_TEXTS.code, { code: input.code });
  const redeem = t(VOUCHER_TEXTS.redeem, { day });
  const open = t(VOUCHER_TEXTS.open, { url: input.redeemUrl });
  return {
    subject: t(VOUCHER_TEXTS.giftSubject, { buyer: input.buyer, amount }),
    text: [greeting, '', intro, '', ...note, ...(note.length ? [''] : []), code, '', redeem, open, ''].join(
      '\n',
    ),
    html: [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(intro)}</p>`,
      ...(input.message
        ? [
            `<p>${escapeHtml(note[0]!)}</p>`,
            `<blockquote style="white-space:pre-line">${escapeHtml(input.message)}</blockquote>`,
          ]
        : []),
      `<p style="font-size:20px;font-weight:700">${escapeHtml(code)}</p>`,
      `<p>${escapeHtml(redeem)}</p>`,
      `<p><a href="${escapeHtml(input.redeemUrl)}">${escapeHtml(open)}</a></p>`,
    ].join('\n'),
  };
}

export function giftVoucherBoughtMessage(input: {
  locale: Locale;
  firstName: string;
  recipientName: string;
  recipientEmail: string;
  amountCents: number;
  code: string;
  expiresAt: Temporal.Instant;
  timeZone: string;
  invoiceUrl: string | null;
}) {
  const t = translator(input.locale);
  const amount = formatMoney(input.locale, input.amountCents);
  const day = formatLocalDay(input.locale, input.timeZone, input.expiresAt, 'genitive');
  const paragraphs = [
    t(GREETING, { name: input.firstName }),
    t(VOUCHER_TEXTS.bought, { recipient: input.recipientName, email: input.recipientEmail, amount, day }),
    t(VOUCHER_TEXTS.code, { code: input.code }),
  ];
  const links = input.invoiceUrl
    ? [{ text: t(TEXTS.invoice, { url: input.invoiceUrl }), url: input.invoiceUrl }]
    : [];
  return {
    subject: t(VOUCHER_TEXTS.boughtSubject, { amount, recipient: input.recipientName }),
    text: [...paragraphs, '', ...links.map((link) => link.text), ''].join('\n'),
    html: layout(paragraphs, links),
  };
}
