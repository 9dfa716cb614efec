import type { FastifyBaseLogger } from 'fastify';
import { maskRecipient, redactSecrets } from '../delivery.ts';
import type { SmsProvider } from './provider.ts';

/** No SMS provider configured: the SMS stays in the outbox (status `logged`) and is printed to the log. */
export function createLogSmsProvider(log: FastifyBaseLogger, options: { showContent: boolean }): SmsProvider {
  return {
    name: 'log',
    send: async (sms) => {
      log.info(
        {
          outboxId: sms.id,
          kind: sms.kind,
          to: options.showContent ? sms.to : maskRecipient(sms.to),
          ...(options.showContent ? { text: redactSecrets(sms.text) } : {}),
        },
        'SMS not delivered (no SMS provider configured); kept in the outbox',
      );
      return 'logged';
    },
  };
}
