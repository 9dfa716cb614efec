import type { FastifyBaseLogger } from 'fastify';
import { logUndelivered } from '../delivery.ts';
import type { SmsProvider } from './provider.ts';

/** No SMS provider configured: the SMS stays in the outbox (status `logged`) and is printed to the log. */
export function createLogSmsProvider(log: FastifyBaseLogger, options: { showContent: boolean }): SmsProvider {
  return {
    name: 'log',
    send: async (sms) =>
      logUndelivered(log, sms, options, 'SMS not delivered (no SMS provider configured); kept in the outbox'),
  };
}
