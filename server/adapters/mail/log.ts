import type { FastifyBaseLogger } from 'fastify';
import { logUndelivered } from '../delivery.ts';
import type { Mailer } from './mailer.ts';

/**
 * No SMTP server configured: the e-mail stays in the outbox (status `logged`) and is printed to the log.
 * In development the text is printed too, so a developer sees codes without opening the outbox; reset links
 * are redacted even there. Elsewhere only who and what, never the content.
 */
export function createLogMailer(log: FastifyBaseLogger, options: { showContent: boolean }): Mailer {
  return {
    name: 'log',
    send: async (email) =>
      logUndelivered(log, email, options, 'e-mail not delivered (SMTP_URL is not set); kept in the outbox'),
    close: async () => {},
  };
}
