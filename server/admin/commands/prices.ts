import { z } from 'zod';
import {
  catalogRepository,
  priceGridsFromToday,
  removeDatePrice,
  setDatePrice,
  type DatePrice,
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
// (use-cases/set-price-grid.ts), at once or from a day of the branch's calendar; `date-price set|remove|list` give one
// date its own price or take it away through the date price's use case (use-cases/set-date-price.ts).

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

const HOURS = /^(\d{1,2}):(\d{2})-(\d{1,2}):(\d{2})=(\d+(?:[.,]\d{1,2})?)$/;

/** `--band 18:00-21:00=25`: a price over [from, to) of the date's day. */
const dateBands = () =>
  z.array(z.string()).transform((items, context) => {
    const parsed: DatePrice['bands'][number][] = [];
    for (const item of items) {
      const match = HOURS.exec(item);
      const price = match ? euros().safeParse(match[5]) : null;
      if (!match || !price?.success) {
        context.addIssue({
          code: 'custom',
          message: `--band must be <HH:MM>-<HH:MM>=<eur>, e.g. 18:00-21:00=25, not '${item}'`,
        });
        return z.NEVER;
      }
      const [, fromHour, fromMinute, toHour, toMinute] = match as unknown as string[];
      parsed.push({
        startsAtMinute: Number(fromHour) * 60 + Number(fromMinute),
        endsAtMinute: Number(toHour) * 60 + Number(toMinute),
        priceCents: price.data,
      });
    }
    return parsed;
  });

const isoDate = () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date is YYYY-MM-DD');

function describeDated(
  branchId: number,
  result: { date: string; repriced: number; kept: number },
  what: string,
) {
  const kept = result.kept > 0 ? `; ${result.kept} booked or held kept their price until free` : '';
  return `${what} of branch ${branchId} on ${result.date}: ${result.repriced} slots re-priced${kept}`;
}

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

  'date-price list': defineCommand({
    usage: 'date-price list <branch-id> [--json]',
    summary:
      'Lists the dates of a branch with a price of their own (a whole-day price and hours priced apart).',
    schema: z.object({ args: z.tuple([idArgument('the branch id')]), ...jsonOption }),
    async run({ args: [branchId], json }, context) {
      const rows = await catalogRepository.listPriceOverrides(context.db, branchId);
      table(
        context.io,
        rows.map((row) => ({
          date: row.local_date,
          day_price_eur: money(row.day_price_cents),
          bands: row.bands
            .map(
              (band) =>
                `${clockTime(band.starts_at_minute)}-${clockTime(band.ends_at_minute)}=${money(band.price_cents)}`,
            )
            .join(' '),
        })),
        json,
      );
    },
  }),

  'date-price set': defineCommand({
    usage: 'date-price set <branch-id> <YYYY-MM-DD> --day <eur> [--band <HH:MM>-<HH:MM>=<eur> ...]',
    summary:
      'Gives one date of the branch’s calendar its own price (a holiday, a peak day): the whole day, and hours priced apart; its free slots are re-priced at once, booked and held ones keep their price.',
    schema: z.object({
      args: z.tuple([idArgument('the branch id'), isoDate()]),
      day: euros(),
      band: dateBands().optional(),
    }),
    async run({ args: [branchId, date], day, band }, context) {
      const result = await runTransaction(context.db, { name: 'admin' }, (trx) =>
        setDatePrice(
          trx,
          { clock: context.clock },
          { actor: actorOf(context), branchId, date, price: { dayPriceCents: day, bands: band ?? [] } },
        ),
      );
      context.io.out(describeDated(branchId, result, 'the price'));
    },
  }),

  'date-price remove': defineCommand({
    usage: 'date-price remove <branch-id> <YYYY-MM-DD>',
    summary: 'Removes a date’s own price: its free slots go back to the price grid’s.',
    schema: z.object({ args: z.tuple([idArgument('the branch id'), isoDate()]) }),
    async run({ args: [branchId, date] }, context) {
      const result = await runTransaction(context.db, { name: 'admin' }, (trx) =>
        removeDatePrice(trx, { clock: context.clock }, { actor: actorOf(context), branchId, date }),
      );
      context.io.out(describeDated(branchId, result, 'the date’s own price is removed'));
    },
  }),
};
