import { z } from 'zod';
import {
  adminCreditPack,
  createCreditPack,
  packSettings,
  updateCreditPack,
  walletRepository,
} from '../../booking/index.ts';
import { runChange } from '../change.ts';
import {
  activation,
  activationOptions,
  argument,
  BOTH_ACTIVATIONS,
  decimal,
  defineCommand,
  flag,
  listCommand,
  oneOf,
  orNone,
  refuseBothActivations,
  wholeNumber,
} from '../command.ts';

// Prepaid packs (issue 31) from the command line: the same use cases as the console's Pacotes page, audited as
// the CLI. `--credit` is hours (quarters, as 2.5) with `--unit hours`, euros with `--unit eur`.

const weekdays = () =>
  z.string().transform((raw, context) => {
    const days = raw.split(',').map((day) => Number(day.trim()));
    if (days.length === 0 || days.some((day) => !Number.isInteger(day) || day < 1 || day > 7)) {
      context.addIssue({
        code: 'custom',
        message: `must be ISO weekdays 1 (Monday) to 7 (Sunday), as 1,2,3, not '${raw}'`,
      });
      return z.NEVER;
    }
    return [...new Set(days)];
  });
const time = () =>
  z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, { error: 'must be a time such as 07:00' });

const settingOptions = {
  name: z.string().min(1).max(80).optional(),
  branch: wholeNumber({ min: 1 }).optional(),
  'all-branches': flag(),
  'one-branch': flag(),
  unit: oneOf(['hours', 'eur'] as const).optional(),
  credit: decimal().optional(),
  price: decimal().optional(),
  'valid-days': wholeNumber({ min: 1, max: 1095 }).optional(),
  weekdays: orNone(weekdays()).optional(),
  from: orNone(time()).optional(),
  to: orNone(time()).optional(),
};

type SettingOptions = {
  name?: string;
  branch?: number;
  'all-branches'?: boolean;
  'one-branch'?: boolean;
  unit?: 'hours' | 'eur';
  credit?: number;
  price?: number;
  'valid-days'?: number;
  weekdays?: number[] | null;
  from?: string | null;
  to?: string | null;
  active?: boolean;
  inactive?: boolean;
};

/** The options given, in the contract's shape the use case reads (what the console sends). */
function contractShape(input: SettingOptions) {
  return {
    name: input.name,
    branch_id: input.branch,
    all_branches: input['all-branches'] ? true : input['one-branch'] ? false : undefined,
    unit: input.unit,
    credit: input.credit,
    price_eur: input.price,
    validity_days: input['valid-days'],
    weekdays: input.weekdays,
    from_time: input.from,
    to_time: input.to,
    active: activation(input),
  };
}

const ERRORS = {
  branch_not_found: 'there is no such branch',
  credit_pack_not_found: 'there is no such pack',
  invalid_credit_pack_hours: '--from and --to go together, and --to must be after --from',
};

export const packCommands = {
  'pack list': listCommand({
    usage: 'pack list [--json]',
    summary: 'Lists prepaid packs: credit, price, validity, scope, on sale, how many sold.',
    async list({ db }) {
      return (await walletRepository.listPacks(db, { onSale: false })).map((pack) => {
        const view = adminCreditPack(pack);
        return {
          id: view.id,
          name: view.name,
          branch: view.branch.name,
          all_branches: view.all_branches,
          credit: `${view.credit} ${view.unit}`,
          price_eur: view.price_eur,
          valid_days: view.validity_days,
          weekdays: view.weekdays?.join(',') ?? 'every day',
          hours: view.from_time ? `${view.from_time}-${view.to_time}` : 'any time',
          active: view.active,
          sold: view.sold,
        };
      });
    },
  }),

  'pack create': defineCommand({
    usage:
      'pack create --name <text> --branch <id> --unit hours|eur --credit <n> --price <euros> --valid-days <n> [--all-branches] [--weekdays 1,2,3,4,5] [--from 07:00 --to 12:00] [--inactive]',
    summary: 'Puts a prepaid pack on sale (audited).',
    schema: z
      .object({ args: z.tuple([]), ...settingOptions, ...activationOptions })
      .refine(refuseBothActivations, BOTH_ACTIVATIONS)
      .refine(
        (input) =>
          input.name !== undefined &&
          input.branch !== undefined &&
          input.unit !== undefined &&
          input.credit !== undefined &&
          input.price !== undefined &&
          input['valid-days'] !== undefined,
        { message: '--name, --branch, --unit, --credit, --price and --valid-days are required' },
      )
      .refine((input) => (input.credit ?? 1) > 0 && (input.price ?? 1) > 0, {
        message: '--credit and --price must be above 0',
      }),
    async run(input, context) {
      const id = await runChange(
        context,
        (trx, actor) =>
          createCreditPack(trx, context, { actor, settings: packSettings(contractShape(input), null) }),
        ERRORS,
      );
      context.io.out(`created pack ${id}`);
    },
  }),

  'pack update': defineCommand({
    usage:
      'pack update <ID> [--name <text>] [--branch <id>] [--all-branches|--one-branch] [--unit hours|eur --credit <n>] [--price <euros>] [--valid-days <n>] [--weekdays 1,2,3|none] [--from 07:00|none --to 12:00|none] [--active|--inactive]',
    summary: 'Changes a pack for the packs sold from now on, or takes it off sale (--inactive); audited.',
    schema: z
      .object({ args: z.tuple([argument('the pack id')]), ...settingOptions, ...activationOptions })
      .refine(refuseBothActivations, BOTH_ACTIVATIONS)
      .refine((input) => (input.credit ?? 1) > 0 && (input.price ?? 1) > 0, {
        message: '--credit and --price must be above 0',
      }),
    async run(input, context) {
      const packId = Number(input.args[0]);
      if (!Number.isInteger(packId) || packId < 1) throw new Error('the pack id is a whole number');
      await runChange(
        context,
        (trx, actor) =>
          updateCreditPack(trx, context, {
            actor,
            packId,
            changes: (current) => packSettings(contractShape(input), current),
          }),
        ERRORS,
      );
      context.io.out(`updated pack ${packId}`);
    },
  }),
};
