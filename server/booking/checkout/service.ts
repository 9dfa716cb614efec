import { randomBytes, randomInt } from 'node:crypto';
import { LOCAL_TEST_CARDS, newLocalId } from '../../adapters/payments/local.ts';
import type { PaymentEvent, ProviderSession } from '../../adapters/payments/provider.ts';
import { formatLocalTime } from '../../catalog/index.ts';
import * as bookingRepository from '../repository.ts';
import { centsToEuros } from '../../kernel/money.ts';
import { providerUnavailable } from '../held-checkout.ts';
import { checkoutReturnUrl } from '../service.ts';
import { dateFromInstant, instantFromDate, type Clock } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import { runTransaction } from '../../kernel/transactions.ts';
import { AppError } from '../../kernel/errors.ts';
import type { Locale } from '../../kernel/i18n.ts';
import {
  applySessionOutcome,
  refundOrUnavailable,
  outcomeOfSession,
  type FulfilmentDependencies,
  type SessionOutcome,
} from './fulfilment.ts';
import { localCheckoutPolicy, renderLocalCheckoutPage } from './local-page.ts';
import { awaitingPaymentOf } from './awaiting-payment.ts';
import * as repository from './repository.ts';
import { packSessionStatus } from '../wallet/purchase.ts';
import { voucherSessionStatus } from '../wallet/vouchers.ts';
import { findMoveBySession } from '../moves-repository.ts';
import type { components } from '../../../openapi/schema.gen.ts';

type Schemas = components['schemas'];

/** A Portuguese mobile number, as MB WAY needs: 9 digits starting with 9, optionally after +351. */
function isPortugueseMobile(phone: string): boolean {
  return /^(?:\+?351)?9\d{8}$/.test(phone.replace(/\s/g, ''));
}

/** Nine digits, as a Multibanco reference has. */
function randomVoucherReference(): string {
  return String(randomInt(0, 1_000_000_000)).padStart(9, '0');
}

export type CheckoutServiceDependencies = FulfilmentDependencies & { db: Db; clock: Clock };

/** What each checkout event means; any other event is recorded and otherwise ignored. */
function outcomeOfEvent(event: PaymentEvent): SessionOutcome | null {
  if (!event.session) return null;
  switch (event.type) {
    case 'checkout.session.completed':
      return outcomeOfSession({ status: 'complete', paymentStatus: event.session.paymentStatus });
    case 'checkout.session.async_payment_succeeded':
      return 'paid';
    case 'checkout.session.async_payment_failed':
      return 'failed';
    case 'checkout.session.expired':
      return 'expired';
    default:
      return null;
  }
}

/** The operator's list of payments (`npm run admin -- payments list`), with what was refunded. */
export async function listPayments(db: Db, filter: repository.PaymentFilter) {
  return repository.listPayments(db, filter);
}

/** How long a local Multibanco voucher can be paid, as Stripe's by default. */
export const LOCAL_VOUCHER_DAYS = 7;
/** The entity of the local provider's simulated vouchers. */
export const LOCAL_VOUCHER_ENTITY = '12345';

