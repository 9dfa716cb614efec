import type { Temporal } from 'temporal-polyfill';
import { type Locale, type Message, translator } from '../kernel/i18n.ts';
import { GREETING } from '../kernel/email-layout.ts';
import { escapeHtml } from '../kernel/html.ts';
import { formatMoney } from '../kernel/money.ts';
import { describeSlotTime, formatLocalClock, formatLocalDay } from '../kernel/time-format.ts';

// The Multibanco voucher by e-mail (issue 29, item 5): entity, reference, amount and until when the slots are
// held, every time in the branch's zone with the zone named. No door code and no invoice: those follow the money.

export type VoucherMessageInput = {
  locale: Locale;
  firstName: string;
  timeZone: string;
  entity: string;
  reference: string;
  amountCents: number;
  /** When the slots are released if the money has not arrived. */
  heldUntil: Temporal.Instant;
  voucherUrl: string | null;
  slots: readonly { branchName: string; start: Temporal.Instant; end: Temporal.Instant }[];
  publicUrl: string;
};

const TEXTS = {
  subject: /*i18n*/ {
    id: 'email.voucher.subject',
    message:
      '{count, plural, one {Referência Multibanco da sua reserva} other {Referência Multibanco das suas reservas}}',
  },
  intro: /*i18n*/ {
    id: 'email.voucher.intro',
    message:
      'Para confirmar a sua reserva, pague esta referência Multibanco num multibanco ou no seu banco online:',
  },
  entity: /*i18n*/ { id: 'email.voucher.entity', message: 'Entidade: {entity}' },
  reference: /*i18n*/ { id: 'email.voucher.reference', message: 'Referência: {reference}' },
  amount: /*i18n*/ { id: 'email.voucher.amount', message: 'Montante: {amount}' },
  until: /*i18n*/ {
    id: 'email.voucher.until',
    message:
      'As horas ficam reservadas até {day}, {clock} ({zone}). Se o pagamento não chegar até lá, ficam livres e o dinheiro que chegar depois é reembolsado.',
  },
  after: /*i18n*/ {
    id: 'email.voucher.after',
    message:
      'Quando o pagamento chegar, enviamos a confirmação e a fatura; o código da porta chega 30 minutos antes do início.',
  },
  voucher: /*i18n*/ { id: 'email.voucher.link', message: 'Talão Multibanco: {url}' },
  bookings: /*i18n*/ { id: 'email.voucher.bookings', message: 'Horas reservadas:' },
} as const satisfies Record<string, Message>;

export function voucherMessage(input: VoucherMessageInput): { subject: string; text: string; html: string } {
  const t = translator(input.locale);
  const amount = formatMoney(input.locale, input.amountCents);
  const until = t(TEXTS.until, {
    day: formatLocalDay(input.locale, input.timeZone, input.heldUntil, 'genitive'),
    clock: formatLocalClock(input.locale, input.timeZone, input.heldUntil),
    zone: input.timeZone,
  });
  const slots = input.slots.map(
    (slot) => `${slot.branchName}: ${describeSlotTime(input.locale, input.timeZone, slot.start, slot.end)}`,
  );
  const facts = [
    t(TEXTS.entity, { entity: input.entity }),
    t(TEXTS.reference, { reference: input.reference }),
    t(TEXTS.amount, { amount }),
  ];
  const link = input.voucherUrl ? t(TEXTS.voucher, { url: input.voucherUrl }) : null;
  const greeting = t(GREETING, { name: input.firstName });
  const text = [
    greeting,
    '',
    t(TEXTS.intro),
    '',
    ...facts,
    '',
    until,
    t(TEXTS.after),
    ...(link ? [link] : []),
    '',
    t(TEXTS.bookings),
    ...slots.map((slot) => `- ${slot}`),
    '',
  ].join('\n');
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(t(TEXTS.intro))}</p>`,
    `<p style="font-size:20px;font-weight:700">${facts.map(escapeHtml).join('<br>')}</p>`,
    `<p>${escapeHtml(until)}</p>`,
    `<p>${escapeHtml(t(TEXTS.after))}</p>`,
    ...(input.voucherUrl
      ? [`<p><a href="${escapeHtml(input.voucherUrl)}">${escapeHtml(link ?? input.voucherUrl)}</a></p>`]
      : []),
    `<p>${escapeHtml(t(TEXTS.bookings))}</p>`,
    `<ul>${slots.map((slot) => `<li>${escapeHtml(slot)}</li>`).join('')}</ul>`,
  ].join('\n');
  return { subject: t(TEXTS.subject, { count: input.slots.length }), text, html };
}
