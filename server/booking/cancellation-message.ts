import { DOCUMENT_LINK } from './document-links.ts';
import { Temporal } from 'temporal-polyfill';
import { escapeHtml } from '../kernel/html.ts';
import { type Locale, type Message, translator } from '../kernel/i18n.ts';
import { GREETING, LOCAL_TIMES } from '../kernel/email-layout.ts';
import { bookingCalendarAttachments, type CalendarInput } from './calendar.ts';
import type { OutboxMessageContent } from './confirmation-message.ts';
import { formatMoney } from '../kernel/money.ts';
import { describeSlotTime } from '../kernel/time-format.ts';

// The message that tells a member bookings of theirs ended without taking place: what was cancelled (times in
// the branch's zone), the refund and the card it goes to, and a calendar file removing each event the
// confirmation created. Also the honest word on a payment that arrived after its hold ended and was refunded:
// those slots were never booked, so there is no event to remove.

/**
 * Who ended the bookings: the member, the account's deletion, an operator, a closure of the branch, the member's
 * block, or a payment that came too late.
 */
export type CancellationReason =
  'member' | 'account_deleted' | 'operator' | 'closure' | 'blocked' | 'late_payment';

export type CancelledBooking = {
  bookingId: number;
  start: Temporal.Instant;
  end: Temporal.Instant;
  refundCents: number;
  /** What came back to the member's wallet of what credit paid (issue 31), in cents of the price. */
  creditBackCents?: number;
  /** The booking's raised `calendar_sequence`: the cancel event must out-rank the confirmation's. */
  sequence: number;
};

export type CancellationInput = {
  reason: CancellationReason;
  locale: Locale;
  firstName: string;
  branch: { name: string; location: string; timeZone: string };
  bookings: readonly CancelledBooking[];
  /** The card the payment came from, when the provider told which. */
  card: { brand: string | null; last4: string } | null;
  /** The provider's reference of the payment refunded (the checkout session), for the member's bank queries. */
  paymentReference: string | null;
  companyName: string;
  organizer: CalendarInput['organizer'];
  attendeeEmail: string;
  publicUrl: string;
  now: Temporal.Instant;
  /** The links to the PDF of the refunds' credit notes. */
  documentUrls?: readonly string[];
  /** What the operator wrote for the member (a cancellation's or a closure's reason); never a block's reason. */
  note?: string | null;
  /** How to reach the business: what a blocked member is given instead of an invitation to book again. */
  contact?: { email: string; phone: string | null };
};

/** Within this long of a booking's start its cancellation is also sent by SMS: the member may be on the way. */
export const CANCELLATION_SMS_WITHIN = Temporal.Duration.from({ hours: 24 });

