import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import {
  EMPTY_GIFT,
  giftProblems,
  giftVoucherOf,
  shownGiftProblems,
  voucherCodeOf,
  type GiftVoucherRequest,
} from '../../machines/wallet.gift.ts';
import { walletMachine, type WalletLot, type WalletView } from '../../machines/wallet.machine.ts';
import { isSpendable, movementsWithLots, weekdayRuns } from '../../machines/wallet.selectors.ts';
import { FULL, GIFTS, MORNINGS, REDEEMED, TEN_HOURS, WALLET } from './wallet-fixtures.ts';

function start(
  script: {
    load?: () => Promise<WalletView>;
    purchase?: (packId: number) => Promise<string | null>;
    redeem?: (code: string) => Promise<WalletLot>;
    gift?: (request: GiftVoucherRequest) => Promise<string | null>;
    voucher?: unknown;
  } = {},
) {
  const loads: number[] = [];
  const purchases: number[] = [];
  const redemptions: string[] = [];
  const gifts: GiftVoucherRequest[] = [];
  const actor = createActor(
    walletMachine.provide({
      actors: {
        loadWallet: fromPromise(() => {
          loads.push(1);
          return script.load ? script.load() : Promise.resolve(FULL);
        }),
        purchasePack: fromPromise(({ input }) => {
          purchases.push(input.packId);
          return script.purchase ? script.purchase(input.packId) : Promise.resolve('cs_pack_secret_x');
        }),
        redeemVoucher: fromPromise(({ input }) => {
          redemptions.push(input.code);
          return script.redeem ? script.redeem(input.code) : Promise.resolve(REDEEMED);
        }),
        buyGiftVoucher: fromPromise(({ input }) => {
          gifts.push(input);
          return script.gift ? script.gift(input) : Promise.resolve('cs_gift_secret_x');
        }),
      },
    }),
    { input: script.voucher === undefined ? undefined : { voucher: script.voucher } },
  ).start();
  return { actor, loads, purchases, redemptions, gifts };
}

const GIFT = { amount: '25,50', name: ' Ana Sousa ', email: 'ana@example.com', message: '' };

