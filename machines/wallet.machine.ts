import { assign, setup } from 'xstate';
import { hasErrorCode } from './api.ts';
import { failureFeedback, type Feedback } from './feedback.ts';
import { machineTypes } from './machine-types.ts';
import { placeholder } from './placeholder.ts';
import {
  EMPTY_GIFT,
  giftProblems,
  giftVoucherOf,
  voucherCodeOf,
  type GiftField,
  type GiftFields,
  type GiftVoucher,
  type GiftVoucherRequest,
} from './wallet.gift.ts';
import type { components } from '../openapi/schema.gen.ts';

export type CreditPack = components['schemas']['CreditPack'];
export type Wallet = components['schemas']['Wallet'];
export type WalletLot = components['schemas']['WalletLot'];
export type WalletMovement = components['schemas']['WalletMovement'];
export type CreditUnit = components['schemas']['CreditUnit'];
export type CreditScope = components['schemas']['CreditScope'];
export type { GiftField, GiftFields, GiftVoucher };

/**
 * What the wallet tab reads when it opens: the member's lots and movements, the packs on sale and the gift
 * vouchers the member bought.
 */
export type WalletView = { wallet: Wallet; packs: CreditPack[]; vouchers: GiftVoucher[] };

/**
 * The voucher code the wallet opens with (the recipient's e-mail links to the wallet with it). Optional: the
 * machine is typed without an input so that starting it without one stays possible (XState drops an input
 * type's `undefined`).
 */
export type WalletInput = { voucher?: unknown } | undefined;

export type WalletContext = {
  wallet: Wallet | null;
  packs: CreditPack[];
  vouchers: GiftVoucher[];
  /** The pack being bought, from the click until its checkout closes (null while a gift voucher is paid). */
  buying: number | null;
  clientSecret: string | null;
  error: Feedback | null;
  /** The code typed in "Usar um vale", why it was refused, and the lot it became (the success line). */
  code: string;
  redeemError: Feedback | null;
  redeemed: WalletLot | null;
  /** The gift voucher being given: its fields, those left (their problems show), and a purchase asked. */
  gift: GiftFields;
  giftTouched: GiftField[];
  giftChecked: boolean;
  /** Why the gift voucher's purchase was refused (the server's words). */
  giftError: Feedback | null;
};

export type WalletEvent =
  | { type: 'wallet.retry' }
  | { type: 'pack.buy'; packId: number }
  | { type: 'checkout.close' }
  | { type: 'payment.failed' }
  | { type: 'voucher.input'; value: string }
  | { type: 'voucher.redeem' }
  | { type: 'gift.change'; field: GiftField; value: string }
  | { type: 'gift.leave'; field: GiftField }
  | { type: 'gift.buy' };

/**
 * The member's credit wallet (issue 31), a tab of the account: its lots and movements with the packs on sale and
 * the gift vouchers the member bought, read when the tab opens. Buying a pack opens the normal checkout for its
 * price; once paid, the checkout returns to the payment result, which names the pack. A pack no longer on sale
 * (`credit_pack_not_found`) says so and the packs are read again; a checkout closed unpaid reads the wallet again.
 * A gift voucher's code (typed, or from the recipient's link) is redeemed into a lot: the wallet is read again
 * and says until when; a refusal is said beside the code. A gift voucher for someone is bought through the same
 * checkout once its fields hold (each field's problem is said once it was left, all of them on buying).
 */
export const walletMachine = setup({
  types: machineTypes<WalletContext, WalletEvent>(),
  actors: {
    loadWallet: placeholder<WalletView>('loadWallet'),
    purchasePack: placeholder<string | null, { packId: number }>('purchasePack'),
    redeemVoucher: placeholder<WalletLot, { code: string }>('redeemVoucher'),
    buyGiftVoucher: placeholder<string | null, GiftVoucherRequest>('buyGiftVoucher'),
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
    hasCode: ({ context }) => context.code.trim() !== '',
    hasGiftProblems: ({ context }) => Object.keys(giftProblems(context.gift)).length > 0,
  },
}).createMachine({
  id: 'wallet',
  context: ({ input }) => ({
    wallet: null,
    packs: [],
    vouchers: [],
    buying: null,
    clientSecret: null,
    error: null,
    code: voucherCodeOf((input as WalletInput)?.voucher),
    redeemError: null,
    redeemed: null,
    gift: EMPTY_GIFT,
    giftTouched: [],
    giftChecked: false,
    giftError: null,
  }),
  initial: 'loading',
  // The forms' fields are the member's whatever the wallet is doing (typing while it is read again is kept).
  on: {
    'voucher.input': { actions: assign(({ event }) => ({ code: event.value, redeemError: null })) },
    'gift.change': {
      actions: assign(({ context, event }) => ({
        gift: { ...context.gift, [event.field]: event.value },
        giftError: null,
      })),
    },
    'gift.leave': {
      actions: assign(({ context, event }) => ({
        giftTouched: context.giftTouched.includes(event.field)
          ? context.giftTouched
          : [...context.giftTouched, event.field],
      })),
    },
  },
  states: {
    loading: {
      invoke: {
        id: 'loadWallet',
        src: 'loadWallet',
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({
            wallet: event.output.wallet,
            packs: event.output.packs,
            vouchers: event.output.vouchers,
          })),
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
        'voucher.redeem': [
          {
            guard: 'hasCode',
            target: 'redeeming',
            actions: assign({ redeemError: null, redeemed: null }),
          },
          // Nothing typed: said beside the field, without a call.
          { actions: assign({ redeemError: { key: 'voucher-code-missing' }, redeemed: null }) },
        ],
        'gift.buy': [
          { guard: 'hasGiftProblems', actions: assign({ giftChecked: true }) },
          { target: 'buyingGift', actions: assign({ giftError: null, error: null }) },
        ],
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
    /** A voucher's code redeemed: its lot is in the wallet, which is read again to show it. */
    redeeming: {
      invoke: {
        id: 'redeemVoucher',
        src: 'redeemVoucher',
        input: ({ context }) => ({ code: context.code.trim() }),
        onDone: {
          target: 'loading',
          actions: assign(({ event }) => ({ redeemed: event.output, code: '' })),
        },
        onError: {
          target: 'ready',
          actions: assign(({ event }) => ({
            redeemError: failureFeedback(event.error, 'can-not-redeem-voucher'),
          })),
        },
      },
    },
    /** A gift voucher's checkout asked for; the fields stay until it is paid (a refusal keeps them to correct). */
    buyingGift: {
      invoke: {
        id: 'buyGiftVoucher',
        src: 'buyGiftVoucher',
        input: ({ context }) => giftVoucherOf(context.gift)!,
        onDone: [
          {
            guard: 'hasCheckout',
            target: 'checkout',
            actions: assign(({ event }) => ({ clientSecret: event.output })),
          },
          { target: 'loading' },
        ],
        onError: {
          target: 'ready',
          actions: assign(({ event }) => ({
            giftError: failureFeedback(event.error, 'can-not-buy-gift-voucher'),
          })),
        },
      },
    },
    /** The checkout for the pack's or the voucher's price; paid, it returns to the payment result. */
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
