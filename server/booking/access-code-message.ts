import type { Temporal } from 'temporal-polyfill';
import { type Locale, type Message, translator } from '../kernel/i18n.ts';
import { CODE_STYLE, GREETING, LOCAL_TIMES } from '../kernel/email-layout.ts';
import { escapeHtml } from '../kernel/html.ts';
import type { ArrivalKit } from '../catalog/index.ts';
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
  /** The branch's arrival kit in the member's language (catalog/arrival.ts), when it has one. */
  arrival?: ArrivalKit | null;
  /**
   * A guest's own code (issue 31): the member who invited them, named in the introduction. The guest has no
   * account, so the message links to no booking list.
   */
  host?: string | null;
};

export type AccessCodeMessage = { subject: string; text: string; html: string; sms: string };

const TEXTS = {
  subject: /*i18n*/ { id: 'email.accessCode.subject', message: 'O seu código de acesso: {branch}' },
  intro: /*i18n*/ {
    id: 'email.accessCode.intro',
    message: 'A sua sessão em {branch} ({location}) começa em breve. O código da porta é:',
  },
  guestIntro: /*i18n*/ {
    id: 'email.accessCode.guestIntro',
    message:
      '{host} convidou-o para uma sessão em {branch} ({location}), que começa em breve. O seu código da porta é:',
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
  arrivalTitle: /*i18n*/ { id: 'email.accessCode.arrival.title', message: 'Como chegar e entrar' },
  photoAlt: /*i18n*/ { id: 'email.accessCode.arrival.photo', message: 'A entrada de {branch}' },
  directions: /*i18n*/ { id: 'email.accessCode.arrival.directions', message: 'A entrada' },
  keypad: /*i18n*/ { id: 'email.accessCode.arrival.keypad', message: 'O teclado e o código' },
  map: /*i18n*/ { id: 'email.accessCode.arrival.map', message: 'Ver no mapa: {url}' },
  mapLink: /*i18n*/ { id: 'email.accessCode.arrival.mapLink', message: 'Ver no mapa' },
  wifi: /*i18n*/ { id: 'email.accessCode.arrival.wifi', message: 'Wi-Fi: {network}' },
  wifiPassword: /*i18n*/ {
    id: 'email.accessCode.arrival.wifiPassword',
    message: 'Wi-Fi: {network}, palavra-passe {password}',
  },
  rules: /*i18n*/ { id: 'email.accessCode.arrival.rules', message: 'Regras da casa: {rules}' },
  helpLine: /*i18n*/ { id: 'email.accessCode.arrival.helpLine', message: 'Ajuda: {phone}' },
  smsArrival: /*i18n*/ { id: 'email.accessCode.smsArrival', message: 'Como entrar: {url}' },
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

/** A link the message may print: an absolute one as it is, a path on this site made absolute. */
function absolute(publicUrl: string, link: string): string {
  return link.startsWith('/') ? `${publicUrl}${link}` : link;
}

const paragraphs = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((part) => `<p>${escapeHtml(part.trim()).replace(/\n/g, '<br>')}</p>`)
    .join('\n');

/** The arrival kit's part of the message, as text lines and as HTML; nothing when the branch has none. */
function arrivalParts(input: AccessCodeInput): { text: string[]; html: string[] } {
  const kit = input.arrival;
  if (!kit) return { text: [], html: [] };
  const t = translator(input.locale);
  const text: string[] = ['', t(TEXTS.arrivalTitle).toUpperCase()];
  const html: string[] = [`<h2>${escapeHtml(t(TEXTS.arrivalTitle))}</h2>`];
  if (kit.entrance_photo_url) {
    const alt = t(TEXTS.photoAlt, { branch: input.branch.name });
    html.push(
      `<p><img src="${escapeHtml(absolute(input.publicUrl, kit.entrance_photo_url))}" alt="${escapeHtml(alt)}" width="512" style="display:block;width:100%;max-width:512px;height:auto;border-radius:8px"></p>`,
    );
  }
  for (const [title, body] of [
    [TEXTS.directions, kit.directions],
    [TEXTS.keypad, kit.keypad],
  ] as const) {
    if (!body) continue;
    text.push('', t(title), body);
    html.push(`<h3 style="margin:16px 0 4px">${escapeHtml(t(title))}</h3>`, paragraphs(body));
  }
  const facts: { text: string; html: string }[] = [];
  if (kit.map_url) {
    const url = absolute(input.publicUrl, kit.map_url);
    facts.push({
      text: t(TEXTS.map, { url }),
      html: `<a href="${escapeHtml(url)}">${escapeHtml(t(TEXTS.mapLink))}</a>`,
    });
  }
  if (kit.wifi_network) {
    const wifi = kit.wifi_password
      ? t(TEXTS.wifiPassword, { network: kit.wifi_network, password: kit.wifi_password })
      : t(TEXTS.wifi, { network: kit.wifi_network });
    facts.push({ text: wifi, html: escapeHtml(wifi) });
  }
  if (kit.rules) {
    const rules = t(TEXTS.rules, { rules: kit.rules });
    facts.push({ text: rules, html: escapeHtml(rules) });
  }
  if (kit.support_phone) {
    const phone = t(TEXTS.helpLine, { phone: kit.support_phone });
    const tel = `tel:${kit.support_phone.replace(/[^+0-9]/g, '')}`;
    facts.push({ text: phone, html: `<a href="${escapeHtml(tel)}">${escapeHtml(phone)}</a>` });
  }
  if (facts.length > 0) {
    text.push('', ...facts.map((fact) => fact.text));
    html.push(`<ul>${facts.map((fact) => `<li>${fact.html}</li>`).join('')}</ul>`);
  }
  return { text, html };
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
  const guest = Boolean(input.host);
  const intro = guest ? t(TEXTS.guestIntro, { ...params, host: input.host! }) : t(TEXTS.intro, params);
  const valid = t(TEXTS.valid, params);
  const zone = t(LOCAL_TIMES, params);
  const manage = t(TEXTS.manage, { url: accountUrl });
  const help = input.help
    ? input.help.phone
      ? t(TEXTS.help, { phone: input.help.phone })
      : t(TEXTS.helpNoPhone)
    : null;
  const arrival = arrivalParts(input);
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
    ...arrival.text,
    '',
    t(TEXTS.keep),
    ...(guest ? [] : [manage]),
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
    ...arrival.html,
    `<p>${escapeHtml(t(TEXTS.keep))}</p>`,
    ...(guest ? [] : [`<p><a href="${escapeHtml(accountUrl)}">${escapeHtml(manage)}</a></p>`]),
  ].join('\n');
  return {
    subject: t(TEXTS.subject, params),
    text,
    html,
    sms: [
      t(TEXTS.sms, params),
      ...(input.help?.phone ? [t(TEXTS.helpSms, { phone: input.help.phone })] : []),
      // The kit itself is too long for a text message: the link opens My bookings, where the code's card shows it.
      // A guest has no My bookings: their e-mail, when they gave one, carries the kit.
      ...(input.arrival && !guest ? [t(TEXTS.smsArrival, { url: accountUrl })] : []),
    ].join(' '),
  };
}