describe('the wallet', () => {
  it('reads the wallet and the packs on sale when it opens', async () => {
    const { actor } = start();
    const state = await waitFor(actor, (s) => s.matches('ready'));
    expect(state.context.wallet).toEqual(WALLET);
    expect(state.context.packs).toEqual([TEN_HOURS, MORNINGS]);
    expect(state.context.vouchers).toEqual(GIFTS);
  });

  it('says why it could not read the wallet and tries again when asked', async () => {
    let fail = true;
    const { actor, loads } = start({
      load: () => (fail ? Promise.reject(new ApiError('service_unavailable')) : Promise.resolve(FULL)),
    });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.error).toEqual({ key: 'generic' });
    fail = false;
    actor.send({ type: 'wallet.retry' });
    const ready = await waitFor(actor, (s) => s.matches('ready'));
    expect(ready.context.error).toBeNull();
    expect(loads).toHaveLength(2);
  });

  it('buys only a pack on sale, and opens its checkout', async () => {
    const { actor, purchases } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'pack.buy', packId: 99 });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    actor.send({ type: 'pack.buy', packId: MORNINGS.id });
    expect(actor.getSnapshot().context.buying).toBe(MORNINGS.id);
    const state = await waitFor(actor, (s) => s.matches('checkout'));
    expect(state.context.clientSecret).toBe('cs_pack_secret_x');
    expect(purchases).toEqual([MORNINGS.id]);
  });

  it('reads the wallet again when the checkout closes unpaid, and says when the payment provider failed', async () => {
    const { actor, loads } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'pack.buy', packId: TEN_HOURS.id });
    await waitFor(actor, (s) => s.matches('checkout'));
    actor.send({ type: 'payment.failed' });
    expect(actor.getSnapshot().matches({ checkout: 'failed' })).toBe(true);
    actor.send({ type: 'checkout.close' });
    const state = await waitFor(actor, (s) => s.matches('ready'));
    expect(state.context).toMatchObject({ buying: null, clientSecret: null });
    expect(loads).toHaveLength(2);
  });

  it('says in the server’s words why a pack cannot be bought', async () => {
    const { actor, loads } = start({
      purchase: () =>
        Promise.reject(new ApiError('booking_requires_verification', 'Verifique o seu e-mail e telefone.')),
    });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'pack.buy', packId: TEN_HOURS.id });
    const state = await waitFor(actor, (s) => s.matches('ready') && s.context.error !== null);
    expect(state.context.error).toEqual({ text: 'Verifique o seu e-mail e telefone.' });
    expect(state.context.buying).toBeNull();
    expect(loads).toHaveLength(1);
  });

  it('reads the packs again when the pack is no longer on sale, keeping the message', async () => {
    let packs = FULL.packs;
    const { actor, loads } = start({
      load: () => Promise.resolve({ wallet: WALLET, packs, vouchers: [] }),
      purchase: () => {
        packs = [TEN_HOURS];
        return Promise.reject(
          new ApiError('credit_pack_not_found', 'Este pacote não existe ou já não está à venda.'),
        );
      },
    });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'pack.buy', packId: MORNINGS.id });
    const state = await waitFor(actor, (s) => s.matches('ready') && loads.length === 2);
    expect(state.context.packs).toEqual([TEN_HOURS]);
    expect(state.context.error).toEqual({ text: 'Este pacote não existe ou já não está à venda.' });
  });

  it('falls back to its own words without the server’s', async () => {
    const { actor } = start({ purchase: () => Promise.reject(new ApiError(null)) });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'pack.buy', packId: TEN_HOURS.id });
    const state = await waitFor(actor, (s) => s.matches('ready') && s.context.error !== null);
    expect(state.context.error).toEqual({ key: 'can-not-buy-pack' });
  });

  it('reads the wallet again when there is no checkout to pay', async () => {
    const { actor, loads } = start({ purchase: () => Promise.resolve(null) });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'pack.buy', packId: TEN_HOURS.id });
    await waitFor(actor, (s) => s.matches('ready') && loads.length === 2);
    expect(actor.getSnapshot().context.buying).toBeNull();
  });
});

describe('a gift voucher redeemed', () => {
  it('opens with the code of the recipient’s link, trimmed; a number the address made is its digits', () => {
    expect(start({ voucher: ' GIFT-7K2M ' }).actor.getSnapshot().context.code).toBe('GIFT-7K2M');
    expect(start({ voucher: 12345678 }).actor.getSnapshot().context.code).toBe('12345678');
    expect(start({ voucher: { nested: true } }).actor.getSnapshot().context.code).toBe('');
    expect(start().actor.getSnapshot().context.code).toBe('');
  });

  it('becomes a lot: the wallet is read again and the lot is said, the field emptied', async () => {
    const { actor, loads, redemptions } = start({ voucher: 'GIFT-7K2M' });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'voucher.input', value: '  gift-7k2m-9qxa ' });
    actor.send({ type: 'voucher.redeem' });
    expect(actor.getSnapshot().matches('redeeming')).toBe(true);
    const state = await waitFor(actor, (s) => s.matches('ready') && loads.length === 2);
    expect(redemptions).toEqual(['gift-7k2m-9qxa']);
    expect(state.context).toMatchObject({ redeemed: REDEEMED, code: '', redeemError: null });
  });

  it('asks for a code before any call', async () => {
    const { actor, redemptions } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'voucher.input', value: '   ' });
    actor.send({ type: 'voucher.redeem' });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(actor.getSnapshot().context.redeemError).toEqual({ key: 'voucher-code-missing' });
    actor.send({ type: 'voucher.input', value: 'G' });
    expect(actor.getSnapshot().context.redeemError).toBeNull();
    expect(redemptions).toEqual([]);
  });

  it('says in the server’s words why a code was refused, keeping it to correct', async () => {
    for (const error of [
      new ApiError('voucher_not_found', 'Não há nenhum vale com este código.'),
      new ApiError('voucher_redeemed', 'Este vale já foi usado.'),
      new ApiError('voucher_expired', 'Este vale já expirou.'),
      new ApiError('rate_limited', 'Demasiados pedidos.'),
    ]) {
      const { actor, loads } = start({ voucher: 'GIFT-1', redeem: () => Promise.reject(error) });
      await waitFor(actor, (s) => s.matches('ready'));
      actor.send({ type: 'voucher.redeem' });
      const state = await waitFor(actor, (s) => s.matches('ready') && s.context.redeemError !== null);
      expect(state.context.redeemError).toEqual({ text: error.detail });
      expect(state.context.code).toBe('GIFT-1');
      expect(loads).toHaveLength(1);
    }
  });

  it('falls back to its own words, and the generic ones for a server fault', async () => {
    const { actor } = start({ voucher: 'GIFT-1', redeem: () => Promise.reject(new ApiError(null)) });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'voucher.redeem' });
    const state = await waitFor(actor, (s) => s.context.redeemError !== null);
    expect(state.context.redeemError).toEqual({ key: 'can-not-redeem-voucher' });
    const fault = start({ voucher: 'GIFT-1', redeem: () => Promise.reject(new ApiError('internal_error')) });
    await waitFor(fault.actor, (s) => s.matches('ready'));
    fault.actor.send({ type: 'voucher.redeem' });
    const failed = await waitFor(fault.actor, (s) => s.context.redeemError !== null);
    expect(failed.context.redeemError).toEqual({ key: 'generic' });
  });
});

