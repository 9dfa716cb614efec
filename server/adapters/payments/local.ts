import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { instantFromDate, type Clock } from '../../kernel/clock.ts';
import { AppError } from '../../kernel/errors.ts';
import type { PaymentProvider, ProviderSession } from './provider.ts';

// The `local` provider: an offline stand-in for Stripe. Its sessions are the rows of `checkout_sessions`
// (the booking service writes them); paying one on the local checkout page drives the same events as
// Stripe's webhooks would.

export const LOCAL_TEST_CARDS = {
  /** Pays. */
  success: '4242424242424242',
  /** Is declined; the session stays open for another try. */
  declined: '4000000000000002',
} as const;

function token(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

export function newLocalId(prefix: 'cs_local' | 're_local' | 'evt_local' | 'pi_local'): string {
  return `${prefix}_${token(12)}`;
}

export function createLocalPaymentProvider({ db, clock }: { db: Db; clock: Clock }): PaymentProvider {
  return {
    name: 'local',

    async createCheckoutSession(input) {
      const id = newLocalId('cs_local');
      return {
        id,
        clientSecret: `${id}_secret_${token(16)}`,
        status: 'open',
        paymentStatus: 'unpaid',
        paymentIntentId: null,
        amountCents: input.amountCents,
        expiresAt: input.expiresAt,
      };
    },

    async retrieveSession(sessionId) {
      const row = await db
        .selectFrom('checkout_sessions')
        .selectAll()
        .where('id', '=', sessionId)
        .where('provider', '=', 'local')
        .executeTakeFirst();
      if (!row) return null;
      // Like Stripe, an open session is expired once its time is up, whoever notices first.
      const timedOut = row.status === 'open' && row.expires_at.getTime() <= clock.now().epochMilliseconds;
      const session: ProviderSession = {
        id: row.id,
        clientSecret: row.client_secret,
        status: timedOut ? 'expired' : row.status,
        paymentStatus: row.payment_status,
        paymentIntentId: row.payment_intent_id,
        amountCents: row.amount_cents,
        expiresAt: instantFromDate(row.expires_at),
      };
      return session;
    },

    async refund() {
      return { id: newLocalId('re_local'), status: 'succeeded' };
    },

    // Nothing signs events for the local provider: its events come from this server's own checkout page.
    verifyWebhook() {
      throw new AppError('invalid_webhook_signature');
    },
  };
}
