import { z } from 'zod';
import { createBranchService } from '../../branches/service.ts';
import {
  auditedChange,
  defineCommand,
  euros,
  idArgument,
  jsonOption,
  minuteOfDay,
  money,
  table,
  UsageError,
} from '../command.ts';

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
    summary: 'Adds a price band on the given weekdays (1 = Monday ... 7 = Sunday).',
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
      const ids = await auditedChange(context, async (trx) => {
        const branches = createBranchService({ ...context, db: trx });
        if (!(await branches.findBranch(branchId))) throw new UsageError(`there is no branch ${branchId}`);
        const before = await branches.listPriceRules(branchId);
        const added = await branches.addPriceBand(branchId, {
          weekdays,
          startsAtMinute: from,
          endsAtMinute: to,
          priceCents: price,
        });
        const after = await branches.listPriceRules(branchId);
        return {
          result: added,
          audit: { action: 'branch.prices', entityType: 'branch', entityId: branchId, before, after },
        };
      });
      context.io.out(`added price rule${ids.length > 1 ? 's' : ''} ${ids.join(', ')}`);
    },
  }),

  'price-rule remove': defineCommand({
    usage: 'price-rule remove <rule-id>',
    summary: 'Removes a price band.',
    schema: z.object({ args: z.tuple([idArgument('the price rule id')]) }),
    async run({ args: [ruleId] }, context) {
      await auditedChange(context, async (trx) => {
        if (!(await createBranchService({ ...context, db: trx }).removePriceRule(ruleId))) {
          throw new UsageError(`there is no price rule ${ruleId}`);
        }
        return {
          result: undefined,
          audit: { action: 'price_rule.remove', entityType: 'price_rule', entityId: ruleId },
        };
      });
      context.io.out(`removed price rule ${ruleId}`);
    },
  }),
};
