import { Temporal } from 'temporal-polyfill';
import { escapeHtml } from '../kernel/html.ts';
import { format, type Locale } from '../kernel/i18n.ts';
import { bookingCalendarAttachment, type CalendarInput } from './calendar.ts';
import type { OutboxMessageContent } from './confirmation-message.ts';
import { formatMoney } from '../kernel/money.ts';
import { describeSlotTime } from '../kernel/time-format.ts';

// The message that tells a member bookings of theirs ended without taking place: what was cancelled (times in
// the branch's zone), the refund and the card it goes to, and a calendar file removing each event the
// confirmation created. Also the honest word on a payment that arrived after its hold ended and was refunded:
// those slots were never booked, so there is no event to remove.

/** Who ended the bookings: the member, the account's deletion, an operator, or a payment that came too late. */
export type CancellationReason = 'member' | 'account_deleted' | 'operator' | 'late_payment';

export type CancelledBooking = {
  bookingId: number;
  start: Temporal.Instant;
  end: Temporal.Instant;
  refundCents: number;
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
};

/** Within this long of a booking's start its cancellation is also sent by SMS: the member may be on the way. */
export const CANCELLATION_SMS_WITHIN = Temporal.Duration.from({ hours: 24 });

const TEXTS = {
  pt: {
    subject: 'Reserva cancelada: {branch}',
    lateSubject: 'Pagamento reembolsado: {branch}',
    greeting: 'Olá {name},',
    member: 'Cancelou estas reservas:',
    operator: 'O ginásio cancelou estas reservas suas:',
    account_deleted: 'A sua conta foi eliminada e estas reservas foram canceladas:',
    late_payment:
      'O seu pagamento chegou depois de terminar a reserva temporária das horas escolhidas, por isso estas horas não ficaram reservadas e o pagamento foi reembolsado:',
    zone: 'Horas na hora local da filial ({zone}).',
    refundOf: 'reembolso de {amount}',
    noRefund: 'sem reembolso',
    refund: 'Reembolso total: {amount}, para {card}. Costuma chegar em 5 a 10 dias úteis.',
    nothing: 'Nada a reembolsar, segundo a política de cancelamento.',
    cardKnown: 'o cartão {brand} terminado em {last4}',
    cardUnknown: 'o cartão usado no pagamento',
    reference: 'Referência do pagamento: {reference}',
    calendar: 'O ficheiro de calendário anexo remove o evento do seu calendário.',
    rebook: 'Pode reservar outra hora em {url}',
    sms: '{company}: reserva de {when} em {branch} cancelada. {refund}',
    smsLate:
      '{company}: o pagamento chegou tarde e foi reembolsado; a hora de {when} em {branch} não ficou reservada.',
    smsRefund: 'Reembolso: {amount}.',
  },
  en: {
    subject: 'Booking cancelled: {branch}',
    lateSubject: 'Payment refunded: {branch}',
    greeting: 'Hello {name},',
    member: 'You cancelled these bookings:',
    operator: 'The gym has cancelled these bookings of yours:',
    account_deleted: 'Your account has been deleted and these bookings were cancelled:',
    late_payment:
      'Your payment arrived after the hold on the chosen times had ended, so these times were not booked and the payment has been refunded:',
    zone: "Times are the branch's local time ({zone}).",
    refundOf: 'refund {amount}',
    noRefund: 'no refund',
    refund: 'Total refund: {amount}, to {card}. It usually arrives within 5 to 10 business days.',
    nothing: 'Nothing is refunded, as the cancellation policy says.',
    cardKnown: 'the {brand} card ending in {last4}',
    cardUnknown: 'the card you paid with',
    reference: 'Payment reference: {reference}',
    calendar: 'The attached calendar file removes the event from your calendar.',
    rebook: 'You can book another time at {url}',
    sms: '{company}: your booking on {when} at {branch} is cancelled. {refund}',
    smsLate: '{company}: your payment arrived late and was refunded; {when} at {branch} was not booked.',
    smsRefund: 'Refund: {amount}.',
  },
  fr: {
    subject: 'Réservation annulée : {branch}',
    lateSubject: 'Paiement remboursé : {branch}',
    greeting: 'Bonjour {name},',
    member: 'Vous avez annulé ces réservations :',
    operator: 'La salle a annulé ces réservations :',
    account_deleted: 'Votre compte a été supprimé et ces réservations ont été annulées :',
    late_payment:
      'Votre paiement est arrivé après la fin du blocage des créneaux choisis : ces créneaux n’ont pas été réservés et le paiement a été remboursé :',
    zone: 'Heures locales de la salle ({zone}).',
    refundOf: 'remboursement de {amount}',
    noRefund: 'sans remboursement',
    refund: 'Remboursement total : {amount}, sur {card}. Il arrive en général sous 5 à 10 jours ouvrés.',
    nothing: 'Rien n’est remboursé, selon la politique d’annulation.',
    cardKnown: 'la carte {brand} se terminant par {last4}',
    cardUnknown: 'la carte utilisée pour le paiement',
    reference: 'Référence du paiement : {reference}',
    calendar: 'Le fichier de calendrier joint retire l’événement de votre agenda.',
    rebook: 'Vous pouvez réserver un autre créneau sur {url}',
    sms: '{company} : votre réservation du {when} à {branch} est annulée. {refund}',
    smsLate:
      '{company} : votre paiement est arrivé trop tard et a été remboursé ; le créneau du {when} à {branch} n’a pas été réservé.',
    smsRefund: 'Remboursement : {amount}.',
  },
  de: {
    subject: 'Buchung storniert: {branch}',
    lateSubject: 'Zahlung erstattet: {branch}',
    greeting: 'Hallo {name},',
    member: 'Sie haben diese Buchungen storniert:',
    operator: 'Das Studio hat diese Buchungen von Ihnen storniert:',
    account_deleted: 'Ihr Konto wurde gelöscht und diese Buchungen wurden storniert:',
    late_payment:
      'Ihre Zahlung ist eingegangen, nachdem die Reservierung der gewählten Zeiten abgelaufen war. Diese Zeiten wurden daher nicht gebucht und die Zahlung wurde erstattet:',
    zone: 'Zeiten in der Ortszeit des Standorts ({zone}).',
    refundOf: 'Erstattung {amount}',
    noRefund: 'keine Erstattung',
    refund: 'Erstattung gesamt: {amount}, auf {card}. Sie kommt meist innerhalb von 5 bis 10 Werktagen an.',
    nothing: 'Laut Stornobedingungen wird nichts erstattet.',
    cardKnown: 'die {brand}-Karte mit der Endung {last4}',
    cardUnknown: 'die Karte, mit der Sie bezahlt haben',
    reference: 'Zahlungsreferenz: {reference}',
    calendar: 'Die angehängte Kalenderdatei entfernt den Termin aus Ihrem Kalender.',
    rebook: 'Eine andere Zeit können Sie unter {url} buchen.',
    sms: '{company}: Ihre Buchung am {when} in {branch} ist storniert. {refund}',
    smsLate:
      '{company}: Ihre Zahlung kam zu spät und wurde erstattet; {when} in {branch} wurde nicht gebucht.',
    smsRefund: 'Erstattung: {amount}.',
  },
  sk: {
    subject: 'Rezervácia zrušená: {branch}',
    lateSubject: 'Platba vrátená: {branch}',
    greeting: 'Dobrý deň, {name},',
    member: 'Zrušili ste tieto rezervácie:',
    operator: 'Posilňovňa zrušila tieto vaše rezervácie:',
    account_deleted: 'Váš účet bol zrušený a tieto rezervácie boli zrušené:',
    late_payment:
      'Vaša platba prišla po skončení dočasnej rezervácie zvolených časov, preto tieto časy neboli rezervované a platba bola vrátená:',
    zone: 'Časy sú v miestnom čase pobočky ({zone}).',
    refundOf: 'vrátenie {amount}',
    noRefund: 'bez vrátenia peňazí',
    refund: 'Vrátená suma spolu: {amount}, na {card}. Zvyčajne príde do 5 až 10 pracovných dní.',
    nothing: 'Podľa storno podmienok sa nič nevracia.',
    cardKnown: 'kartu {brand} končiacu na {last4}',
    cardUnknown: 'kartu, ktorou ste platili',
    reference: 'Referencia platby: {reference}',
    calendar: 'Priložený kalendárový súbor odstráni udalosť z vášho kalendára.',
    rebook: 'Iný čas si môžete rezervovať na {url}',
    sms: '{company}: vaša rezervácia {when} v {branch} je zrušená. {refund}',
    smsLate: '{company}: vaša platba prišla neskoro a bola vrátená; {when} v {branch} nebol rezervovaný.',
    smsRefund: 'Vrátenie: {amount}.',
  },
} as const satisfies Record<Locale, Record<string, string>>;

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
  const texts = TEXTS[input.locale];
  const { branch, locale } = input;
  const late = input.reason === 'late_payment';
  const bookings = sortedBookings(input);
  const lines = bookings.map((booking) => {
    const when = describeSlotTime(locale, branch.timeZone, booking.start, booking.end);
    const refund =
      booking.refundCents > 0
        ? format(texts.refundOf, { amount: formatMoney(locale, booking.refundCents) })
        : texts.noRefund;
    return `${when}: ${refund}`;
  });
  const totalCents = bookings.reduce((sum, booking) => sum + booking.refundCents, 0);
  const card = input.card
    ? format(texts.cardKnown, {
        brand: input.card.brand ? cardBrandName(input.card.brand) : '',
        last4: input.card.last4,
      }).replace(/\s{2,}/g, ' ')
    : texts.cardUnknown;
  const refund =
    totalCents > 0 ? format(texts.refund, { amount: formatMoney(locale, totalCents), card }) : texts.nothing;
  const reference =
    totalCents > 0 && input.paymentReference
      ? format(texts.reference, { reference: input.paymentReference })
      : null;
  const greeting = format(texts.greeting, { name: input.firstName });
  const zone = format(texts.zone, { zone: branch.timeZone });
  const bookUrl = `${input.publicUrl}/${locale}`;
  const rebook = format(texts.rebook, { url: bookUrl });
  const paragraphs = [
    [refund, ...(reference ? [reference] : [])],
    ...(late ? [] : [[texts.calendar]]),
    ...(input.reason === 'account_deleted' ? [] : [[rebook]]),
  ];
  const text = [
    greeting,
    '',
    texts[input.reason],
    `${branch.name}, ${branch.location}`,
    ...lines.map((line) => `- ${line}`),
    zone,
    '',
    ...paragraphs.flatMap((paragraph) => [...paragraph, '']),
  ].join('\n');
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(texts[input.reason])}<br><strong>${escapeHtml(branch.name)}</strong>, ${escapeHtml(branch.location)}</p>`,
    `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    `<p>${escapeHtml(zone)}</p>`,
    ...paragraphs.map((paragraph) => `<p>${paragraph.map(escapeHtml).join('<br>')}</p>`),
  ].join('\n');
  return {
    subject: format(late ? texts.lateSubject : texts.subject, { branch: branch.name }),
    text,
    html,
    // A late payment's slots were never confirmed: no event was sent, so there is none to remove.
    attachments: late
      ? []
      : [
          bookingCalendarAttachment({
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
        ],
  };
}

/**
 * The SMS, or null when no booking of the message was due to start within 24 hours of the change: short, the
 * first of those bookings named, the whole refund stated.
 */
export function bookingCancellationSms(input: CancellationInput): string | null {
  const soon = sortedBookings(input).filter(
    (booking) =>
      Temporal.Instant.compare(booking.start, input.now.add(CANCELLATION_SMS_WITHIN)) <= 0 &&
      Temporal.Instant.compare(booking.start, input.now) > 0,
  );
  const first = soon[0];
  if (!first) return null;
  const texts = TEXTS[input.locale];
  const when = describeSlotTime(input.locale, input.branch.timeZone, first.start, first.end);
  const totalCents = input.bookings.reduce((sum, booking) => sum + booking.refundCents, 0);
  const params = { company: input.companyName, when, branch: input.branch.name };
  if (input.reason === 'late_payment') return format(texts.smsLate, params);
  const refund =
    totalCents > 0 ? format(texts.smsRefund, { amount: formatMoney(input.locale, totalCents) }) : '';
  return format(texts.sms, { ...params, refund }).trim();
}
