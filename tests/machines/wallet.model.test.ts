import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import { giftProblems, giftVoucherOf } from '../../machines/wallet.gift.ts';
import { walletMachine } from '../../machines/wallet.machine.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';
import { FULL, REDEEMED, TEN_HOURS } from './wallet-fixtures.ts';

type Event = EventFrom<typeof walletMachine>;
type Snapshot = SnapshotFrom<typeof walletMachine>;
const answer = (type: string, rest: object) => ({ type, ...rest }) as unknown as Event;

// The calls' answers (the wallet, a checkout or none, each failure the wallet tells apart) and the member's events.
const CALLS = [
  answer('xstate.done.actor.loadWallet', { output: FULL }),
  answer('xstate.error.actor.loadWallet', { error: new ApiError('service_unavailable') }),
  answer('xstate.done.actor.purchasePack', { output: 'cs_pack_secret_x' }),
  answer('xstate.done.actor.purchasePack', { output: null }),
  answer('xstate.error.actor.purchasePack', {
    error: new ApiError('credit_pack_not_found', 'Este pacote já não está à venda.'),
  }),
  answer('xstate.error.actor.purchasePack', { error: new ApiError('rate_limited', 'Demasiados pedidos.') }),
  answer('xstate.done.actor.redeemVoucher', { output: REDEEMED }),
  answer('xstate.error.actor.redeemVoucher', {
    error: new ApiError('voucher_not_found', 'Não há nenhum vale com este código.'),
  }),
  answer('xstate.done.actor.buyGiftVoucher', { output: 'cs_gift_secret_x' }),
  answer('xstate.done.actor.buyGiftVoucher', { output: null }),
  answer('xstate.error.actor.buyGiftVoucher', { error: new ApiError('rate_limited', 'Demasiados pedidos.') }),
];

/**
 * What the member types, one step at a time, in this order: a voucher's code, then a gift voucher's amount out of
 * range (left, so its problem shows), a good one, the recipient's name and e-mail. Only the next step is offered
 * while the wallet is shown, so the graph stays small.
 */
const TYPING: Event[] = [
  { type: 'voucher.input', value: 'GIFT-7K2M' },
  { type: 'gift.change', field: 'amount', value: '3' },
  { type: 'gift.leave', field: 'amount' },
  { type: 'gift.change', field: 'amount', value: '25' },
  { type: 'gift.change', field: 'name', value: 'Ana' },
  { type: 'gift.change', field: 'email', value: 'ana@example.com' },
];

function typed(state: Snapshot): number {
  const { code, redeemed, redeemError, gift, giftTouched } = state.context;
  if (code === '' && redeemed === null && redeemError === null) return 0;
  if (gift.amount === '') return 1;
  if (!giftTouched.includes('amount')) return 2;
  if (gift.amount === '3') return 3;
  if (gift.name === '') return 4;
  if (gift.email === '') return 5;
  return TYPING.length;
}

/**
 * The member's events. The three flows are independent of one another, so each is offered at its own stage of the
 * typing: the packs before anything is typed, the voucher's code until the gift voucher's fields are begun, the
 * gift voucher's purchase after; the calls' answers and the checkout's events always (only a waiting call can be
 * answered).
 */
function events(state: Snapshot): Event[] {
  const stage = typed(state);
  const next = TYPING[stage];
  return [
    ...CALLS,
    { type: 'wallet.retry' },
    { type: 'payment.failed' },
    { type: 'checkout.close' },
    ...(stage === 0
      ? ([
          { type: 'pack.buy', packId: TEN_HOURS.id },
          { type: 'pack.buy', packId: 99 },
        ] as Event[])
      : []),
    ...(stage <= 1 ? ([{ type: 'voucher.redeem' }] as Event[]) : []),
    ...(stage >= 2 ? ([{ type: 'gift.buy' }] as Event[]) : []),
    ...(state.matches('ready') && next ? [next] : []),
  ];
}

const coverage = coverageOf(walletMachine);
afterAll(() => coverage.save());

describe('wallet machine, model-based', () => {
  const paths = generatePaths(walletMachine, {
    events,
    serializeState: (state) =>
      JSON.stringify([
        state.value,
        state.context.buying,
        state.context.error,
        state.context.clientSecret,
        typed(state),
        state.context.redeemError !== null,
        state.context.redeemed !== null,
        state.context.giftChecked,
        state.context.giftError !== null,
      ]),
  });

  for (const path of paths) {
    it(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      await replayPath(walletMachine, path, {
        scripted: ['loadWallet', 'purchasePack', 'redeemVoucher', 'buyGiftVoucher'],
        coverage,
        check: (snapshot) => {
          const { context } = snapshot;
          // A checkout is open only with its secret: for the pack being bought, or for a gift voucher that holds.
          if (snapshot.matches('checkout')) {
            expect(context.clientSecret).not.toBeNull();
            if (context.buying === null) expect(giftVoucherOf(context.gift)).not.toBeNull();
            else expect(context.buying).toBe(TEN_HOURS.id);
          }
          if (snapshot.matches('purchasing'))
            expect(context.packs.map((pack) => pack.id)).toContain(context.buying);
          // A code is redeemed only when there is one; a gift voucher bought only when its fields hold.
          if (snapshot.matches('redeeming')) expect(context.code.trim()).not.toBe('');
          if (snapshot.matches('buyingGift')) expect(giftProblems(context.gift)).toEqual({});
          // A redeemed voucher empties the field; a refusal keeps the code to correct.
          if (context.redeemed !== null) expect(context.redeemError).toBeNull();
          if (context.redeemError !== null) expect(context.redeemed).toBeNull();
          // Only a pack on sale is ever bought, and only once the wallet is read.
          if (snapshot.matches('ready')) expect(context.wallet).not.toBeNull();
          if (snapshot.matches('failed')) expect(context.error).not.toBeNull();
        },
      });
    });
  }
});

describe('wallet machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});
