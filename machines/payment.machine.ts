import { assign, setup } from 'xstate';
import { placeholder } from './placeholder.ts';
import { hasErrorCode } from './api.ts';
import type { components } from '../openapi/schema.gen.ts';
import { withoutSessionChanges, type SessionChanged } from './session.changes.ts';
import { machineTypes } from './machine-types.ts';

/**
 * The return from the checkout (docs/decisions.md, 'Bookings and payments'): the status of `stripe_session_id` is checked and
 * shown; 'Try again' re-opens the checkout while the session is open; a check refused for this caller asks for a login
 * and checks again once logged in.
 */

export type SessionStatus = components['schemas']['CheckoutSessionStatus'];
export type PaymentInput = { sessionId: string };

export type SessionBooking = SessionStatus['bookings'][number];
/** The prepaid pack a checkout sells (issue 31). */
export type SessionCreditPack = NonNullable<SessionStatus['credit_pack']>;
/** The gift voucher a checkout sells (issue 31). */
export type SessionGiftVoucher = NonNullable<SessionStatus['gift_voucher']>;

export type PaymentContext = {
  sessionId: string;
  status: SessionStatus['status'] | null;
  clientSecret: string | null;
  /** What the checkout paid for, as the last check answered. */
  bookings: SessionBooking[];
  /** The price difference this checkout pays when it is a move's (the booking moved once paid); else null. */
  moveDifferenceEur: number | null;
  /** A Multibanco voucher or an MB WAY request whose money is awaited while the slots are held; else null. */
  awaitingPayment: SessionStatus['awaiting_payment'] | null;
  /** The prepaid pack this checkout sells (it books nothing); else null. */
  creditPack: SessionCreditPack | null;
  /** The gift voucher this checkout sells (it books nothing); else null. */
  giftVoucher: SessionGiftVoucher | null;
};

export type PaymentEvent =
  { type: 'result.close' } | { type: 'payment.retry' } | { type: 'payment.failed' } | SessionChanged;

/**
 * The check was refused (not logged in, no session of this account, a malformed id: the call's 4xx answers
 * in the contract): the flow asks for a login and checks again. Server faults and network failures fail.
 */
function isRefusal(error: unknown): boolean {
  return hasErrorCode(error, 'unauthorized', 'checkout_session_not_found', 'validation_failed');
}

export const paymentMachine = setup({
  types: machineTypes<PaymentContext, PaymentEvent, PaymentInput>(),
  actors: {
    checkStatus: placeholder<SessionStatus, { sessionId: string }>('checkStatus'),
    // The app provides sessionChanges(session) (machines/session.changes.ts): the login it asked for.
    sessionChanges: withoutSessionChanges,
  },
  actions: {
    // Provided by the app: opens the auth modal on its login view.
    requestLogin: () => {},
  },
  guards: {
    isRefusal: ({ event }) => isRefusal((event as { error?: unknown }).error),
    isOpen: ({ context }) => context.status === 'open' && context.clientSecret !== null,
    isLoggedIn: ({ event }) => event.type === 'session.changed' && event.loggedIn,
  },
}).createMachine({
  id: 'payment',
  context: ({ input }) => ({
    sessionId: input.sessionId,
    status: null,
    clientSecret: null,
    bookings: [],
    moveDifferenceEur: null,
    awaitingPayment: null,
    creditPack: null,
    giftVoucher: null,
  }),
  initial: 'checking',
  invoke: { id: 'session', src: 'sessionChanges' },
  states: {
    checking: {
      invoke: {
        id: 'checkStatus',
        src: 'checkStatus',
        input: ({ context }) => ({ sessionId: context.sessionId }),
        onDone: {
          target: 'result',
          actions: assign(({ event }) => ({
            status: event.output.status,
            clientSecret: event.output.clientSecret,
            bookings: event.output.bookings,
            moveDifferenceEur: event.output.move_price_difference_eur ?? null,
            awaitingPayment: event.output.awaiting_payment ?? null,
            creditPack: event.output.credit_pack ?? null,
            giftVoucher: event.output.gift_voucher ?? null,
          })),
        },
        onError: [{ guard: 'isRefusal', target: 'awaitingLogin' }, { target: 'failed' }],
      },
    },
    awaitingLogin: {
      entry: 'requestLogin',
      on: {
        'session.changed': { guard: 'isLoggedIn', target: 'checking' },
        'result.close': 'closed',
      },
    },
    result: {
      on: {
        'payment.retry': { guard: 'isOpen', target: 'checkout' },
        'result.close': 'closed',
      },
    },
    checkout: {
      on: {
        'payment.failed': 'checkoutFailed',
        'result.close': 'closed',
      },
    },
    checkoutFailed: { on: { 'result.close': 'closed' } },
    /** The check failed without an answer (network, 5xx): the dialog says so and can be closed. */
    failed: { on: { 'result.close': 'closed' } },
    closed: { type: 'final' },
  },
});
