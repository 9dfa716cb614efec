import type { FastifyBaseLogger } from 'fastify';
import { insertOutboxMessage } from '../kernel/outbox.ts';
import type { Db } from '../db/database.ts';
import { type Locale, type Message, translator } from '../kernel/i18n.ts';

// Alerts for the operator: an e-mail to OPERATOR_EMAIL through the outbox (with retries, once per dedupe key)
// and an error line in the log, which is all there is when no address is configured.

const TEXTS = {
  codeSubject: /*i18n*/ { id: 'alert.codeSubject', message: 'Código de porta não confirmado: {branch}' },
  code: /*i18n*/ {
    id: 'alert.code',
    message:
      'O código da reserva {bookings} em {branch} (início {start}) não foi confirmado pela(s) porta(s) {doors}: {problem}. O cliente recebeu o código com o número de apoio; confirme a porta ou abra-a à distância.',
  },
  deviceSubject: /*i18n*/ { id: 'alert.deviceSubject', message: 'Porta {device} ({branch}): {event}' },
  device: /*i18n*/ {
    id: 'alert.device',
    message: 'A porta {device} da filial {branch} comunicou {event} às {at}.',
  },
} as const satisfies Record<string, Message>;

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
  const t = translator(deps.locale);
  /** The alert's e-mail to the operator, its subject and text in the operator's language, once per `dedupeKey`. */
  async function send(
    trx: Db,
    alert: { subject: Message; text: Message; params: Record<string, string | number> },
    dedupeKey: string,
    now: Date,
  ) {
    if (!deps.operatorEmail) return;
    const subject = t(alert.subject, alert.params);
    const text = t(alert.text, alert.params);
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
        { subject: TEXTS.codeSubject, text: TEXTS.code, params },
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
        { subject: TEXTS.deviceSubject, text: TEXTS.device, params },
        `operator_alert:device:${alert.eventId}`,
        now,
      );
    },
  };
}
