import { z } from 'zod';
import { bandOfRule, priceGridsFromToday, findPriceRule, createBranchService } from '../../catalog/index.ts';
import {
  defineCommand,
  euros,
  idArgument,
  jsonOption,
  minuteOfDay,
  money,
  table,
  UsageError,
} from '../command.ts';
import { describeSaved, savePriceGrid } from './prices.ts';

const clockTime = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/** '1,2,3,4,5' into weekday numbers. */
const weekdays = () =>
  z.string().transform((raw, context) => {
    const days = raw.split(',').map((day) => day.trim());
    if (days.some((day) => !/^[1-7]$/.test(day))) {
      context.addIssue({
        code: 'custom',
        message: 'is a comma list of 1 (Monday) to 7 (Sunday), e.g. 1,2,3,4,5',
      });
      return z.NEVER;
    }
    return days.map(Number);
  });

export const priceRuleCommands = {
  'price-rule list': defineCommand({
    usage: 'price-rule list <branch-id> [--json]',
    summary: 'Lists the price bands of a branch (weekday 1 = Monday, times in the branch’s zone).',
    schema: z.object({ args: z.tuple([idArgument('the branch id')]), ...jsonOption }),
    async run({ args: [branchId], json }, context) {
      const rules = await createBranchService(context).listPriceRules(branchId);
      table(
        context.io,
        rules.map((rule) => ({
          id: rule.id,
          weekday: rule.iso_weekday,
          from: clockTime(rule.starts_at_minute),
          to: clockTime(rule.ends_at_minute),
          price_eur: money(rule.price_cents),
        })),
        json,
      );
    },
  }),

  'price-rule add': defineCommand({
    usage: 'price-rule add <branch-id> --weekdays 1,2,3,4,5 --from 07:00 --to 10:00 --price <eur>',
    summary:
      'Adds a price band on the given weekdays (1 = Monday ... 7 = Sunday) to today’s grid and re-prices the free slots (as prices set).',
    schema: z
      .object({
        args: z.tuple([idArgument('the branch id')]),
        weekdays: weekdays(),
        from: minuteOfDay(false),
        to: minuteOfDay(true),
        price: euros(),
      })
      .refine((band) => band.to > band.from, { message: '--to must be later than --from' }),
    async run({ args: [branchId], weekdays, from, to, price }, context) {
      const grids = await priceGridsFromToday(context.db, branchId, context.clock.now());
      if (!grids) throw new UsageError(`there is no branch ${branchId}`);
      const added = [...new Set(weekdays)].map((isoWeekday) => ({
        isoWeekday,
        startsAtMinute: from,
        endsAtMinute: to,
        priceCents: price,
      }));
      const saved = await savePriceGrid(context, {
        branchId,
        grid: { ...grids.current, priceRules: [...grids.current.priceRules, ...added] },
      });
      const ids = (await createBranchService(context).listPriceRules(branchId))
        .filter((rule) =>
          added.some(
            (band) =>
              rule.iso_weekday === band.isoWeekday &&
              rule.starts_at_minute === from &&
              rule.ends_at_minute === to,
          ),
        )
        .map((rule) => rule.id);
      context.io.out(`added price rule${ids.length > 1 ? 's' : ''} ${ids.join(', ')}`);
      context.io.out(describeSaved(branchId, saved));
    },
  }),

  'price-rule remove': defineCommand({
    usage: 'price-rule remove <rule-id>',
    summary: 'Removes a price band of today’s grid and re-prices the free slots (as prices set).',
    schema: z.object({ args: z.tuple([idArgument('the price rule id')]) }),
    async run({ args: [ruleId] }, context) {
      const rule = await findPriceRule(context.db, ruleId);
      const grids = rule && (await priceGridsFromToday(context.db, rule.branch_id, context.clock.now()));
      if (!rule || !grids) throw new UsageError(`there is no price rule ${ruleId}`);
      const removed = bandOfRule(rule);
      const saved = await savePriceGrid(context, {
        branchId: rule.branch_id,
        grid: {
          ...grids.current,
          priceRules: grids.current.priceRules.filter(
            (band) =>
              band.isoWeekday !== removed.isoWeekday ||
              band.startsAtMinute !== removed.startsAtMinute ||
              band.endsAtMinute !== removed.endsAtMinute,
          ),
        },
      });
      context.io.out(`removed price rule ${ruleId}`);
      context.io.out(describeSaved(rule.branch_id, saved));
    },
  }),
};