describe('a gift voucher given', () => {
  const type = (actor: ReturnType<typeof start>['actor'], fields: Partial<typeof GIFT>) => {
    for (const [field, value] of Object.entries(fields))
      actor.send({ type: 'gift.change', field: field as keyof typeof GIFT, value });
  };

  it('says each field’s problem once it was left, and all of them when bought, without a call', async () => {
    const { actor, gifts } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    type(actor, { amount: '3', email: 'ana@' });
    expect(shownGiftProblems(actor.getSnapshot().context)).toEqual({});
    actor.send({ type: 'gift.leave', field: 'amount' });
    expect(shownGiftProblems(actor.getSnapshot().context)).toEqual({ amount: 'out-of-range' });
    actor.send({ type: 'gift.buy' });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(shownGiftProblems(actor.getSnapshot().context)).toEqual({
      amount: 'out-of-range',
      name: 'missing',
      email: 'invalid',
    });
    expect(gifts).toEqual([]);
  });

  it('opens the checkout for the voucher, as the contract takes it', async () => {
    const { actor, gifts } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    type(actor, { ...GIFT, message: '  Parabéns!  ' });
    actor.send({ type: 'gift.buy' });
    expect(actor.getSnapshot().matches('buyingGift')).toBe(true);
    const state = await waitFor(actor, (s) => s.matches('checkout'));
    expect(state.context).toMatchObject({ clientSecret: 'cs_gift_secret_x', buying: null });
    expect(gifts).toEqual([
      {
        amount_eur: 25.5,
        recipient_name: 'Ana Sousa',
        recipient_email: 'ana@example.com',
        message: 'Parabéns!',
      },
    ]);
  });

  it('keeps the fields when the checkout closes unpaid, and reads the wallet again', async () => {
    const { actor, loads } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    type(actor, GIFT);
    actor.send({ type: 'gift.buy' });
    await waitFor(actor, (s) => s.matches('checkout'));
    actor.send({ type: 'checkout.close' });
    const state = await waitFor(actor, (s) => s.matches('ready') && loads.length === 2);
    expect(state.context.gift).toEqual(GIFT);
    expect(state.context.clientSecret).toBeNull();
  });

  it('says in the server’s words why it cannot be bought, until a field changes', async () => {
    const { actor } = start({
      gift: () =>
        Promise.reject(new ApiError('booking_requires_verification', 'Verifique o seu e-mail e telefone.')),
    });
    await waitFor(actor, (s) => s.matches('ready'));
    type(actor, GIFT);
    actor.send({ type: 'gift.buy' });
    const state = await waitFor(actor, (s) => s.matches('ready') && s.context.giftError !== null);
    expect(state.context.giftError).toEqual({ text: 'Verifique o seu e-mail e telefone.' });
    type(actor, { name: 'Ana' });
    expect(actor.getSnapshot().context.giftError).toBeNull();
  });

  it('falls back to its own words without the server’s', async () => {
    const { actor } = start({ gift: () => Promise.reject(new ApiError(null)) });
    await waitFor(actor, (s) => s.matches('ready'));
    type(actor, GIFT);
    actor.send({ type: 'gift.buy' });
    const state = await waitFor(actor, (s) => s.context.giftError !== null);
    expect(state.context.giftError).toEqual({ key: 'can-not-buy-gift-voucher' });
  });
});

