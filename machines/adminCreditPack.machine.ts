import { assign } from 'xstate';
import type {
  AdminCreditPack,
  AdminCreditPackCreate,
  AdminCreditPackUpdate,
  CreditUnit,
} from './adminConsole.actors.ts';
import { failedBackTo } from './adminErrors.ts';
import { adminMachineSetup } from './adminMachine.ts';
import type { Feedback } from './feedback.ts';
import { machineTypes } from './machine-types.ts';
import { placeholder } from './placeholder.ts';

/**
 * A prepaid pack as the owner types it (issue 31): numbers as typed ('12,50' or '12.50'), the selling branch's id
 * ('' while none is chosen), the ISO weekdays ticked (none: every day) and the branch-local hours ('' for none).
 */
export type CreditPackFields = {
  name: string;
  branchId: string;
  allBranches: boolean;
  unit: CreditUnit;
  credit: string;
  price: string;
  validityDays: string;
  weekdays: number[];
  fromTime: string;
  toTime: string;
};

export const EMPTY_CREDIT_PACK: CreditPackFields = {
  name: '',
  branchId: '',
  allBranches: false,
  unit: 'hours',
  credit: '',
  price: '',
  validityDays: '',
  weekdays: [],
  fromTime: '',
  toTime: '',
};

/** The contract's limits (openapi: AdminCreditPackCreate). */
export const CREDIT_PACK_LIMITS = { name: 80, hours: 1000, euros: 100_000, validityDays: 1095 } as const;

/**
 * What is wrong with a field, for the view to word beside it: left empty, not a number or a time, zero or less,
 * above the contract's limit, hours not in quarters, euros with more than cents, a time without the other one,
 * the hours ending at or before they start.
 */
export type CreditPackProblem =
  | 'missing'
  | 'invalid'
  | 'too-long'
  | 'not-positive'
  | 'too-large'
  | 'not-quarters'
  | 'not-cents'
  | 'not-after-start';

export type CreditPackProblems = Partial<Record<keyof CreditPackFields, CreditPackProblem>>;

/** A number as typed ('12,50', '12.5', '-3'): its value and how many decimals it has, or null when it is none. */
function numberOf(typed: string): { value: number; decimals: number } | null {
  const match = /^(-?)(\d{1,9})(?:[.,](\d{1,6}))?$/.exec(typed.trim());
  if (!match) return null;
  const [, sign = '', whole = '', fraction = ''] = match;
  return {
    value: Number(`${sign}${whole}.${fraction || '0'}`),
    decimals: fraction.replace(/0+$/, '').length,
  };
}

function amountProblem(typed: string, max: number, quarters: boolean): CreditPackProblem | null {
  if (typed.trim() === '') return 'missing';
  const number = numberOf(typed);
  if (number === null) return 'invalid';
  if (number.value <= 0) return 'not-positive';
  if (number.value > max) return 'too-large';
  if (quarters)
    return number.decimals > 2 || Math.round(number.value * 100) % 25 !== 0 ? 'not-quarters' : null;
  return number.decimals > 2 ? 'not-cents' : null;
}

/** A time of day as typed ('7:00', '07h30', '24:00') as the contract writes it ('07:00'), or null. */
export function timeOf(typed: string): string | null {
  const match = /^(\d{1,2})[:h.](\d{2})$/.exec(typed.trim());
  if (!match) return null;
  const time = `${match[1]!.padStart(2, '0')}:${match[2]}`;
  return /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/.test(time) ? time : null;
}

