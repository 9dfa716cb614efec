import type { Temporal } from 'temporal-polyfill';
import { type Locale, type Message, translator } from '../kernel/i18n.ts';
import { GREETING, LOCAL_TIMES } from '../kernel/email-layout.ts';
import { escapeHtml } from '../kernel/html.ts';
import { describeSlotTime } from '../kernel/time-format.ts';
import type { AccessCodeMessage } from './access-code-message.ts';

// The word to a guest whose invitation ended after their door code was sent (removed from the booking, or the
// booking cancelled): the session it was for, and that the code they hold no longer opens the door. By e-mail and
// SMS, whichever the guest gave, in the member's language, as the code itself went.

export type GuestWithdrawalInput = {
  locale: Locale;
  /** The guest's name, as the member typed it. */
  guestName: string;
  /** The member who invited them, as the code's message named them. */
  host: string;
  branch: { name: string; timeZone: string };
  start: Temporal.Instant;
  end: Temporal.Instant;
};

const TEXTS = {
  subject: /*i18n*/ { id: 'email.guestWithdrawn.subject', message: 'Convite anulado: {branch}' },
  intro: /*i18n*/ {
    id: 'email.guestWithdrawn.intro',
    message: 'O seu convite de {host} para esta sessão em {branch} foi anulado:',
  },
  code: /*i18n*/ {
    id: 'email.guestWithdrawn.code',
    message: 'O código da porta que recebeu já não abre a porta.',
  },
  sms: /*i18n*/ {
    id: 'email.guestWithdrawn.sms',
    message:
      '{brand}: o seu convite de {host} para {when} em {branch} foi anulado; o código da porta que recebeu já não abre a porta.',
  },
} as const satisfies Record<string, Message>;

export function guestWithdrawalMessage(input: GuestWithdrawalInput, brand: string): AccessCodeMessage {
  const t = translator(input.locale);
  const when = describeSlotTime(input.locale, input.branch.timeZone, input.start, input.end);
  const params = {
    name: input.guestName,
    host: input.host,
    branch: input.branch.name,
    zone: input.branch.timeZone,
    when,
    brand,
  };
  const greeting = t(GREETING, params);
  const intro = t(TEXTS.intro, params);
  const zone = t(LOCAL_TIMES, params);
  const code = t(TEXTS.code);
  return {
    subject: t(TEXTS.subject, params),
    text: [greeting, '', intro, `- ${when}`, zone, '', code, ''].join('\n'),
    html: [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(intro)}</p>`,
      `<ul><li>${escapeHtml(when)}</li></ul>`,
      `<p>${escapeHtml(zone)}</p>`,
      `<p><strong>${escapeHtml(code)}</strong></p>`,
    ].join('\n'),
    sms: t(TEXTS.sms, params),
  };
}
