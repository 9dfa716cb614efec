import { assign, setup } from 'xstate';
import { hasErrorCode } from './api.ts';
import { failureFeedback, type Feedback } from './feedback.ts';
import { machineTypes } from './machine-types.ts';
import { placeholder } from './placeholder.ts';
import type { components } from '../openapi/schema.gen.ts';

export type CreditPack = components['schemas']['CreditPack'];
export type Wallet = components['schemas']['Wallet'];
export type WalletLot = components['schemas']['WalletLot'];
export type WalletMovement = components['schemas']['WalletMovement'];
export type CreditUnit = components['schemas']['CreditUnit'];
export type CreditScope = components['schemas']['CreditScope'];

/** What the wallet tab reads when it opens: the member's lots and movements, and the packs on sale. */
export type WalletView = { wallet: Wallet; packs: CreditPack[] };

export type WalletContext = {
  wallet: Wallet | null;
  packs: CreditPack[];
  /** The pack being bought, from the click until its checkout closes. */
  buying: number | null;
  clientSecret: string | null;
  error: Feedback | null;
};

export type WalletEvent =
  | { type: 'wallet.retry' }
  | { type: 'pack.buy'; packId: number }
  | { type: 'checkout.close' }
  | { type: 'payment.failed' };

/**
 * The member's credit wallet (issue 31), a tab of the account: its lots and movements with the packs on sale,
 * read when the tab opens. Buying a pack opens the normal checkout for its price; once paid, the checkout returns
 * to the payment result, which names the pack. A pack no longer on sale (`credit_pack_not_found`) says so and the
 * packs are read again; a checkout closed unpaid reads the wallet again.
 */
export const walletMachine = setup({
  types: machineTypes<WalletContext, WalletEvent>(),
  actors: {
    loadWallet: placeholder<WalletView>('loadWallet'),
    purchasePack: placeholder<string | null, { packId: number }>('purchasePack'),
  },
  actions: {
    purchaseFailed: assign(({ event }) => ({
      buying: null,
      error: failureFeedback((event as { error?: unknown }).error, 'can-not-buy-pack'),
    })),
  },
  guards: {
    isOnSale: ({ context, event }) =>
      event.type === 'pack.buy' && context.packs.some((pack) => pack.id === event.packId),
    isPackGone: ({ event }) => hasErrorCode((event as { error?: unknown }).error, 'credit_pack_not_found'),
    hasCheckout: ({ event }) => typeof (event as { output?: unknown }).output === 'string',
  },
}).createMachine({
  id: 'wallet',
  context: { wallet: null, packs: [], buying: null, clientSecret: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadWallet',
        src: 'loadWallet',
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({ wallet: event.output.wallet, packs: event.output.packs })),
        },
        onError: {
          target: 'failed',
          actions: assign(({ event }) => ({ error: failureFeedback(event.error, 'generic') })),
        },
      },
    },
    failed: {
      on: { 'wallet.retry': { target: 'loading', actions: assign({ error: null }) } },
    },
    ready: {
      on: {
        'pack.buy': {
          guard: 'isOnSale',
          target: 'purchasing',
          actions: assign(({ event }) => ({ buying: event.packId, error: null })),
        },
      },
    },
    purchasing: {
      invoke: {
        id: 'purchasePack',
        src: 'purchasePack',
        input: ({ context }) => ({ packId: context.buying! }),
        onDone: [
          {
            guard: 'hasCheckout',
            target: 'checkout',
            actions: assign(({ event }) => ({ clientSecret: event.output })),
          },
          // Nothing to pay through a checkout: the wallet is read again.
          { target: 'loading', actions: assign({ buying: null }) },
        ],
        onError: [
          // No longer on sale: the packs are read again, the message stays.
          { guard: 'isPackGone', target: 'loading', actions: 'purchaseFailed' },
          { target: 'ready', actions: 'purchaseFailed' },
        ],
      },
    },
    /** The checkout for the pack's price; paid, it returns to the payment result (a page of its own). */
    checkout: {
      initial: 'open',
      on: {
        'checkout.close': {
          target: 'loading',
          actions: assign({ buying: null, clientSecret: null }),
        },
      },
      states: {
        open: { on: { 'payment.failed': 'failed' } },
        failed: {},
      },
    },
  },
});
