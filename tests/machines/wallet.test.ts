import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import { walletMachine, type WalletView } from '../../machines/wallet.machine.ts';
import { isSpendable, movementsWithLots, weekdayRuns } from '../../machines/wallet.selectors.ts';
import { FULL, MORNINGS, TEN_HOURS, WALLET } from './wallet-fixtures.ts';

function start(
  script: { load?: () => Promise<WalletView>; purchase?: (packId: number) => Promise<string | null> } = {},
) {
  const loads: number[] = [];
  const purchases: number[] = [];
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
      },
    }),
  ).start();
  return { actor, loads, purchases };
}

describe('the wallet', () => {
  it('reads the wallet and the packs on sale when it opens', async () => {
    const { actor } = start();
    const state = await waitFor(actor, (s) => s.matches('ready'));
    expect(state.context.wallet).toEqual(WALLET);
    expect(state.context.packs).toEqual([TEN_HOURS, MORNINGS]);
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
      load: () => Promise.resolve({ wallet: WALLET, packs }),
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
