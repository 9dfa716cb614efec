import type { FastifyBaseLogger } from 'fastify';
import { isConfidential, maskRecipient, redactSecrets } from '../delivery.ts';
import type { SmsProvider } from './provider.ts';

/** No SMS provider configured: the SMS stays in the outbox (status `logged`) and is printed to the log. */
export function createLogSmsProvider(log: FastifyBaseLogger, options: { showContent: boolean }): SmsProvider {
  return {
    name: 'log',
    send: async (sms) => {
      const showContent = options.showContent && !isConfidential(sms.kind);
      log.info(
        {
          outboxId: sms.id,
          kind: sms.kind,
          to: showContent ? sms.to : maskRecipient(sms.to),
          ...(showContent ? { text: redactSecrets(sms.text) } : {}),
        },
        'SMS not delivered (no SMS provider configured); kept in the outbox',
      );
      return 'logged';
    },
  };
}