/** What is wrong with each field, by field; an empty answer is a pack. */
export function creditPackProblems(fields: CreditPackFields): CreditPackProblems {
  const problems: CreditPackProblems = {};
  const name = fields.name.trim();
  if (name === '') problems.name = 'missing';
  else if (name.length > CREDIT_PACK_LIMITS.name) problems.name = 'too-long';
  if (fields.branchId === '') problems.branchId = 'missing';
  const hours = fields.unit === 'hours';
  const credit = amountProblem(
    fields.credit,
    hours ? CREDIT_PACK_LIMITS.hours : CREDIT_PACK_LIMITS.euros,
    hours,
  );
  if (credit) problems.credit = credit;
  const price = amountProblem(fields.price, CREDIT_PACK_LIMITS.euros, false);
  if (price) problems.price = price;
  const days = fields.validityDays.trim();
  if (days === '') problems.validityDays = 'missing';
  else if (!/^\d{1,4}$/.test(days) || Number(days) < 1 || Number(days) > CREDIT_PACK_LIMITS.validityDays)
    problems.validityDays = 'invalid';
  const from = fields.fromTime.trim();
  const to = fields.toTime.trim();
  if (from !== '' && timeOf(from) === null) problems.fromTime = 'invalid';
  if (to !== '' && timeOf(to) === null) problems.toTime = 'invalid';
  if (from === '' && to !== '') problems.fromTime = 'missing';
  if (to === '' && from !== '') problems.toTime = 'missing';
  const start = timeOf(from);
  const end = timeOf(to);
  if (start !== null && end !== null && end <= start) problems.toTime = 'not-after-start';
  return problems;
}

const hasProblems = (fields: CreditPackFields) => Object.keys(creditPackProblems(fields)).length > 0;
const amount = (typed: string) => numberOf(typed)!.value;

/** The weekdays ticked as the contract takes them: in order, null for none (every day). */
const weekdaysOf = (weekdays: readonly number[]) =>
  weekdays.length === 0 ? null : [...new Set(weekdays)].sort((a, b) => a - b);

/** The pack the fields say, or null while they say none (a problem in a field). */
export function creditPackOf(fields: CreditPackFields): AdminCreditPackCreate | null {
  if (hasProblems(fields)) return null;
  return {
    name: fields.name.trim(),
    branch_id: Number(fields.branchId),
    all_branches: fields.allBranches,
    unit: fields.unit,
    credit: amount(fields.credit),
    price_eur: amount(fields.price),
    validity_days: Number(fields.validityDays.trim()),
    weekdays: weekdaysOf(fields.weekdays),
    from_time: fields.fromTime.trim() === '' ? null : timeOf(fields.fromTime),
    to_time: fields.toTime.trim() === '' ? null : timeOf(fields.toTime),
  };
}

/** A stored pack as its form shows it. */
export function fieldsOfPack(pack: AdminCreditPack): CreditPackFields {
  return {
    name: pack.name,
    branchId: String(pack.branch.id),
    allBranches: pack.all_branches,
    unit: pack.unit,
    credit: String(pack.credit),
    price: String(pack.price_eur),
    validityDays: String(pack.validity_days),
    weekdays: pack.weekdays ?? [],
    fromTime: pack.from_time ?? '',
    toTime: pack.to_time ?? '',
  };
}

/** What the fields change of a stored pack (only what differs; nothing when they say no pack). */
export function creditPackChanges(pack: AdminCreditPack, fields: CreditPackFields): AdminCreditPackUpdate {
  const edited = creditPackOf(fields);
  if (edited === null) return {};
  const stored: AdminCreditPackCreate = {
    name: pack.name,
    branch_id: pack.branch.id,
    all_branches: pack.all_branches,
    unit: pack.unit,
    credit: pack.credit,
    price_eur: pack.price_eur,
    validity_days: pack.validity_days,
    weekdays: weekdaysOf(pack.weekdays ?? []),
    from_time: pack.from_time,
    to_time: pack.to_time,
  };
  const changes: AdminCreditPackUpdate = {};
  for (const [key, value] of Object.entries(edited))
    if (JSON.stringify(value) !== JSON.stringify(stored[key as keyof AdminCreditPackCreate]))
      Object.assign(changes, { [key]: value });
  return changes;
}

