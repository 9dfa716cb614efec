import type { Wallet, WalletLot, WalletMovement } from './wallet.machine.ts';

// What the wallet tab reads of the wallet (issue 31).

/** A lot that can still pay: not expired, with something left. */
export function isSpendable(lot: WalletLot): boolean {
  return !lot.expired && lot.remaining > 0;
}

/** Each movement with the lot it moved (the lot's name is what the member recognises), newest first as read. */
export function movementsWithLots(wallet: Wallet): { movement: WalletMovement; lot: WalletLot | null }[] {
  const lots = new Map(wallet.lots.map((lot) => [lot.id, lot]));
  return wallet.movements.map((movement) => ({ movement, lot: lots.get(movement.lot_id) ?? null }));
}

/** The weekdays of a scope as runs of consecutive days (1 Monday .. 7 Sunday): [1,2,3,5] is [[1,3],[5,5]]. */
export function weekdayRuns(weekdays: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const day of [...weekdays].sort((a, b) => a - b)) {
    const last = runs.at(-1);
    if (last && last[1] === day - 1) last[1] = day;
    else runs.push([day, day]);
  }
  return runs;
}
