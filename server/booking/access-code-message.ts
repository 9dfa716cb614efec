import type { Temporal } from 'temporal-polyfill';
import { format, type Locale } from '../kernel/i18n.ts';
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
  pt: {
    subject: 'O seu código de acesso: {branch}',
    greeting: 'Olá {name},',
    intro: 'A sua sessão em {branch} ({location}) começa em breve. O código da porta é:',
    valid: 'O código abre a porta de {from} a {until} ({zone}).',
    bookings: 'Reservas:',
    zone: 'Horas na hora local da filial ({zone}).',
    keep: 'Não partilhe este código. Bom treino!',
    manage: 'As suas reservas: {url}',
    help: 'Se a porta não abrir com este código, ligue para {phone}.',
    helpNoPhone: 'Se a porta não abrir com este código, responda a esta mensagem: já fomos avisados.',
    helpSms: 'Se a porta não abrir, ligue {phone}.',
    sms: '{brand}: código da porta {code} para {branch}, válido de {from} a {until} ({zone}).',
  },
  en: {
    subject: 'Your access code: {branch}',
    greeting: 'Hello {name},',
    intro: 'Your session at {branch} ({location}) starts soon. The door code is:',
    valid: 'The code opens the door from {from} to {until} ({zone}).',
    bookings: 'Bookings:',
    zone: "Times are the branch's local time ({zone}).",
    keep: 'Please do not share this code. Have a good workout!',
    manage: 'Your bookings: {url}',
    help: 'If the door does not open with this code, call {phone}.',
    helpNoPhone: 'If the door does not open with this code, reply to this message: we have been alerted.',
    helpSms: 'If the door does not open, call {phone}.',
    sms: '{brand}: door code {code} for {branch}, valid {from} to {until} ({zone}).',
  },
  fr: {
    subject: 'Votre code d’accès : {branch}',
    greeting: 'Bonjour {name},',
    intro: 'Votre séance à {branch} ({location}) commence bientôt. Le code de la porte est :',
    valid: 'Le code ouvre la porte de {from} à {until} ({zone}).',
    bookings: 'Réservations :',
    zone: 'Heures locales de la salle ({zone}).',
    keep: 'Ne partagez pas ce code. Bonne séance !',
    manage: 'Vos réservations : {url}',
    help: 'Si la porte ne s’ouvre pas avec ce code, appelez le {phone}.',
    helpNoPhone: 'Si la porte ne s’ouvre pas avec ce code, répondez à ce message : nous avons été prévenus.',
    helpSms: 'Si la porte ne s’ouvre pas, appelez le {phone}.',
    sms: '{brand} : code de la porte {code} pour {branch}, valable de {from} à {until} ({zone}).',
  },
  de: {
    subject: 'Ihr Zugangscode: {branch}',
    greeting: 'Hallo {name},',
    intro: 'Ihre Einheit in {branch} ({location}) beginnt bald. Der Türcode lautet:',
    valid: 'Der Code öffnet die Tür von {from} bis {until} ({zone}).',
    bookings: 'Buchungen:',
    zone: 'Zeiten in der Ortszeit des Standorts ({zone}).',
    keep: 'Bitte geben Sie diesen Code nicht weiter. Gutes Training!',
    manage: 'Ihre Buchungen: {url}',
    help: 'Falls sich die Tür mit diesem Code nicht öffnet, rufen Sie {phone} an.',
    helpNoPhone:
      'Falls sich die Tür mit diesem Code nicht öffnet, antworten Sie auf diese Nachricht: Wir sind bereits informiert.',
    helpSms: 'Falls die Tür nicht öffnet: {phone}.',
    sms: '{brand}: Türcode {code} für {branch}, gültig von {from} bis {until} ({zone}).',
  },
  sk: {
    subject: 'Váš prístupový kód: {branch}',
    greeting: 'Dobrý deň, {name},',
    intro: 'Váš tréning v {branch} ({location}) sa čoskoro začína. Kód od dverí je:',
    valid: 'Kód otvára dvere od {from} do {until} ({zone}).',
    bookings: 'Rezervácie:',
    zone: 'Časy sú v miestnom čase pobočky ({zone}).',
    keep: 'Tento kód s nikým nezdieľajte. Príjemný tréning!',
    manage: 'Vaše rezervácie: {url}',
    help: 'Ak sa dvere s týmto kódom neotvoria, zavolajte na {phone}.',
    helpNoPhone: 'Ak sa dvere s týmto kódom neotvoria, odpovedzte na túto správu: už o tom vieme.',
    helpSms: 'Ak sa dvere neotvoria, volajte {phone}.',
    sms: '{brand}: kód od dverí {code} pre {branch}, platí od {from} do {until} ({zone}).',
  },
} as const satisfies Record<Locale, Record<string, string>>;

/** '10:00' on the booking's day, or the full day and time when the window spills into another day. */
function windowText(input: AccessCodeInput): { from: string; until: string } {
  const { locale, branch } = input;
  const day = (instant: Temporal.Instant) => formatLocalDay(locale, branch.timeZone, instant);
  const clock = (instant: Temporal.Instant) => formatLocalClock(locale, branch.timeZone, instant);
  const sameDay = day(input.validFrom) === day(input.validUntil);
  return {
    from: `${day(input.validFrom)}, ${clock(input.validFrom)}`,
    until: sameDay ? clock(input.validUntil) : `${day(input.validUntil)}, ${clock(input.validUntil)}`,
  };
}

export function accessCodeMessage(input: AccessCodeInput, brand: string): AccessCodeMessage {
  const texts = TEXTS[input.locale];
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
  const greeting = format(texts.greeting, params);
  const intro = format(texts.intro, params);
  const valid = format(texts.valid, params);
  const zone = format(texts.zone, params);
  const manage = format(texts.manage, { url: accountUrl });
  const help = input.help
    ? input.help.phone
      ? format(texts.help, { phone: input.help.phone })
      : texts.helpNoPhone
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
    texts.bookings,
    ...slots.map((slot) => `- ${slot}`),
    zone,
    '',
    texts.keep,
    manage,
    '',
  ].join('\n');
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<p style="font-size:28px;font-weight:700;letter-spacing:6px">${escapeHtml(input.code)}</p>`,
    `<p>${escapeHtml(valid)}</p>`,
    ...(help ? [`<p><strong>${escapeHtml(help)}</strong></p>`] : []),
    `<p>${escapeHtml(texts.bookings)}</p>`,
    `<ul>${slots.map((slot) => `<li>${escapeHtml(slot)}</li>`).join('')}</ul>`,
    `<p>${escapeHtml(zone)}</p>`,
    `<p>${escapeHtml(texts.keep)}</p>`,
    `<p><a href="${escapeHtml(accountUrl)}">${escapeHtml(manage)}</a></p>`,
  ].join('\n');
  return {
    subject: format(texts.subject, params),
    text,
    html,
    sms: [
      format(texts.sms, params),
      ...(input.help?.phone ? [format(texts.helpSms, { phone: input.help.phone })] : []),
    ].join(' '),
  };
}
