import { fromPromise } from 'xstate';
import { expectData, type ApiClient } from './api.ts';
import type { GiftVoucherRequest } from './wallet.gift.ts';
import type { WalletLot, WalletView } from './wallet.machine.ts';

/**
 * The wallet's calls over the typed client (issue 31): the wallet, the packs on sale and the gift vouchers bought;
 * buying a pack or a gift voucher; redeeming a voucher's code.
 */
export function createWalletActors(api: ApiClient) {
  return {
    loadWallet: fromPromise<WalletView>(async () => {
      const [wallet, packs, vouchers] = await Promise.all([
        expectData(api.GET('/wallet')),
        expectData(api.GET('/credit-packs')),
        expectData(api.GET('/gift-vouchers')),
      ]);
      return { wallet, packs, vouchers };
    }),
    purchasePack: fromPromise<string | null, { packId: number }>(async ({ input }) => {
      const data = await expectData(
        api.POST('/credit-packs/{pack_id}/purchase', { params: { path: { pack_id: input.packId } } }),
      );
      return data.checkout_session.clientSecret;
    }),
    redeemVoucher: fromPromise<WalletLot, { code: string }>(({ input }) =>
      expectData(api.POST('/wallet/redeem', { body: { code: input.code } })),
    ),
    buyGiftVoucher: fromPromise<string | null, GiftVoucherRequest>(async ({ input }) => {
      const data = await expectData(api.POST('/gift-vouchers', { body: input }));
      return data.checkout_session.clientSecret;
    }),
  };
}
