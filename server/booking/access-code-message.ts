import type { Temporal } from 'temporal-polyfill';
import { type Locale, type Message, translator } from '../kernel/i18n.ts';
import { CODE_STYLE, GREETING, LOCAL_TIMES } from '../kernel/email-layout.ts';
import { escapeHtml } from '../kernel/html.ts';
import { describeSlotTime, formatLocalClock, formatLocalDay } from '../kernel/time-format.ts';

// The door-code message, sent by e-mail and SMS 30 minutes before a booking starts: the code, when it opens
// the door and the bookings it covers, every time in the branch's zone with the zone named. A run of
// back-to-back bookings shares one code, so one message covers the run.

export type AccessCodeInput = {
  locale: Locale;
  firstName: string;
  branch: { name: string; location: string; timeZone: string };
  code: string;
  /** When the code opens the door: 15 minutes before the first booking until 15 minutes after the last. */
  validFrom: Temporal.Instant;
  validUntil: Temporal.Instant;
  slots: readonly { start: Temporal.Instant; end: Temporal.Instant }[];
  publicUrl: string;
  /** The doors did not confirm the code in time: the message says whom to call (the operator was alerted). */
  help?: { phone: string | null } | null;
};

export type AccessCodeMessage = { subject: string; text: string; html: string; sms: string };

const TEXTS = {
  subject: /*i18n*/ { id: 'email.accessCode.subject', message: 'O seu código de acesso: {branch}' },
  intro: /*i18n*/ {
    id: 'email.accessCode.intro',
    message: 'A sua sessão em {branch} ({location}) começa em breve. O código da porta é:',
  },
  valid: /*i18n*/ {
    id: 'email.accessCode.valid',
    message: 'O código abre a porta de {from} a {until} ({zone}).',
  },
  bookings: /*i18n*/ {
    id: 'email.accessCode.bookings',
    message: '{count, plural, one {Reserva:} other {Reservas:}}',
  },
  keep: /*i18n*/ { id: 'email.accessCode.keep', message: 'Não partilhe este código. Bom treino!' },
  manage: /*i18n*/ { id: 'email.accessCode.manage', message: 'As suas reservas: {url}' },
  help: /*i18n*/ {
    id: 'email.accessCode.help',
    message: 'Se a porta não abrir com este código, ligue para {phone}.',
  },
  helpNoPhone: /*i18n*/ {
    id: 'email.accessCode.helpNoPhone',
    message: 'Se a porta não abrir com este código, responda a esta mensagem: já fomos avisados.',
  },
  helpSms: /*i18n*/ { id: 'email.accessCode.helpSms', message: 'Se a porta não abrir, ligue {phone}.' },
  sms: /*i18n*/ {
    id: 'email.accessCode.sms',
    message: '{brand}: código da porta {code} para {branch}, válido de {from} a {until} ({zone}).',
  },
} as const satisfies Record<string, Message>;

/** '10:00' on the booking's day, or the full day and time when the window spills into another day. */
// The days follow "from" and "until" (Slovak "od"/"do" take the genitive); {untilDay} tells whether {until} is a
// clock on the same day ('same') or a day and a clock ('other'), as French says "à 11:00" but "au vendredi".
function windowText(input: AccessCodeInput): { from: string; until: string; untilDay: 'same' | 'other' } {
  const { locale, branch } = input;
  const day = (instant: Temporal.Instant) => formatLocalDay(locale, branch.timeZone, instant, 'genitive');
  const clock = (instant: Temporal.Instant) => formatLocalClock(locale, branch.timeZone, instant);
  const sameDay = day(input.validFrom) === day(input.validUntil);
  return {
    from: `${day(input.validFrom)}, ${clock(input.validFrom)}`,
    until: sameDay ? clock(input.validUntil) : `${day(input.validUntil)}, ${clock(input.validUntil)}`,
    untilDay: sameDay ? 'same' : 'other',
  };
}

export function accessCodeMessage(input: AccessCodeInput, brand: string): AccessCodeMessage {
  const t = translator(input.locale);
  const { branch, locale } = input;
  const window = windowText(input);
  const params = {
    name: input.firstName,
    branch: branch.name,
    location: branch.location,
    zone: branch.timeZone,
    code: input.code,
    brand,
    ...window,
  };
  const slots = [...input.slots]
    .sort((a, b) => a.start.epochMilliseconds - b.start.epochMilliseconds)
    .map((slot) => describeSlotTime(locale, branch.timeZone, slot.start, slot.end));
  const accountUrl = `${input.publicUrl}/${locale}?account_tab=myBookings`;
  const greeting = t(GREETING, params);
  const intro = t(TEXTS.intro, params);
  const valid = t(TEXTS.valid, params);
  const zone = t(LOCAL_TIMES, params);
  const manage = t(TEXTS.manage, { url: accountUrl });
  const help = input.help
    ? input.help.phone
      ? t(TEXTS.help, { phone: input.help.phone })
      : t(TEXTS.helpNoPhone)
    : null;
  const text = [
    greeting,
    '',
    intro,
    '',
    input.code,
    '',
    valid,
    ...(help ? [help] : []),
    t(TEXTS.bookings, { count: slots.length }),
    ...slots.map((slot) => `- ${slot}`),
    zone,
    '',
    t(TEXTS.keep),
    manage,
    '',
  ].join('\n');
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<p class="code" style="${CODE_STYLE}">${escapeHtml(input.code)}</p>`,
    `<p>${escapeHtml(valid)}</p>`,
    ...(help ? [`<p><strong>${escapeHtml(help)}</strong></p>`] : []),
    `<p>${escapeHtml(t(TEXTS.bookings, { count: slots.length }))}</p>`,
    `<ul>${slots.map((slot) => `<li>${escapeHtml(slot)}</li>`).join('')}</ul>`,
    `<p>${escapeHtml(zone)}</p>`,
    `<p>${escapeHtml(t(TEXTS.keep))}</p>`,
    `<p><a href="${escapeHtml(accountUrl)}">${escapeHtml(manage)}</a></p>`,
  ].join('\n');
  return {
    subject: t(TEXTS.subject, params),
    text,
    html,
    sms: [
      t(TEXTS.sms, params),
      ...(input.help?.phone ? [t(TEXTS.helpSms, { phone: input.help.phone })] : []),
    ].join(' '),
  };
}
