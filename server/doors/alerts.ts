import type { FastifyBaseLogger } from 'fastify';
import { insertOutboxMessage } from '../kernel/outbox.ts';
import type { Db } from '../db/database.ts';
import { format, type Locale } from '../kernel/i18n.ts';

// Alerts for the operator: an e-mail to OPERATOR_EMAIL through the outbox (with retries, once per dedupe key)
// and an error line in the log, which is all there is when no address is configured.

const TEXTS = {
  pt: {
    codeSubject: 'Código de porta não confirmado: {branch}',
    code: 'O código da reserva {bookings} em {branch} (início {start}) não foi confirmado pela(s) porta(s) {doors}: {problem}. O cliente recebeu o código com o número de apoio; confirme a porta ou abra-a à distância.',
    deviceSubject: 'Porta {device} ({branch}): {event}',
    device: 'A porta {device} da filial {branch} comunicou {event} às {at}.',
  },
  en: {
    codeSubject: 'Door code not confirmed: {branch}',
    code: 'The code of booking {bookings} at {branch} (starts {start}) was not confirmed by door(s) {doors}: {problem}. The member was sent the code with the help line; check the door or open it remotely.',
    deviceSubject: 'Door {device} ({branch}): {event}',
    device: 'Door {device} of branch {branch} reported {event} at {at}.',
  },
  fr: {
    codeSubject: 'Code de porte non confirmé : {branch}',
    code: 'Le code de la réservation {bookings} à {branch} (début {start}) n’a pas été confirmé par la ou les portes {doors} : {problem}. Le client a reçu le code avec le numéro d’assistance ; vérifiez la porte ou ouvrez-la à distance.',
    deviceSubject: 'Porte {device} ({branch}) : {event}',
    device: 'La porte {device} de la salle {branch} a signalé {event} à {at}.',
  },
  de: {
    codeSubject: 'Türcode nicht bestätigt: {branch}',
    code: 'Der Code der Buchung {bookings} in {branch} (Beginn {start}) wurde von Tür(en) {doors} nicht bestätigt: {problem}. Der Kunde hat den Code mit der Hilfenummer erhalten; prüfen Sie die Tür oder öffnen Sie sie aus der Ferne.',
    deviceSubject: 'Tür {device} ({branch}): {event}',
    device: 'Tür {device} des Standorts {branch} meldete {event} um {at}.',
  },
  sk: {
    codeSubject: 'Kód od dverí nie je potvrdený: {branch}',
    code: 'Kód rezervácie {bookings} v {branch} (začiatok {start}) nepotvrdili dvere {doors}: {problem}. Zákazník dostal kód s číslom podpory; skontrolujte dvere alebo ich otvorte na diaľku.',
    deviceSubject: 'Dvere {device} ({branch}): {event}',
    device: 'Dvere {device} pobočky {branch} hlásili {event} o {at}.',
  },
} as const satisfies Record<Locale, Record<string, string>>;

export type OperatorAlerts = {
  codeNotConfirmed(
    trx: Db,
    alert: {
      lockCodeId: number;
      bookingIds: number[];
      branch: string;
      start: Date;
      doors: string[];
      problem: string;
    },
    now: Date,
  ): Promise<void>;
  deviceEvent(
    trx: Db,
    alert: { eventId: string; deviceId: string; branch: string; eventType: string; at: Date },
    now: Date,
  ): Promise<void>;
};

export function createOperatorAlerts(deps: {
  operatorEmail: string | null;
  locale: Locale;
  log: FastifyBaseLogger;
}): OperatorAlerts {
  const texts = TEXTS[deps.locale];
  /** The alert's e-mail to the operator, its subject and text in the operator's language, once per `dedupeKey`. */
  async function send(
    trx: Db,
    alert: { subject: string; text: string; params: Record<string, string> },
    dedupeKey: string,
    now: Date,
  ) {
    if (!deps.operatorEmail) return;
    const subject = format(alert.subject, alert.params);
    const text = format(alert.text, alert.params);
    await insertOutboxMessage(trx, {
      channel: 'email',
      recipient: deps.operatorEmail,
      locale: deps.locale,
      kind: 'operator_alert',
      subject,
      text_body: `${text}\n`,
      html_body: null,
      dedupe_key: dedupeKey,
      created_at: now,
      next_attempt_at: now,
    });
  }
  return {
    async codeNotConfirmed(trx, alert, now) {
      deps.log.error(
        {
          lockCodeId: alert.lockCodeId,
          bookingIds: alert.bookingIds,
          doors: alert.doors,
          problem: alert.problem,
        },
        'door code not confirmed by its doors before the start: operator alerted',
      );
      const params = {
        branch: alert.branch,
        bookings: alert.bookingIds.join(', '),
        start: alert.start.toISOString(),
        doors: alert.doors.join(', '),
        problem: alert.problem,
      };
      await send(
        trx,
        { subject: texts.codeSubject, text: texts.code, params },
        `operator_alert:code:${alert.lockCodeId}`,
        now,
      );
    },
    async deviceEvent(trx, alert, now) {
      deps.log.warn(
        { deviceId: alert.deviceId, eventType: alert.eventType },
        'door device event: operator alerted',
      );
      const params = {
        device: alert.deviceId,
        branch: alert.branch,
        event: alert.eventType,
        at: alert.at.toISOString(),
      };
      await send(
        trx,
        { subject: texts.deviceSubject, text: texts.device, params },
        `operator_alert:device:${alert.eventId}`,
        now,
      );
    },
  };
}
