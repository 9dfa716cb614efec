import type { Temporal } from 'temporal-polyfill';
import { escapeHtml } from '../kernel/html.ts';
import { format, type Locale } from '../kernel/i18n.ts';
import { bookingCalendarAttachment, type CalendarInput } from './calendar.ts';
import type { OutboxMessageContent } from './confirmation-message.ts';
import { formatMoney } from '../kernel/money.ts';
import { describeSlotTime } from '../kernel/time-format.ts';

// The e-mails of a move: the booking moved (new time, old time, what was paid or refunded, and the calendar
// event updated in place: the same UID, a higher SEQUENCE), or a move whose payment came after its hold ended
// and was refunded.

export type MoveMessageInput = {
  locale: Locale;
  firstName: string;
  branch: { name: string; location: string; timeZone: string };
  bookingId: number;
  from: { start: Temporal.Instant; end: Temporal.Instant };
  to: { start: Temporal.Instant; end: Temporal.Instant };
  differenceCents: number;
  /** The booking's raised `calendar_sequence`: the moved event out-ranks every earlier version. */
  sequence: number;
  organizer: CalendarInput['organizer'];
  attendeeEmail: string;
  publicUrl: string;
  now: Temporal.Instant;
};

const TEXTS = {
  pt: {
    subject: 'Reserva mudada: {branch}',
    greeting: 'Olá {name},',
    intro: 'A sua reserva mudou de horário:',
    from: 'Antes: {when}',
    to: 'Agora: {when}',
    paid: 'Pagou a diferença de {amount}.',
    refunded: 'A diferença de {amount} foi reembolsada para o meio de pagamento que usou.',
    same: 'O preço é o mesmo.',
    code: 'Receberá o código da porta para o novo horário por e-mail e SMS 30 minutos antes do início; o código anterior deixou de abrir a porta.',
    manage: 'Pode ver as suas reservas em {url}',
    failedSubject: 'A mudança da sua reserva não foi feita: {branch}',
    failed:
      'O pagamento de {amount} chegou depois de o novo horário ter deixado de estar reservado para si, por isso a reserva não mudou: continua a {when}. O pagamento foi reembolsado na totalidade.',
  },
  en: {
    subject: 'Booking moved: {branch}',
    greeting: 'Hello {name},',
    intro: 'Your booking has moved:',
    from: 'Before: {when}',
    to: 'Now: {when}',
    paid: 'You paid the difference of {amount}.',
    refunded: 'The difference of {amount} was refunded to the payment method you used.',
    same: 'The price is the same.',
    code: 'You will receive the door code for the new time by e-mail and SMS 30 minutes before the start; the previous code no longer opens the door.',
    manage: 'You can see your bookings at {url}',
    failedSubject: 'Your booking was not moved: {branch}',
    failed:
      'The payment of {amount} arrived after the new time slot stopped being held for you, so your booking did not move: it is still on {when}. The payment was refunded in full.',
  },
  fr: {
    subject: 'Réservation déplacée : {branch}',
    greeting: 'Bonjour {name},',
    intro: 'Votre réservation a été déplacée :',
    from: 'Avant : {when}',
    to: 'Désormais : {when}',
    paid: 'Vous avez payé la différence de {amount}.',
    refunded: 'La différence de {amount} a été remboursée sur le moyen de paiement utilisé.',
    same: 'Le prix est le même.',
    code: 'Vous recevrez le code de la porte pour le nouvel horaire par e-mail et SMS 30 minutes avant le début ; l’ancien code n’ouvre plus la porte.',
    manage: 'Vous pouvez consulter vos réservations sur {url}',
    failedSubject: 'Votre réservation n’a pas été déplacée : {branch}',
    failed:
      'Le paiement de {amount} est arrivé après la fin de la réservation temporaire du nouveau créneau ; votre réservation n’a donc pas changé : elle reste le {when}. Le paiement a été intégralement remboursé.',
  },
  de: {
    subject: 'Buchung verschoben: {branch}',
    greeting: 'Hallo {name},',
    intro: 'Ihre Buchung wurde verschoben:',
    from: 'Vorher: {when}',
    to: 'Jetzt: {when}',
    paid: 'Sie haben die Differenz von {amount} bezahlt.',
    refunded: 'Die Differenz von {amount} wurde auf Ihr Zahlungsmittel erstattet.',
    same: 'Der Preis ist derselbe.',
    code: 'Den Türcode für die neue Zeit erhalten Sie 30 Minuten vor Beginn per E-Mail und SMS; der bisherige Code öffnet die Tür nicht mehr.',
    manage: 'Ihre Buchungen können Sie unter {url} ansehen.',
    failedSubject: 'Ihre Buchung wurde nicht verschoben: {branch}',
    failed:
      'Die Zahlung von {amount} kam an, nachdem das neue Zeitfenster nicht mehr für Sie reserviert war; Ihre Buchung bleibt daher unverändert am {when}. Die Zahlung wurde vollständig erstattet.',
  },
  sk: {
    subject: 'Rezervácia presunutá: {branch}',
    greeting: 'Dobrý deň, {name},',
    intro: 'Vaša rezervácia bola presunutá:',
    from: 'Predtým: {when}',
    to: 'Teraz: {when}',
    paid: 'Zaplatili ste rozdiel {amount}.',
    refunded: 'Rozdiel {amount} bol vrátený na platobný prostriedok, ktorý ste použili.',
    same: 'Cena je rovnaká.',
    code: 'Kód od dverí pre nový čas dostanete e-mailom a SMS 30 minút pred začiatkom; predchádzajúci kód už dvere neotvorí.',
    manage: 'Svoje rezervácie si môžete pozrieť na {url}',
    failedSubject: 'Vaša rezervácia nebola presunutá: {branch}',
    failed:
      'Platba {amount} prišla až potom, ako nový časový úsek prestal byť pre vás rezervovaný, preto sa rezervácia nezmenila: zostáva {when}. Platba bola vrátená v plnej výške.',
  },
} as const satisfies Record<Locale, Record<string, string>>;

