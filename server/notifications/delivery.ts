import type { FastifyBaseLogger } from 'fastify';
import { createLogMailer } from '../adapters/mail/log.ts';
import type { Mailer } from '../adapters/mail/mailer.ts';
import { createSmtpMailer } from '../adapters/mail/smtp.ts';
import { createLogSmsProvider } from '../adapters/sms/log.ts';
import type { SmsProvider } from '../adapters/sms/provider.ts';
import { createTwilioSmsProvider } from '../adapters/sms/twilio.ts';
import type { Config } from '../config.ts';

/** The e-mail and SMS adapters the configuration asks for. */
export function createDeliveryAdapters(
  config: Config,
  log: FastifyBaseLogger,
): { mailer: Mailer; sms: SmsProvider } {
  // Message texts (with verification codes, never reset tokens) reach the log only in development.
  const showContent = config.env === 'development';
  const mailer = config.mail.smtpUrl
    ? createSmtpMailer({ url: config.mail.smtpUrl, from: config.mail.from, timeouts: config.mail.timeouts })
    : createLogMailer(log, { showContent });
  const sms =
    config.sms.provider === 'twilio'
      ? createTwilioSmsProvider(config.sms)
      : createLogSmsProvider(log, { showContent });
  return { mailer, sms };
}