export type AdminCreditPackContext = {
  /** The pack being changed; null for a new one. */
  pack: AdminCreditPack | null;
  fields: CreditPackFields;
  /** The fields the owner has left (their problems show). */
  touched: (keyof CreditPackFields)[];
  /** A save was asked with problems: every field's problem shows. */
  checked: boolean;
  error: Feedback | null;
};

export type AdminCreditPackEvent =
  | { type: 'field.change'; patch: Partial<CreditPackFields> }
  | { type: 'field.leave'; field: keyof CreditPackFields }
  | { type: 'pack.save' };

/** The problems the form shows now: a field's once it was left, every one once a save was asked. */
export function shownProblems(context: AdminCreditPackContext): CreditPackProblems {
  const problems = creditPackProblems(context.fields);
  if (context.checked) return problems;
  return Object.fromEntries(
    Object.entries(problems).filter(([field]) => context.touched.includes(field as keyof CreditPackFields)),
  );
}

/**
 * The console's credit pack form (owners, issue 31): a new pack (`pack` null) or a stored one's changes. Saving
 * with a problem in a field only shows every problem beside its field; a new pack with none is created (and
 * the form empties for the next), a stored one's changes are sent (when there are any) and the form shows the
 * pack as stored. Either way the page is told (`saved`: it reloads its list, closes the editor). A failure stays
 * on the form with the server's sentence, the fields as typed.
 */
export const adminCreditPackMachine = adminMachineSetup({
  types: machineTypes<AdminCreditPackContext, AdminCreditPackEvent, { pack: AdminCreditPack | null }>(),
  calls: {
    createPack: placeholder<AdminCreditPack, AdminCreditPackCreate>('createPack'),
    updatePack: placeholder<AdminCreditPack, { id: number; update: AdminCreditPackUpdate }>('updatePack'),
  },
  reports: 'saved',
  fallback: 'generic',
  guards: {
    hasProblems: ({ context }) => hasProblems(context.fields),
    isNew: ({ context }) => context.pack === null,
    hasChanges: ({ context }) =>
      context.pack !== null && Object.keys(creditPackChanges(context.pack, context.fields)).length > 0,
  },
}).createMachine({
  id: 'adminCreditPack',
  context: ({ input }) => ({
    pack: input.pack,
    fields: input.pack ? fieldsOfPack(input.pack) : EMPTY_CREDIT_PACK,
    touched: [],
    checked: false,
    error: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'field.change': {
          actions: assign({ fields: ({ context, event }) => ({ ...context.fields, ...event.patch }) }),
        },
        'field.leave': {
          actions: assign({
            touched: ({ context, event }) =>
              context.touched.includes(event.field) ? context.touched : [...context.touched, event.field],
          }),
        },
        'pack.save': [
          { guard: 'hasProblems', actions: assign({ checked: true }) },
          { guard: 'isNew', target: 'creating' },
          { guard: 'hasChanges', target: 'updating' },
        ],
      },
    },
    creating: {
      entry: assign({ error: null }),
      invoke: {
        id: 'createPack',
        src: 'createPack',
        input: ({ context }) => creditPackOf(context.fields)!,
        onDone: {
          target: 'editing',
          actions: [assign({ fields: EMPTY_CREDIT_PACK, touched: [], checked: false }), 'saved'],
        },
        onError: failedBackTo('editing'),
      },
    },
    updating: {
      entry: assign({ error: null }),
      invoke: {
        id: 'updatePack',
        src: 'updatePack',
        input: ({ context }) => ({
          id: context.pack!.id,
          update: creditPackChanges(context.pack!, context.fields),
        }),
        onDone: {
          target: 'editing',
          actions: [
            assign({
              pack: ({ event }) => event.output,
              fields: ({ event }) => fieldsOfPack(event.output),
              touched: [],
              checked: false,
            }),
            'saved',
          ],
        },
        onError: failedBackTo('editing'),
      },
    },
  },
});