function compose(
  input: Pick<MoveMessageInput, 'locale' | 'firstName' | 'publicUrl'>,
  subject: string,
  paragraphs: readonly string[][],
): Pick<OutboxMessageContent, 'subject' | 'text' | 'html'> {
  const texts = TEXTS[input.locale];
  const greeting = format(texts.greeting, { name: input.firstName });
  const manage = format(texts.manage, { url: `${input.publicUrl}/${input.locale}?account_tab=myBookings` });
  const all = [[greeting], ...paragraphs, [manage]];
  return {
    subject,
    text: all.map((lines) => lines.join('\n')).join('\n\n') + '\n',
    html: all.map((lines) => `<p>${lines.map(escapeHtml).join('<br>')}</p>`).join('\n'),
  };
}

export function bookingMovedMessage(input: MoveMessageInput): OutboxMessageContent {
  const texts = TEXTS[input.locale];
  const { locale, branch } = input;
  const when = (slot: MoveMessageInput['from']) =>
    describeSlotTime(locale, branch.timeZone, slot.start, slot.end);
  const amount = formatMoney(locale, Math.abs(input.differenceCents));
  const money =
    input.differenceCents > 0
      ? format(texts.paid, { amount })
      : input.differenceCents < 0
        ? format(texts.refunded, { amount })
        : texts.same;
  return {
    ...compose(input, format(texts.subject, { branch: branch.name }), [
      [texts.intro, `${branch.name}, ${branch.location}`],
      [format(texts.to, { when: when(input.to) }), format(texts.from, { when: when(input.from) })],
      [money],
      [texts.code],
    ]),
    // The confirmation's event (same UID), updated in place: METHOD:REQUEST at a higher SEQUENCE.
    attachments: [
      bookingCalendarAttachment({
        method: 'REQUEST',
        locale,
        branch,
        bookings: [
          { bookingId: input.bookingId, sequence: input.sequence, start: input.to.start, end: input.to.end },
        ],
        organizer: input.organizer,
        attendeeEmail: input.attendeeEmail,
        publicUrl: input.publicUrl,
        now: input.now,
      }),
    ],
  };
}

export function moveRefundedMessage(
  input: Omit<MoveMessageInput, 'to' | 'sequence' | 'now' | 'bookingId' | 'organizer' | 'attendeeEmail'>,
): OutboxMessageContent {
  const texts = TEXTS[input.locale];
  const when = describeSlotTime(input.locale, input.branch.timeZone, input.from.start, input.from.end);
  const amount = formatMoney(input.locale, input.differenceCents);
  return {
    ...compose(input, format(texts.failedSubject, { branch: input.branch.name }), [
      [format(texts.failed, { amount, when })],
    ]),
    attachments: [],
  };
}
