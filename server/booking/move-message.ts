import { DOCUMENT_LINK } from './document-links.ts';
import type { Temporal } from 'temporal-polyfill';
import { escapeHtml } from '../kernel/html.ts';
import { type Locale, type Message, translator } from '../kernel/i18n.ts';
import { GREETING } from '../kernel/email-layout.ts';
import { bookingCalendarAttachments, type CalendarInput } from './calendar.ts';
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
  /** The links to the PDF of the move's invoice or credit note, when money moved. */
  documentUrls?: readonly string[];
};

const TEXTS = {
  subject: /*i18n*/ { id: 'email.move.subject', message: 'Reserva mudada: {branch}' },
  intro: /*i18n*/ { id: 'email.move.intro', message: 'A sua reserva mudou de horário:' },
  from: /*i18n*/ { id: 'email.move.from', message: 'Antes: {when}' },
  to: /*i18n*/ { id: 'email.move.to', message: 'Agora: {when}' },
  paid: /*i18n*/ { id: 'email.move.paid', message: 'Pagou a diferença de {amount}.' },
  refunded: /*i18n*/ {
    id: 'email.move.refunded',
    message: 'A diferença de {amount} foi reembolsada para o meio de pagamento que usou.',
  },
  same: /*i18n*/ { id: 'email.move.same', message: 'O preço é o mesmo.' },
  code: /*i18n*/ {
    id: 'email.move.code',
    message:
      'Receberá o código da porta para o novo horário por e-mail e SMS 30 minutos antes do início; o código anterior deixou de abrir a porta.',
  },
  manage: /*i18n*/ { id: 'email.move.manage', message: 'Pode ver as suas reservas em {url}' },
  failedSubject: /*i18n*/ {
    id: 'email.move.failedSubject',
    message: 'A mudança da sua reserva não foi feita: {branch}',
  },
  failed: /*i18n*/ {
    id: 'email.move.failed',
    message:
      'O pagamento de {amount} chegou depois de o novo horário ter deixado de estar reservado para si, por isso a reserva não mudou: continua a {when}. O pagamento foi reembolsado na totalidade.',
  },
} as const satisfies Record<string, Message>;

function compose(
  input: Pick<MoveMessageInput, 'locale' | 'firstName' | 'publicUrl'>,
  subject: string,
  paragraphs: readonly string[][],
): Pick<OutboxMessageContent, 'subject' | 'text' | 'html'> {
  const t = translator(input.locale);
  const greeting = t(GREETING, { name: input.firstName });
  const manage = t(TEXTS.manage, { url: `${input.publicUrl}/${input.locale}?account_tab=myBookings` });
  const all = [[greeting], ...paragraphs, [manage]];
  return {
    subject,
    text: all.map((lines) => lines.join('\n')).join('\n\n') + '\n',
    html: all.map((lines) => `<p>${lines.map(escapeHtml).join('<br>')}</p>`).join('\n'),
  };
}

export function bookingMovedMessage(input: MoveMessageInput): OutboxMessageContent {
  const t = translator(input.locale);
  const { locale, branch } = input;
  const when = (slot: MoveMessageInput['from']) =>
    describeSlotTime(locale, branch.timeZone, slot.start, slot.end);
  const amount = formatMoney(locale, Math.abs(input.differenceCents));
  const money =
    input.differenceCents > 0
      ? t(TEXTS.paid, { amount })
      : input.differenceCents < 0
        ? t(TEXTS.refunded, { amount })
        : t(TEXTS.same);
  return {
    ...compose(input, t(TEXTS.subject, { branch: branch.name }), [
      [t(TEXTS.intro), `${branch.name}, ${branch.location}`],
      [t(TEXTS.to, { when: when(input.to) }), t(TEXTS.from, { when: when(input.from) })],
      [money, ...(input.documentUrls ?? []).map((url) => t(DOCUMENT_LINK, { url }))],
      [t(TEXTS.code)],
    ]),
    // The confirmation's event (same UID), updated in place: METHOD:REQUEST at a higher SEQUENCE.
    attachments: bookingCalendarAttachments({
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
  };
}

export function moveRefundedMessage(
  input: Omit<MoveMessageInput, 'to' | 'sequence' | 'now' | 'bookingId' | 'organizer' | 'attendeeEmail'>,
): OutboxMessageContent {
  const t = translator(input.locale);
  // Slovak says "zostáva na štvrtok": the day in the accusative.
  const when = describeSlotTime(
    input.locale,
    input.branch.timeZone,
    input.from.start,
    input.from.end,
    'accusative',
  );
  const amount = formatMoney(input.locale, input.differenceCents);
  return {
    ...compose(input, t(TEXTS.failedSubject, { branch: input.branch.name }), [
      [t(TEXTS.failed, { amount, when })],
    ]),
    attachments: [],
  };
}
