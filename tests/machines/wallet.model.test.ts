import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import { walletMachine } from '../../machines/wallet.machine.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';
import { FULL, TEN_HOURS } from './wallet-fixtures.ts';

type Event = EventFrom<typeof walletMachine>;
// The calls' answers (the wallet, a checkout or none, each failure the wallet tells apart) and the member's events.
const EVENTS = [
  { type: 'xstate.done.actor.loadWallet', output: FULL },
  { type: 'xstate.error.actor.loadWallet', error: new ApiError('service_unavailable') },
  { type: 'xstate.done.actor.purchasePack', output: 'cs_pack_secret_x' },
  { type: 'xstate.done.actor.purchasePack', output: null },
  {
    type: 'xstate.error.actor.purchasePack',
    error: new ApiError('credit_pack_not_found', 'Este pacote já não está à venda.'),
  },
  { type: 'xstate.error.actor.purchasePack', error: new ApiError('rate_limited', 'Demasiados pedidos.') },
  { type: 'wallet.retry' },
  { type: 'pack.buy', packId: TEN_HOURS.id },
  { type: 'pack.buy', packId: 99 },
  { type: 'payment.failed' },
  { type: 'checkout.close' },
] as unknown as Event[];

const coverage = coverageOf(walletMachine);
afterAll(() => coverage.save());

describe('wallet machine, model-based', () => {
  const paths = generatePaths(walletMachine, {
    events: EVENTS,
    serializeState: (state) =>
      JSON.stringify([state.value, state.context.buying, state.context.error, state.context.clientSecret]),
  });

  for (const path of paths) {
    it(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      await replayPath(walletMachine, path, {
        scripted: ['loadWallet', 'purchasePack'],
        coverage,
        check: (snapshot) => {
          const { context } = snapshot;
          // A checkout is open only with its secret, for the pack being bought.
          if (snapshot.matches('checkout')) {
            expect(context.clientSecret).not.toBeNull();
            expect(context.buying).toBe(TEN_HOURS.id);
          }
          if (snapshot.matches('purchasing'))
            expect(context.packs.map((pack) => pack.id)).toContain(context.buying);
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
