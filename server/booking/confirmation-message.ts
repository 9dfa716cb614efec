import type { Temporal } from 'temporal-polyfill';
import type { OutboxAttachment } from '../db/schema.ts';
import { type Locale, type Message, translator } from '../kernel/i18n.ts';
import { GREETING, LOCAL_TIMES } from '../kernel/email-layout.ts';
import { bookingCalendarAttachments, type CalendarInput } from './calendar.ts';
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
  receipt: Pick<ReceiptInput, 'company' | 'customer' | 'coupon' | 'payment' | 'documentUrl'>;
};

export type OutboxMessageContent = {
  subject: string;
  text: string;
  html: string;
  attachments: OutboxAttachment[];
};

const TEXTS = {
  subject: /*i18n*/ {
    id: 'email.confirmation.subject',
    message: '{count, plural, one {Reserva confirmada} other {Reservas confirmadas}}: {branch}',
  },
  intro: /*i18n*/ {
    id: 'email.confirmation.intro',
    message:
      '{count, plural, one {A sua reserva está confirmada:} other {As suas # reservas estão confirmadas:}}',
  },
  total: /*i18n*/ { id: 'email.confirmation.total', message: 'Total: {total}' },
  code: /*i18n*/ {
    id: 'email.confirmation.code',
    message: 'Receberá o código da porta por e-mail e SMS 30 minutos antes do início.',
  },
  manage: /*i18n*/ {
    id: 'email.confirmation.manage',
    message: 'Pode ver ou cancelar as suas reservas em {url}',
  },
} as const satisfies Record<string, Message>;

export function bookingConfirmationMessage(input: ConfirmationInput): OutboxMessageContent {
  const t = translator(input.locale);
  const { branch, locale } = input;
  const slots = [...input.slots].sort((a, b) => a.start.epochMilliseconds - b.start.epochMilliseconds);
  const lines = slots.map(
    (slot) =>
      `${describeSlotTime(locale, branch.timeZone, slot.start, slot.end)}: ${formatMoney(locale, slot.finalPriceCents)}`,
  );
  const total = t(TEXTS.total, {
    total: formatMoney(
      locale,
      slots.reduce((sum, slot) => sum + slot.finalPriceCents, 0),
    ),
  });
  const accountUrl = `${input.publicUrl}/${locale}?account_tab=myBookings`;
  const greeting = t(GREETING, { name: input.firstName });
  const zone = t(LOCAL_TIMES, { zone: branch.timeZone });
  const manage = t(TEXTS.manage, { url: accountUrl });
  const receipt = bookingReceipt({ ...input.receipt, locale, timeZone: branch.timeZone, slots });
  const text = [
    greeting,
    '',
    t(TEXTS.intro, { count: slots.length }),
    `${branch.name}, ${branch.location}`,
    ...lines.map((line) => `- ${line}`),
    zone,
    total,
    '',
    t(TEXTS.code),
    manage,
    '',
    ...receipt.text,
    '',
  ].join('\n');
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(t(TEXTS.intro, { count: slots.length }))}<br><strong>${escapeHtml(branch.name)}</strong>, ${escapeHtml(branch.location)}</p>`,
    `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    `<p>${escapeHtml(zone)}<br>${escapeHtml(total)}</p>`,
    `<p>${escapeHtml(t(TEXTS.code))}</p>`,
    `<p><a href="${escapeHtml(accountUrl)}">${escapeHtml(manage)}</a></p>`,
    receipt.html,
  ].join('\n');
  return {
    subject: t(TEXTS.subject, { branch: branch.name, count: slots.length }),
    text,
    html,
    attachments: bookingCalendarAttachments({
      method: 'REQUEST',
      locale,
      branch,
      bookings: slots.map(({ bookingId, sequence, start, end }) => ({ bookingId, sequence, start, end })),
      organizer: input.organizer,
      attendeeEmail: input.attendeeEmail,
      publicUrl: input.publicUrl,
      now: input.now,
    }),
  };
}
