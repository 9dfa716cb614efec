import type { FastifyBaseLogger } from 'fastify';
import { insertOutboxMessage } from '../kernel/outbox.ts';
import type { Db } from '../db/database.ts';
import { type Locale, type Message, translator } from '../kernel/i18n.ts';
import { findOnCall } from './control-repository.ts';

// Alerts for the operator: through the outbox (with retries, once per dedupe key) to the branch's on-call e-mail
// and phone (SMS), set in the console (issue 32); a branch without an on-call e-mail falls back to
// OPERATOR_EMAIL. An error line in the log too, which is all there is when no address is configured.

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
      branchId: number;
      branch: string;
      start: Date;
      doors: string[];
      problem: string;
    },
    now: Date,
  ): Promise<void>;
  deviceEvent(
    trx: Db,
    alert: {
      eventId: string;
      deviceId: string;
      branchId: number | null;
      branch: string;
      eventType: string;
      at: Date;
    },
    now: Date,
  ): Promise<void>;
};

export function createOperatorAlerts(deps: {
  operatorEmail: string | null;
  locale: Locale;
  log: FastifyBaseLogger;
}): OperatorAlerts {
  const t = translator(deps.locale);
  /**
   * The alert to the branch's on-call e-mail (else OPERATOR_EMAIL) and phone, its subject and text in the
   * operator's language, once per `dedupeKey`.
   */
  async function send(
    trx: Db,
    branchId: number | null,
    alert: { subject: Message; text: Message; params: Record<string, string | number> },
    dedupeKey: string,
    now: Date,
  ) {
    const onCall = branchId === null ? undefined : await findOnCall(trx, branchId);
    const email = onCall?.on_call_email ?? deps.operatorEmail;
    const phone = onCall?.on_call_phone ?? null;
    const subject = t(alert.subject, alert.params);
    const text = t(alert.text, alert.params);
    const common = { locale: deps.locale, kind: 'operator_alert', created_at: now, next_attempt_at: now };
    if (email) {
      await insertOutboxMessage(trx, {
        ...common,
        channel: 'email',
        recipient: email,
        subject,
        text_body: `${text}\n`,
        html_body: null,
        dedupe_key: dedupeKey,
      });
    }
    if (phone) {
      await insertOutboxMessage(trx, {
        ...common,
        channel: 'sms',
        recipient: phone,
        subject: null,
        text_body: subject,
        html_body: null,
        dedupe_key: `${dedupeKey}:sms`,
      });
    }
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
        alert.branchId,
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
        alert.branchId,
        { subject: TEXTS.deviceSubject, text: TEXTS.device, params },
        `operator_alert:device:${alert.eventId}`,
        now,
      );
    },
  };
}