const TEXTS = {
  subject: /*i18n*/ {
    id: 'email.cancellation.subject',
    message: '{count, plural, one {Reserva cancelada} other {Reservas canceladas}}: {branch}',
  },
  lateSubject: /*i18n*/ { id: 'email.cancellation.lateSubject', message: 'Pagamento reembolsado: {branch}' },
  member: /*i18n*/ {
    id: 'email.cancellation.member',
    message: '{count, plural, one {Cancelou esta reserva:} other {Cancelou estas reservas:}}',
  },
  operator: /*i18n*/ {
    id: 'email.cancellation.operator',
    message:
      '{count, plural, one {O ginásio cancelou esta reserva sua:} other {O ginásio cancelou estas reservas suas:}}',
  },
  closure: /*i18n*/ {
    id: 'email.cancellation.closure',
    message:
      '{count, plural, one {O ginásio vai estar fechado e cancelou esta reserva sua:} other {O ginásio vai estar fechado e cancelou estas reservas suas:}}',
  },
  blocked: /*i18n*/ {
    id: 'email.cancellation.blocked',
    message:
      '{count, plural, one {A sua conta já não pode fazer reservas e esta reserva foi cancelada:} other {A sua conta já não pode fazer reservas e estas reservas foram canceladas:}}',
  },
  note: /*i18n*/ { id: 'email.cancellation.note', message: 'Motivo indicado pelo ginásio: {note}' },
  contact: /*i18n*/ { id: 'email.cancellation.contact', message: 'Para mais informações: {email}' },
  contactPhone: /*i18n*/ {
    id: 'email.cancellation.contactPhone',
    message: 'Para mais informações: {email} ou {phone}',
  },
  account_deleted: /*i18n*/ {
    id: 'email.cancellation.account_deleted',
    message:
      '{count, plural, one {A sua conta foi eliminada e esta reserva foi cancelada:} other {A sua conta foi eliminada e estas reservas foram canceladas:}}',
  },
  late_payment: /*i18n*/ {
    id: 'email.cancellation.late_payment',
    message:
      'O seu pagamento chegou depois de terminar a reserva temporária {count, plural, one {da hora escolhida, por isso esta hora não ficou reservada} other {das horas escolhidas, por isso estas horas não ficaram reservadas}} e o pagamento foi reembolsado:',
  },
  refundOf: /*i18n*/ { id: 'email.cancellation.refundOf', message: 'reembolso de {amount}' },
  noRefund: /*i18n*/ { id: 'email.cancellation.noRefund', message: 'sem reembolso' },
  creditBackOf: /*i18n*/ { id: 'email.cancellation.creditBackOf', message: '{amount} de crédito devolvido' },
  creditBack: /*i18n*/ {
    id: 'email.cancellation.creditBack',
    message: '{amount} do crédito que pagou estas horas voltou à sua carteira.',
  },
  refund: /*i18n*/ {
    id: 'email.cancellation.refund',
    message: 'Reembolso total: {amount}, para {card}. Costuma chegar em 5 a 10 dias úteis.',
  },
  nothing: /*i18n*/ {
    id: 'email.cancellation.nothing',
    message: 'Nada a reembolsar, segundo a política de cancelamento.',
  },
  cardKnown: /*i18n*/ {
    id: 'email.cancellation.cardKnown',
    message: 'o cartão {brand} terminado em {last4}',
  },
  cardUnknown: /*i18n*/ { id: 'email.cancellation.cardUnknown', message: 'o cartão usado no pagamento' },
  reference: /*i18n*/ { id: 'email.cancellation.reference', message: 'Referência do pagamento: {reference}' },
  calendar: /*i18n*/ {
    id: 'email.cancellation.calendar',
    message: 'O ficheiro de calendário anexo remove o evento do seu calendário.',
  },
  rebook: /*i18n*/ { id: 'email.cancellation.rebook', message: 'Pode reservar outra hora em {url}' },
  sms: /*i18n*/ {
    id: 'email.cancellation.sms',
    message: '{company}: reserva de {when} em {branch} cancelada. {refund}',
  },
  smsLate: /*i18n*/ {
    id: 'email.cancellation.smsLate',
    message:
      '{company}: o pagamento chegou tarde e foi reembolsado; a hora de {when} em {branch} não ficou reservada.',
  },
  smsRefund: /*i18n*/ { id: 'email.cancellation.smsRefund', message: 'Reembolso: {amount}.' },
  smsNoRefund: /*i18n*/ { id: 'email.cancellation.smsNoRefund', message: 'Sem reembolso.' },
  smsCreditBack: /*i18n*/ {
    id: 'email.cancellation.smsCreditBack',
    message: '{amount} de crédito voltou à sua carteira.',
  },
  smsOthers: /*i18n*/ {
    id: 'email.cancellation.smsOthers',
    message:
      '{count, plural, one {Mais # reserva cancelada} other {Mais # reservas canceladas}}; reembolso total: {amount}. Detalhes no e-mail.',
  },
  smsOthersNoRefund: /*i18n*/ {
    id: 'email.cancellation.smsOthersNoRefund',
    message:
      '{count, plural, one {Mais # reserva cancelada} other {Mais # reservas canceladas}}, sem reembolso. Detalhes no e-mail.',
  },
} as const satisfies Record<string, Message>;

