import type { Clock } from '../../kernel/clock.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { createLocalPaymentProvider } from './local.ts';
import type { PaymentProvider } from './provider.ts';
import { createStripePaymentProvider } from './stripe.ts';

/** The configured provider: Stripe when its keys are set, else the offline `local` one. */
export function createPaymentProvider(
  config: Config,
  { db, clock }: { db: Db; clock: Clock },
): PaymentProvider {
  return config.payments.provider === 'stripe'
    ? createStripePaymentProvider({
        secretKey: config.payments.secretKey,
        webhookSecret: config.payments.webhookSecret,
        apiUrl: config.payments.apiUrl,
        timeoutMs: config.payments.timeoutMs,
      })
    : createLocalPaymentProvider({ db, clock });
}
