import { z } from 'zod';
import {
  priceGridsFromToday,
  type PriceGrid,
  type PriceRule,
  setPriceGrid,
  type SetPriceGridResult,
} from '../../catalog/index.ts';
import { runTransaction } from '../../kernel/transactions.ts';
import {
  actorOf,
  defineCommand,
  euros,
  idArgument,
  jsonOption,
  money,
  table,
  UsageError,
  type AdminContext,
} from '../command.ts';

// A branch's price grid, as the console's Prices page edits it: `prices set` replaces it through the same use case
// (use-cases/set-price-grid.ts), at once or from a day of the branch's calendar.

const clockTime = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

const BAND = /^([1-7](?:,[1-7])*)@(\d{1,2}):(\d{2})-(\d{1,2}):(\d{2})=(\d+(?:[.,]\d{1,2})?)$/;

/** `--band 1,2,3,4,5@07:00-10:00=18.50`: a price on each weekday given over [from, to) of the branch's day. */
const bands = () =>
  z.array(z.string()).transform((items, context) => {
    const parsed: PriceRule[] = [];
    for (const item of items) {
      const match = BAND.exec(item);
      const price = match ? euros().safeParse(match[6]) : null;
      if (!match || !price?.success) {
        context.addIssue({
          code: 'custom',
          message: `--band must be <weekdays>@<HH:MM>-<HH:MM>=<eur>, e.g. 1,2,3,4,5@07:00-10:00=18.50, not '${item}'`,
        });
        return z.NEVER;
      }
      const [, days, fromHour, fromMinute, toHour, toMinute] = match as unknown as string[];
      for (const day of new Set(days!.split(','))) {
        parsed.push({
          isoWeekday: Number(day),
          startsAtMinute: Number(fromHour) * 60 + Number(fromMinute),
          endsAtMinute: Number(toHour) * 60 + Number(toMinute),
          priceCents: price.data,
        });
      }
    }
    return parsed;
  });

function bandRows(grid: PriceGrid) {
  return grid.priceRules.map((band) => ({
    weekday: band.isoWeekday,
    from: clockTime(band.startsAtMinute),
    to: clockTime(band.endsAtMinute),
    price_eur: money(band.priceCents),
  }));
}

/** Runs the price grid's use case in its own transaction, as the CLI's actor; it writes its audit row itself. */
export function savePriceGrid(
  context: AdminContext,
  change: { branchId: number; grid: PriceGrid; from?: string | null },
): Promise<SetPriceGridResult> {
  return runTransaction(context.db, { name: 'admin' }, (trx) =>
    setPriceGrid(
      trx,
      { clock: context.clock },
      {
        actor: actorOf(context),
        branchId: change.branchId,
        defaultPriceCents: change.grid.defaultPriceCents,
        bands: change.grid.priceRules,
        from: change.from,
      },
    ),
  );
}

/** What a saved grid did, for the operator. */
export function describeSaved(branchId: number, saved: SetPriceGridResult): string {
  const kept = saved.kept > 0 ? `; ${saved.kept} booked or held kept their price until free` : '';
  return `prices of branch ${branchId} apply from ${saved.from}: ${saved.repriced} slots re-priced${kept}`;
}

export const priceCommands = {
  'prices show': defineCommand({
    usage: 'prices show <branch-id> [--json]',
    summary:
      'Shows the price grid of a branch today and the dated grids after it (weekday 1 = Monday, times in its zone).',
    schema: z.object({ args: z.tuple([idArgument('the branch id')]), ...jsonOption }),
    async run({ args: [branchId], json }, context) {
      const grids = await priceGridsFromToday(context.db, branchId, context.clock.now());
      if (!grids) throw new UsageError(`there is no branch ${branchId}`);
      const listed = [
        { from: grids.today.toString(), grid: grids.current },
        ...grids.later.map((dated) => ({ from: dated.startsOn.toString(), grid: dated.grid })),
      ];
      if (json) {
        context.io.out(
          JSON.stringify(
            listed.map(({ from, grid }) => ({
              from,
              default_price_eur: money(grid.defaultPriceCents),
              bands: bandRows(grid),
            })),
            null,
            2,
          ),
        );
        return;
      }
      for (const { from, grid } of listed) {
        context.io.out(`from ${from}: ${money(grid.defaultPriceCents)} € unless a band says otherwise`);
        if (grid.priceRules.length > 0) table(context.io, bandRows(grid), false);
      }
    },
  }),

  'prices set': defineCommand({
    usage:
      'prices set <branch-id> --default <eur> [--band <weekdays>@<HH:MM>-<HH:MM>=<eur> ...] [--from <YYYY-MM-DD>]',
    summary:
      'Replaces the price grid of a branch (bands may not overlap) and re-prices its free slots at once; with --from, from that day of the branch’s calendar on. Booked and held slots keep their price.',
    schema: z.object({
      args: z.tuple([idArgument('the branch id')]),
      default: euros(),
      band: bands().optional(),
      from: z.string().optional(),
    }),
    async run({ args: [branchId], default: defaultPriceCents, band, from }, context) {
      const saved = await savePriceGrid(context, {
        branchId,
        grid: { defaultPriceCents, priceRules: band ?? [] },
        from: from ?? null,
      });
      context.io.out(describeSaved(branchId, saved));
    },
  }),
};