/** 'visa' -> 'Visa', 'american_express' -> 'American Express': card networks as people write them. */
function cardBrandName(brand: string): string {
  return brand
    .split(/[_\s-]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

function sortedBookings(input: CancellationInput): CancelledBooking[] {
  return [...input.bookings].sort((a, b) => a.start.epochMilliseconds - b.start.epochMilliseconds);
}

/** The e-mail: one per member and branch, listing every booking this change ended there. */
export function bookingCancellationEmail(input: CancellationInput): OutboxMessageContent {
  const t = translator(input.locale);
  const { branch, locale } = input;
  const late = input.reason === 'late_payment';
  const bookings = sortedBookings(input);
  const lines = bookings.map((booking) => {
    const when = describeSlotTime(locale, branch.timeZone, booking.start, booking.end);
    const credit = booking.creditBackCents ?? 0;
    const refund =
      booking.refundCents > 0
        ? t(TEXTS.refundOf, { amount: formatMoney(locale, booking.refundCents) })
        : credit > 0
          ? null
          : t(TEXTS.noRefund);
    const back = credit > 0 ? t(TEXTS.creditBackOf, { amount: formatMoney(locale, credit) }) : null;
    return `${when}: ${[refund, back].filter(Boolean).join(', ')}`;
  });
  const totalCents = bookings.reduce((sum, booking) => sum + booking.refundCents, 0);
  const creditCents = bookings.reduce((sum, booking) => sum + (booking.creditBackCents ?? 0), 0);
  const card = input.card
    ? t(TEXTS.cardKnown, {
        brand: input.card.brand ? cardBrandName(input.card.brand) : '',
        last4: input.card.last4,
      }).replace(/\s{2,}/g, ' ')
    : t(TEXTS.cardUnknown);
  const creditLine =
    creditCents > 0 ? t(TEXTS.creditBack, { amount: formatMoney(locale, creditCents) }) : null;
  const refund = [
    totalCents > 0
      ? t(TEXTS.refund, { amount: formatMoney(locale, totalCents), card })
      : creditLine
        ? null
        : t(TEXTS.nothing),
    creditLine,
  ]
    .filter(Boolean)
    .join(' ');
  const reference =
    totalCents > 0 && input.paymentReference
      ? t(TEXTS.reference, { reference: input.paymentReference })
      : null;
  const greeting = t(GREETING, { name: input.firstName });
  const zone = t(LOCAL_TIMES, { zone: branch.timeZone });
  const bookUrl = `${input.publicUrl}/${locale}`;
  const rebook = t(TEXTS.rebook, { url: bookUrl });
  // A blocked member is not invited to book again (they cannot): they are told whom to ask.
  const contact = input.contact
    ? input.contact.phone
      ? t(TEXTS.contactPhone, { email: input.contact.email, phone: input.contact.phone })
      : t(TEXTS.contact, { email: input.contact.email })
    : null;
  const closing =
    input.reason === 'account_deleted'
      ? []
      : input.reason === 'blocked'
        ? contact
          ? [[contact]]
          : []
        : [[rebook]];
  const note = input.note?.trim() ? t(TEXTS.note, { note: input.note.trim() }) : null;
  const paragraphs = [
    [
      refund,
      ...(reference ? [reference] : []),
      ...(input.documentUrls ?? []).map((url) => t(DOCUMENT_LINK, { url })),
    ],
    ...(late ? [] : [[t(TEXTS.calendar)]]),
    ...closing,
  ];
  const text = [
    greeting,
    '',
    t(TEXTS[input.reason], { count: bookings.length }),
    `${branch.name}, ${branch.location}`,
    ...lines.map((line) => `- ${line}`),
    zone,
    '',
    ...(note ? [note, ''] : []),
    ...paragraphs.flatMap((paragraph) => [...paragraph, '']),
  ].join('\n');
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(t(TEXTS[input.reason], { count: bookings.length }))}<br><strong>${escapeHtml(branch.name)}</strong>, ${escapeHtml(branch.location)}</p>`,
    `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    `<p>${escapeHtml(zone)}</p>`,
    ...(note ? [`<p>${escapeHtml(note)}</p>`] : []),
    ...paragraphs.map((paragraph) => `<p>${paragraph.map(escapeHtml).join('<br>')}</p>`),
  ].join('\n');
  return {
    subject: t(late ? TEXTS.lateSubject : TEXTS.subject, { branch: branch.name, count: bookings.length }),
    text,
    html,
    // A late payment's slots were never confirmed: no event was sent, so there is none to remove.
    attachments: late
      ? []
      : bookingCalendarAttachments({
          method: 'CANCEL',
          locale,
          branch,
          bookings: bookings.map(({ bookingId, sequence, start, end }) => ({
            bookingId,
            sequence,
            start,
            end,
          })),
          organizer: input.organizer,
          attendeeEmail: input.attendeeEmail,
          publicUrl: input.publicUrl,
          now: input.now,
        }),
  };
}

/**
 * The SMS, or null when no booking of the message was due to start within 24 hours of the change: short, the
 * first of those bookings named with its own refund; any other booking of the message counted, with the refund of
 * them all (the e-mail lists each).
 */
export function bookingCancellationSms(input: CancellationInput): string | null {
  const soon = sortedBookings(input).filter(
    (booking) =>
      Temporal.Instant.compare(booking.start, input.now.add(CANCELLATION_SMS_WITHIN)) <= 0 &&
      Temporal.Instant.compare(booking.start, input.now) > 0,
  );
  const first = soon[0];
  if (!first) return null;
  const t = translator(input.locale);
  // Slovak says "rezervácia na štvrtok": the day in the accusative.
  const when = describeSlotTime(input.locale, input.branch.timeZone, first.start, first.end, 'accusative');
  const params = { company: input.companyName, when, branch: input.branch.name };
  if (input.reason === 'late_payment') return t(TEXTS.smsLate, params);
  const amount = (cents: number) => formatMoney(input.locale, cents);
  const refund =
    first.refundCents > 0
      ? t(TEXTS.smsRefund, { amount: amount(first.refundCents) })
      : (first.creditBackCents ?? 0) > 0
        ? t(TEXTS.smsCreditBack, { amount: amount(first.creditBackCents!) })
        : t(TEXTS.smsNoRefund);
  const others = input.bookings.length - 1;
  const totalCents = input.bookings.reduce((sum, booking) => sum + booking.refundCents, 0);
  const rest =
    others === 0
      ? ''
      : totalCents > 0
        ? ` ${t(TEXTS.smsOthers, { count: others, amount: amount(totalCents) })}`
        : ` ${t(TEXTS.smsOthersNoRefund, { count: others })}`;
  return `${t(TEXTS.sms, { ...params, refund })}${rest}`.trim();
}