export function createCheckoutService(deps: CheckoutServiceDependencies) {
  const { db, clock } = deps;

  /** A payment for a session this database does not know (its booking transaction failed after the provider call). */
  async function refundOrphanPayment(session: ProviderSession): Promise<void> {
    if (!session.paymentIntentId || session.amountCents <= 0) return;
    await refundOrUnavailable(deps, {
      sessionId: session.id,
      paymentIntentId: session.paymentIntentId,
      amountCents: session.amountCents,
      idempotencyKey: `orphan-payment-refund-${session.id}`,
      metadata: { reason: 'unknown_checkout_session' },
    });
  }

  /** What the payment result shows: the session's state and what it booked (or refunded), in each branch's zone. */
  async function sessionStatus(sessionId: string): Promise<Schemas['CheckoutSessionStatus']> {
    const current = (await repository.findSession(db, sessionId))!;
    const now = dateFromInstant(clock.now());
    if (current.credit_pack_id !== null || current.gift_voucher_id !== null) {
      return {
        status: current.status,
        clientSecret: current.status === 'open' ? current.client_secret : null,
        ...(current.credit_pack_id !== null
          ? await packSessionStatus(db, current, now)
          : await voucherSessionStatus(db, current, now)),
        bookings: [],
      };
    }
    const bookings = await repository.listSessionBookings(db, sessionId);
    const move = await findMoveBySession(db, sessionId);
    const awaiting = awaitingPaymentOf(current, bookings, now);
    return {
      status: current.status,
      clientSecret: current.status === 'open' ? current.client_secret : null,
      ...(awaiting ? { awaiting_payment: awaiting } : {}),
      ...(move ? { move_price_difference_eur: centsToEuros(move.difference_cents) } : {}),
      bookings: bookings.map((booking) => ({
        id: booking.id,
        start_time: formatLocalTime(instantFromDate(booking.start_time), booking.time_zone),
        end_time: formatLocalTime(instantFromDate(booking.end_time), booking.time_zone),
        branch_name: booking.branch_name,
        time_zone: booking.time_zone,
        // A hold whose time is up holds nothing, whether or not the expiry job has run yet.
        status:
          booking.status === 'pending' && (booking.hold_expires_at === null || booking.hold_expires_at <= now)
            ? 'expired'
            : booking.status,
        refunded_eur: centsToEuros(Number(booking.refunded_cents ?? 0)),
      })),
    };
  }

  async function handleEvent(event: PaymentEvent): Promise<'processed' | 'duplicate'> {
    const now = dateFromInstant(clock.now());
    // Run again after a deadlock, the refunds it may ask the provider for are safe: each has a key of its own
    // (a late payment's per booking, an orphan payment's per session), so a repeated call is answered, not paid.
    const retried = { name: 'handlePaymentEvent', log: deps.log };
    return runTransaction(db, retried, async (trx) => {
      const fresh = await repository.recordPaymentEvent(trx, {
        id: event.id,
        provider: deps.payments.name,
        type: event.type,
        payload: event.payload,
      });
      if (!fresh) return 'duplicate';
      const outcome = outcomeOfEvent(event);
      if (outcome && event.session) {
        const applied = await applySessionOutcome(trx, deps, event.session, outcome, now);
        if (applied === 'unknown_session' && outcome === 'paid') await refundOrphanPayment(event.session);
      }
      await repository.markPaymentEventProcessed(trx, event.id, now);
      return 'processed';
    });
  }

  /**
   * Stripe's `checkout.session.completed` for a Multibanco or MB WAY payment names neither the method nor the
   * voucher (they are on the payment intent): the session is read back from the provider first, outside any
   * transaction. When it cannot be, the webhook hears 503 and Stripe delivers the event again.
   */
  async function withAsyncPaymentDetails(event: PaymentEvent): Promise<PaymentEvent> {
    if (!event.session || outcomeOfEvent(event) !== 'awaiting_payment') return event;
    if (event.session.paymentMethod || event.session.voucher) return event;
    let remote: ProviderSession | null;
    try {
      remote = await deps.payments.retrieveSession(event.session.id);
    } catch (error) {
      throw providerUnavailable(error);
    }
    if (!remote) return event;
    return {
      ...event,
      session: { ...event.session, paymentMethod: remote.paymentMethod, voucher: remote.voucher },
    };
  }

  async function requireLocalSession(sessionId: string): Promise<repository.CheckoutSessionRow> {
    if (deps.payments.name !== 'local') throw new AppError('checkout_session_not_found');
    const session = await repository.findSession(db, sessionId);
    if (!session || session.provider !== 'local') throw new AppError('checkout_session_not_found');
    return session;
  }

  function localEvent(
    session: repository.CheckoutSessionRow,
    type: string,
    changes: Partial<ProviderSession>,
  ): PaymentEvent {
    const object: ProviderSession = {
      id: session.id,
      clientSecret: null,
      status: session.status,
      paymentStatus: session.payment_status,
      paymentIntentId: session.payment_intent_id,
      amountCents: session.amount_cents,
      expiresAt: instantFromDate(session.expires_at),
      ...changes,
    };
    const id = newLocalId('evt_local');
    return {
      id,
      type,
      session: object,
      payload: {
        id,
        type,
        data: { object: { ...object, clientSecret: undefined, expiresAt: object.expiresAt.toString() } },
      },
    };
  }

  return {
    handleEvent,

    /** `POST /checkout/webhook`: verifies the signature on the raw body (400 and no change when it fails). */
    async receiveWebhook(
      rawBody: Buffer | string,
      signature: string | undefined,
    ): Promise<Schemas['WebhookReceived']> {
      const event = deps.payments.verifyWebhook(rawBody, signature);
      if (event.malformed) {
        // Kept for the record (what the provider sent, when), never acted on; the same event again changes nothing.
        await runTransaction(db, { name: 'recordMalformedEvent', log: deps.log }, async (trx) => {
          if (
            await repository.recordPaymentEvent(trx, {
              id: event.id,
              provider: deps.payments.name,
              type: event.type,
              payload: event.payload,
            })
          ) {
            await repository.markPaymentEventProcessed(trx, event.id, dateFromInstant(clock.now()));
          }
        });
        throw new AppError('invalid_webhook_event');
      }
      await handleEvent(await withAsyncPaymentDetails(event));
      return { received: true };
    },

    /**
     * `GET /checkout/session-status`: the session's status, after asking the provider and applying what it says
     * (exactly once, like the webhook), so a missed or late webhook never leaves a paid booking unconfirmed.
     * `userId` makes it owner-only; another user's session is "not found".
     */
    async reconcileSession({
      sessionId,
      userId,
    }: {
      sessionId: string;
      userId?: string;
    }): Promise<Schemas['CheckoutSessionStatus']> {
      const stored = await repository.findSession(db, sessionId);
      if (!stored || (userId !== undefined && stored.user_id !== userId)) {
        throw new AppError('checkout_session_not_found');
      }
      const settled =
        stored.status === 'expired' || (stored.status === 'complete' && stored.payment_status !== 'unpaid');
      if (!settled && stored.provider === deps.payments.name) {
        let remote: ProviderSession | null;
        try {
          remote = await deps.payments.retrieveSession(sessionId);
        } catch (error) {
          throw providerUnavailable(error);
        }
        const outcome = remote ? outcomeOfSession(remote) : null;
        if (remote && outcome) {
          const now = dateFromInstant(clock.now());
          // Safe to run again after a deadlock as handleEvent is: any refund it asks for is keyed.
          await runTransaction(db, { name: 'reconcileSession', log: deps.log }, (trx) =>
            applySessionOutcome(trx, deps, remote, outcome, now),
          );
        }
      }
      return sessionStatus(sessionId);
    },

    /** `GET /checkout/local/{session_id}`: the test card page and the CSP it must be served with. */
    async localCheckoutPage({ sessionId, locale }: { sessionId: string; locale: Locale | null }) {
      const session = await requireLocalSession(sessionId);
      const nonce = randomBytes(16).toString('base64');
      const open = session.status === 'open' && session.expires_at > dateFromInstant(clock.now());
      return {
        html: renderLocalCheckoutPage({
          locale: locale ?? session.locale,
          nonce,
          amountCents: session.amount_cents,
          open,
          multibanco: session.multibanco_allowed,
        }),
        contentSecurityPolicy: localCheckoutPolicy(nonce),
      };
    },

    /**
     * `POST /checkout/local/{session_id}/complete`: the test card 4242... pays the session through the same event
     * handling as Stripe's `checkout.session.completed`; any other card is declined and the session stays open.
     * A session that is not open any more is a 409 (an overdue one is expired on the way).
     */
    async completeLocalCheckout({
      sessionId,
      method = 'card',
      cardNumber,
      mbWayPhone,
      mbWayResponse,
    }: {
      sessionId: string;
      method?: 'card' | 'mb_way' | 'multibanco';
      cardNumber?: string;
      mbWayPhone?: string;
      mbWayResponse?: 'approve' | 'time_out';
    }): Promise<Schemas['LocalCheckoutCompleteResponse']> {
      const session = await requireLocalSession(sessionId);
      const returnUrl = checkoutReturnUrl(deps.publicUrl, session.locale, session.id, session.booking_date);
      if (session.status === 'open' && session.expires_at <= dateFromInstant(clock.now())) {
        await handleEvent(localEvent(session, 'checkout.session.expired', { status: 'expired' }));
        throw new AppError('checkout_session_closed');
      }
      if (session.status !== 'open') throw new AppError('checkout_session_closed');
      // Multibanco on a checkout that does not offer it (the first slot too soon) is refused as Stripe would.
      const declined =
        method === 'card'
          ? (cardNumber ?? '').replace(/[\s-]/g, '') !== LOCAL_TEST_CARDS.success
          : method === 'mb_way'
            ? !isPortugueseMobile(mbWayPhone ?? '') || mbWayResponse !== 'approve'
            : !session.multibanco_allowed;
      // A refused card, or an MB WAY request the phone never approved: Stripe's checkout stays open for another try.
      if (declined) return { status: 'open', outcome: 'declined', return_url: returnUrl };
      // The card is charged only while the session is still open, decided with its row locked: the expiry
      // sweep and any other completion (another tab, another process) wait for the same lock, so one payment
      // wins and the others, like a payment after the hold ended, are refused before anything is charged.
      const now = dateFromInstant(clock.now());
      // Run again after a deadlock: the local provider keeps nothing outside this database, so a try that rolled
      // back left no event, no payment and no booking change behind.
      await runTransaction(db, { name: 'completeLocalCheckout', log: deps.log }, async (trx) => {
        const locked = await repository.lockSession(trx, session.id);
        if (!locked || locked.status !== 'open' || locked.expires_at <= now) {
          throw new AppError('checkout_session_closed');
        }
        const event = localEvent(
          locked,
          'checkout.session.completed',
          method === 'multibanco'
            ? {
                // Stripe completes a Multibanco checkout unpaid, with the voucher on its payment intent.
                status: 'complete',
                paymentStatus: 'unpaid',
                paymentIntentId: newLocalId('pi_local'),
                paymentMethod: 'multibanco',
                voucher: {
                  entity: LOCAL_VOUCHER_ENTITY,
                  reference: randomVoucherReference(),
                  expiresAt: clock.now().add({ hours: LOCAL_VOUCHER_DAYS * 24 }),
                  url: null,
                },
              }
            : {
                status: 'complete',
                paymentStatus: 'paid',
                paymentIntentId: newLocalId('pi_local'),
                paymentMethod: method,
                // The one card the local form takes, a Visa test number: refund messages can name it.
                card: method === 'card' ? { brand: 'visa', last4: LOCAL_TEST_CARDS.success.slice(-4) } : null,
              },
        );
        await repository.recordPaymentEvent(trx, {
          id: event.id,
          provider: deps.payments.name,
          type: event.type,
          payload: event.payload,
        });
        await applySessionOutcome(
          trx,
          deps,
          event.session!,
          method === 'multibanco' ? 'awaiting_payment' : 'paid',
          now,
        );
        await repository.markPaymentEventProcessed(trx, event.id, now);
      });
      if (method === 'multibanco')
        return { status: 'complete', outcome: 'awaiting_payment', return_url: returnUrl };
      return { status: 'complete', outcome: 'paid', return_url: returnUrl };
    },

    /**
     * Development only (`POST /dev/checkout/{id}/expire`): ends an open local session now, by the same event the
     * hold-expiry job feeds when its time is up. A session that is no longer open is left as it is.
     */
    async expireLocalSessionNow(sessionId: string): Promise<Schemas['CheckoutSessionStatus']> {
      const session = await requireLocalSession(sessionId);
      if (session.status === 'open') {
        await handleEvent(localEvent(session, 'checkout.session.expired', { status: 'expired' }));
      }
      return sessionStatus(sessionId);
    },

    /**
     * Development only (`POST /dev/checkout/{id}/pay-late`): a bank payment arriving after the hold ended, as
     * Stripe reports one (`async_payment_succeeded` on an expired session), through the same event handling:
     * the open session is expired first, then the payment is refunded and the member told.
     */
    async payLocalSessionLate(sessionId: string): Promise<Schemas['CheckoutSessionStatus']> {
      let session = await requireLocalSession(sessionId);
      if (session.status === 'open') {
        await handleEvent(localEvent(session, 'checkout.session.expired', { status: 'expired' }));
        session = await requireLocalSession(sessionId);
      }
      if (session.status === 'expired') {
        await handleEvent(
          localEvent(session, 'checkout.session.async_payment_succeeded', {
            status: 'complete',
            paymentStatus: 'paid',
            paymentIntentId: newLocalId('pi_local'),
            card: { brand: 'visa', last4: LOCAL_TEST_CARDS.success.slice(-4) },
          }),
        );
      }
      return sessionStatus(sessionId);
    },

    /**
     * Development only (`POST /dev/checkout/{id}/pay-voucher`): the money of the session's Multibanco voucher
     * arrives, as Stripe reports it (`async_payment_succeeded`), through the same event handling: held bookings
     * are confirmed, released ones refunded. A session without an unpaid voucher is left as it is.
     */
    async payLocalVoucher(sessionId: string): Promise<Schemas['CheckoutSessionStatus']> {
      const session = await requireLocalSession(sessionId);
      if (
        session.status === 'complete' &&
        session.payment_status === 'unpaid' &&
        session.payment_method === 'multibanco'
      ) {
        await handleEvent(
          localEvent(session, 'checkout.session.async_payment_succeeded', {
            status: 'complete',
            paymentStatus: 'paid',
            paymentMethod: 'multibanco',
          }),
        );
      }
      return sessionStatus(sessionId);
    },

    /**
     * For the hold-expiry job: expires overdue local sessions (Stripe expires its own and tells the webhook) and
     * releases every hold whose time is up. Answers how many sessions it expired.
     */
    async expireOverdueSessions(limit = 100): Promise<number> {
      const now = dateFromInstant(clock.now());
      const overdue = await repository.listOverdueOpenSessions(db, now, limit);
      let expired = 0;
      for (const session of overdue) {
        if (session.provider !== 'local' || deps.payments.name !== 'local') continue;
        await handleEvent(localEvent(session, 'checkout.session.expired', { status: 'expired' }));
        expired += 1;
      }
      await runTransaction(db, { name: 'releaseAllStaleHolds', log: deps.log }, (trx) =>
        bookingRepository.releaseAllStaleHolds(trx, now),
      );
      return expired;
    },
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
