import { fromPromise } from 'xstate';
import { expectData, type ApiClient } from './api.ts';
import type { WalletView } from './wallet.machine.ts';

/** The wallet's calls over the typed client (issue 31): the wallet and the packs on sale, and buying one. */
export function createWalletActors(api: ApiClient) {
  return {
    loadWallet: fromPromise<WalletView>(async () => {
      const [wallet, packs] = await Promise.all([
        expectData(api.GET('/wallet')),
        expectData(api.GET('/credit-packs')),
      ]);
      return { wallet, packs };
    }),
    purchasePack: fromPromise<string | null, { packId: number }>(async ({ input }) => {
      const data = await expectData(
        api.POST('/credit-packs/{pack_id}/purchase', { params: { path: { pack_id: input.packId } } }),
      );
      return data.checkout_session.clientSecret;
    }),
  };
}