describe('a gift voucher’s fields', () => {
  const valid = { amount: '25', name: 'Ana', email: 'ana@example.com', message: '' };

  it('take 5 to 500 euros with at most cents, written with a comma or a point', () => {
    for (const amount of ['5', '500', '25,5', '25.50', '499,99', ' 30 '])
      expect(giftProblems({ ...valid, amount }), amount).toEqual({});
    expect(giftProblems({ ...valid, amount: '' }).amount).toBe('missing');
    expect(giftProblems({ ...valid, amount: '4,99' }).amount).toBe('out-of-range');
    expect(giftProblems({ ...valid, amount: '500,01' }).amount).toBe('out-of-range');
    expect(giftProblems({ ...valid, amount: '25,555' }).amount).toBe('not-cents');
    expect(giftProblems({ ...valid, amount: '25,500' })).toEqual({});
    for (const amount of ['vinte', '-10', '1e2', '25 €'])
      expect(giftProblems({ ...valid, amount }).amount, amount).toBe('invalid');
  });

  it('need a name, an e-mail, and a message of at most 500 characters', () => {
    expect(giftProblems(EMPTY_GIFT)).toEqual({ amount: 'missing', name: 'missing', email: 'missing' });
    expect(giftProblems({ ...valid, name: 'A'.repeat(81) }).name).toBe('too-long');
    for (const email of ['ana', 'ana@example', 'a b@example.com', '@example.com'])
      expect(giftProblems({ ...valid, email }).email, email).toBe('invalid');
    expect(giftProblems({ ...valid, message: 'm'.repeat(500) })).toEqual({});
    expect(giftProblems({ ...valid, message: 'm'.repeat(501) }).message).toBe('too-long');
  });

  it('say the voucher, trimmed, without an empty message', () => {
    expect(giftVoucherOf({ ...valid, amount: '25,50', name: ' Ana ', message: '  ' })).toEqual({
      amount_eur: 25.5,
      recipient_name: 'Ana',
      recipient_email: 'ana@example.com',
      message: null,
    });
    expect(giftVoucherOf({ ...valid, amount: '2' })).toBeNull();
  });

  it('read a code from the address as the member has it', () => {
    expect(voucherCodeOf('  AB-12 ')).toBe('AB-12');
    expect(voucherCodeOf(42)).toBe('42');
    expect(voucherCodeOf(undefined)).toBe('');
    expect(voucherCodeOf('x'.repeat(50))).toHaveLength(40);
  });
});

describe('the wallet’s reading', () => {
  it('tells spendable lots from spent and expired ones', () => {
    expect(WALLET.lots.map(isSpendable)).toEqual([true, false]);
    expect(isSpendable({ ...WALLET.lots[0]!, remaining: 0 })).toBe(false);
  });

  it('names each movement’s lot', () => {
    expect(movementsWithLots(WALLET).map(({ movement, lot }) => [movement.id, lot?.name])).toEqual([
      [5, 'Dez horas'],
      [4, 'Dez horas'],
      [3, 'Dez horas'],
      [2, 'Dez horas'],
      [1, 'Manhãs'],
    ]);
    expect(movementsWithLots({ lots: [], movements: WALLET.movements.slice(0, 1) })[0]!.lot).toBeNull();
  });

  it('groups weekdays into runs of consecutive days', () => {
    expect(weekdayRuns([7, 1, 2, 3, 5])).toEqual([
      [1, 3],
      [5, 5],
      [7, 7],
    ]);
    expect(weekdayRuns([])).toEqual([]);
  });
});
