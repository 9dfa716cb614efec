import type { Temporal } from 'temporal-polyfill';
import type { OutboxAttachment } from '../db/schema.ts';
import { format, type Locale } from '../kernel/i18n.ts';
import { bookingCalendarAttachment, type CalendarInput } from './calendar.ts';
import { bookingReceipt, type ReceiptInput } from './receipt.ts';
import { formatMoney } from '../kernel/money.ts';
import { describeSlotTime } from '../kernel/time-format.ts';
import { escapeHtml } from '../kernel/html.ts';

// The e-mail that confirms a paid (or free) booking: every time in the branch's zone with the zone named, and
// the bookings' calendar events (server/booking/calendar.ts). The door code is not in it: it is sent 30
// minutes before the start.

export type ConfirmedSlot = {
  bookingId: number;
  start: Temporal.Instant;
  end: Temporal.Instant;
  /** The slot's price before the coupon (the same as the final price without one). */
  basePriceCents: number;
  finalPriceCents: number;
  /** The booking's `calendar_sequence` (0 for a new booking). */
  sequence: number;
};

export type ConfirmationInput = {
  locale: Locale;
  firstName: string;
  branch: { name: string; location: string; timeZone: string };
  slots: readonly ConfirmedSlot[];
  organizer: CalendarInput['organizer'];
  attendeeEmail: string;
  publicUrl: string;
  now: Temporal.Instant;
  /** The receipt's other parties and facts (server/booking/receipt.ts). */
  receipt: Pick<ReceiptInput, 'company' | 'customer' | 'coupon' | 'payment'>;
};

export type OutboxMessageContent = {
  subject: string;
  text: string;
  html: string;
  attachments: OutboxAttachment[];
};

const TEXTS = {
  pt: {
    subject: 'Reserva confirmada: {branch}',
    greeting: 'Olá {name},',
    intro: 'A sua reserva está confirmada:',
    zone: 'Horas na hora local da filial ({zone}).',
    total: 'Total: {total}',
    code: 'Receberá o código da porta por e-mail e SMS 30 minutos antes do início.',
    manage: 'Pode ver ou cancelar as suas reservas em {url}',
  },
  en: {
    subject: 'Booking confirmed: {branch}',
    greeting: 'Hello {name},',
    intro: 'Your booking is confirmed:',
    zone: "Times are the branch's local time ({zone}).",
    total: 'Total: {total}',
    code: 'You will receive the door code by e-mail and SMS 30 minutes before the start.',
    manage: 'You can see or cancel your bookings at {url}',
  },
  fr: {
    subject: 'Réservation confirmée : {branch}',
    greeting: 'Bonjour {name},',
    intro: 'Votre réservation est confirmée :',
    zone: 'Heures locales de la salle ({zone}).',
    total: 'Total : {total}',
    code: 'Vous recevrez le code de la porte par e-mail et SMS 30 minutes avant le début.',
    manage: 'Vous pouvez consulter ou annuler vos réservations sur {url}',
  },
  de: {
    subject: 'Buchung bestätigt: {branch}',
    greeting: 'Hallo {name},',
    intro: 'Ihre Buchung ist bestätigt:',
    zone: 'Zeiten in der Ortszeit des Standorts ({zone}).',
    total: 'Summe: {total}',
    code: 'Den Türcode erhalten Sie 30 Minuten vor Beginn per E-Mail und SMS.',
    manage: 'Ihre Buchungen können Sie unter {url} ansehen oder stornieren.',
  },
  sk: {
    subject: 'Rezervácia potvrdená: {branch}',
    greeting: 'Dobrý deň, {name},',
    intro: 'Vaša rezervácia je potvrdená:',
    zone: 'Časy sú v miestnom čase pobočky ({zone}).',
    total: 'Spolu: {total}',
    code: 'Kód od dverí dostanete e-mailom a SMS 30 minút pred začiatkom.',
    manage: 'Svoje rezervácie si môžete pozrieť alebo zrušiť na {url}',
  },
} as const satisfies Record<Locale, Record<string, string>>;

export function bookingConfirmationMessage(input: ConfirmationInput): OutboxMessageContent {
  const texts = TEXTS[input.locale];
  const { branch, locale } = input;
  const slots = [...input.slots].sort((a, b) => a.start.epochMilliseconds - b.start.epochMilliseconds);
  const lines = slots.map(
    (slot) =>
      `${describeSlotTime(locale, branch.timeZone, slot.start, slot.end)}: ${formatMoney(locale, slot.finalPriceCents)}`,
  );
  const total = format(texts.total, {
    total: formatMoney(
      locale,
      slots.reduce((sum, slot) => sum + slot.finalPriceCents, 0),
    ),
  });
  const accountUrl = `${input.publicUrl}/${locale}?account_tab=myBookings`;
  const greeting = format(texts.greeting, { name: input.firstName });
  const zone = format(texts.zone, { zone: branch.timeZone });
  const manage = format(texts.manage, { url: accountUrl });
  const receipt = bookingReceipt({ ...input.receipt, locale, timeZone: branch.timeZone, slots });
  const text = [
    greeting,
    '',
    texts.intro,
    `${branch.name}, ${branch.location}`,
    ...lines.map((line) => `- ${line}`),
    zone,
    total,
    '',
    texts.code,
    manage,
    '',
    ...receipt.text,
    '',
  ].join('\n');
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(texts.intro)}<br><strong>${escapeHtml(branch.name)}</strong>, ${escapeHtml(branch.location)}</p>`,
    `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    `<p>${escapeHtml(zone)}<br>${escapeHtml(total)}</p>`,
    `<p>${escapeHtml(texts.code)}</p>`,
    `<p><a href="${escapeHtml(accountUrl)}">${escapeHtml(manage)}</a></p>`,
    receipt.html,
  ].join('\n');
  return {
    subject: format(texts.subject, { branch: branch.name }),
    text,
    html,
    attachments: [
      bookingCalendarAttachment({
        method: 'REQUEST',
        locale,
        branch,
        bookings: slots.map(({ bookingId, sequence, start, end }) => ({ bookingId, sequence, start, end })),
        organizer: input.organizer,
        attendeeEmail: input.attendeeEmail,
        publicUrl: input.publicUrl,
        now: input.now,
      }),
    ],
  };
}
