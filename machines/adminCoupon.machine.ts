import { assign } from 'xstate';
import type { AdminCoupon, AdminCouponCreate, AdminCouponUpdate } from './adminConsole.actors.ts';
import { errorOf, failedBackTo } from './adminErrors.ts';
import { adminMachineSetup } from './adminMachine.ts';
import { ApiError } from './api.ts';
import type { Feedback } from './feedback.ts';
import { machineTypes } from './machine-types.ts';
import { placeholder } from './placeholder.ts';

/**
 * A coupon as the owner types it (issue 32): the code, the discount in whole percent, the first and last days
 * it is valid ('YYYY-MM-DD', UTC days; '' for from now / no end), the caps ('' for none) and the day from which
 * new accounts may no longer use it ('' for any account: the early bird's opening date).
 */
export type CouponFields = {
  code: string;
  percent: string;
  from: string;
  until: string;
  maxUses: string;
  perUser: string;
  registeredBefore: string;
};

export const EMPTY_COUPON: CouponFields = {
  code: '',
  percent: '',
  from: '',
  until: '',
  maxUses: '',
  perUser: '',
  registeredBefore: '',
};

/**
 * What is wrong with a field, for the view to word beside it: left empty, not of its form, a code another coupon
 * has, the last day before the first.
 */
export type CouponProblem = 'missing' | 'invalid' | 'taken' | 'before-start';

export type CouponProblems = Partial<Record<keyof CouponFields, CouponProblem>>;

const COUPON_CODE = /^[A-Za-z0-9_-]{2,40}$/;
/** The contract's largest cap (openapi: AdminCouponCreate). */
const MAX_CAP = 1_000_000;

const capOf = (typed: string) => {
  const value = typed.trim();
  return /^\d{1,7}$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_CAP ? Number(value) : null;
};

/** What is wrong with each field, by field; an empty answer is a coupon. */
export function couponProblems(fields: CouponFields): CouponProblems {
  const problems: CouponProblems = {};
  const code = fields.code.trim();
  if (code === '') problems.code = 'missing';
  else if (!COUPON_CODE.test(code)) problems.code = 'invalid';
  const percent = fields.percent.trim();
  if (percent === '') problems.percent = 'missing';
  else if (!/^\d{1,3}$/.test(percent) || Number(percent) < 1 || Number(percent) > 100)
    problems.percent = 'invalid';
  // ISO days compare as text.
  if (fields.from !== '' && fields.until !== '' && fields.until < fields.from)
    problems.until = 'before-start';
  if (fields.maxUses.trim() !== '' && capOf(fields.maxUses) === null) problems.maxUses = 'invalid';
  if (fields.perUser.trim() !== '' && capOf(fields.perUser) === null) problems.perUser = 'invalid';
  return problems;
}

const hasProblems = (fields: CouponFields) => Object.keys(couponProblems(fields)).length > 0;

/** The coupon the fields say (valid from the start of its first day to the end of its last, in UTC), or null. */
export function couponOf(fields: CouponFields): AdminCouponCreate | null {
  if (hasProblems(fields)) return null;
  const cap = (typed: string) => (typed.trim() === '' ? null : capOf(typed));
  return {
    code: fields.code.trim().toUpperCase(),
    discount: Number(fields.percent.trim()) / 100,
    ...(fields.from === '' ? {} : { valid_from: `${fields.from}T00:00:00Z` }),
    valid_until: fields.until === '' ? null : `${fields.until}T23:59:59Z`,
    max_uses: cap(fields.maxUses),
    max_uses_per_user: cap(fields.perUser),
    registered_before: fields.registeredBefore === '' ? null : `${fields.registeredBefore}T00:00:00Z`,
  };
}

/** A stored coupon as its form shows it. */
export function fieldsOfCoupon(coupon: AdminCoupon): CouponFields {
  const day = (instant: string | null) => (instant === null ? '' : instant.slice(0, 10));
  return {
    code: coupon.code,
    percent: String(Math.round(coupon.discount * 100)),
    from: day(coupon.valid_from),
    until: day(coupon.valid_until),
    maxUses: coupon.max_uses === null ? '' : String(coupon.max_uses),
    perUser: coupon.max_uses_per_user === null ? '' : String(coupon.max_uses_per_user),
    registeredBefore: day(coupon.registered_before),
  };
}

/** What the fields change of a stored coupon: only what differs from the stored one read the same way. */
export function couponChanges(coupon: AdminCoupon, fields: CouponFields): AdminCouponUpdate {
  const edited = couponOf(fields);
  const stored = couponOf(fieldsOfCoupon(coupon));
  const changes: AdminCouponUpdate = {};
  if (edited === null || stored === null) return changes;
  for (const [key, value] of Object.entries(edited)) {
    if (key !== 'code' && value !== stored[key as keyof AdminCouponCreate])
      Object.assign(changes, { [key]: value });
  }
  return changes;
}

/** The contract's names of the fields a refusal may name, as the form's. */
const FIELD_OF_CONTRACT: Record<string, keyof CouponFields> = {
  code: 'code',
  discount: 'percent',
  valid_from: 'from',
  valid_until: 'until',
  max_uses: 'maxUses',
  max_uses_per_user: 'perUser',
  registered_before: 'registeredBefore',
};

/** The fields a failed save names (a taken code, a field the server refused), or none. */
export function refusedFields(error: unknown): CouponProblems {
  if (!(error instanceof ApiError)) return {};
  if (error.code === 'coupon_exists') return { code: 'taken' };
  const refused: CouponProblems = {};
  for (const problem of error.fields) {
    const field = FIELD_OF_CONTRACT[problem.field];
    if (field) refused[field] = 'invalid';
  }
  return refused;
}

export type AdminCouponContext = {
  /** The coupon being changed; null for a new one. */
  coupon: AdminCoupon | null;
  fields: CouponFields;
  /** The fields the owner has left (their problems show). */
  touched: (keyof CouponFields)[];
  /** A save was asked with problems: every field's problem shows. */
  checked: boolean;
  /** What the server refused of the last save, by field, until that field changes. */
  refused: CouponProblems;
  error: Feedback | null;
};

export type AdminCouponEvent =
  | { type: 'field.change'; patch: Partial<CouponFields> }
  | { type: 'field.leave'; field: keyof CouponFields }
  | { type: 'coupon.save' };

/** The problems the form shows now: a field's once it was left, every one once a save was asked, the server's. */
export function shownCouponProblems(context: AdminCouponContext): CouponProblems {
  const problems = couponProblems(context.fields);
  const shown = context.checked
    ? problems
    : Object.fromEntries(
        Object.entries(problems).filter(([field]) => context.touched.includes(field as keyof CouponFields)),
      );
  return { ...context.refused, ...shown };
}

const withoutRefused = (refused: CouponProblems, fields: readonly string[]) =>
  Object.fromEntries(Object.entries(refused).filter(([field]) => !fields.includes(field)));

const saved = { touched: [], checked: false, refused: {} };

/**
 * The console's coupon form (owners): a new coupon (`coupon` null) or a stored one's changes. Saving with a problem
 * in a field never does nothing silently: it shows every problem beside its field. A new coupon is created and
 * every field empties for the next; a stored one's changes are sent (when there are any). Either way the page is
 * told (`saved`: it reloads its list, closes the editor). A refusal naming fields shows beside them; another
 * failure stays on the form with the server's sentence, the fields as typed.
 */
export const adminCouponMachine = adminMachineSetup({
  types: machineTypes<AdminCouponContext, AdminCouponEvent, { coupon: AdminCoupon | null }>(),
  calls: {
    createCoupon: placeholder<AdminCoupon, AdminCouponCreate>('createCoupon'),
    updateCoupon: placeholder<AdminCoupon, { code: string; update: AdminCouponUpdate }>('updateCoupon'),
  },
  reports: 'saved',
  fallback: 'generic',
  guards: {
    hasProblems: ({ context }) => hasProblems(context.fields),
    isNew: ({ context }) => context.coupon === null,
    hasChanges: ({ context }) =>
      context.coupon !== null && Object.keys(couponChanges(context.coupon, context.fields)).length > 0,
  },
}).createMachine({
  id: 'adminCoupon',
  context: ({ input }) => ({
    coupon: input.coupon,
    fields: input.coupon ? fieldsOfCoupon(input.coupon) : EMPTY_COUPON,
    touched: [],
    checked: false,
    refused: {},
    error: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'field.change': {
          actions: assign({
            fields: ({ context, event }) => ({ ...context.fields, ...event.patch }),
            refused: ({ context, event }) => withoutRefused(context.refused, Object.keys(event.patch)),
          }),
        },
        'field.leave': {
          actions: assign({
            touched: ({ context, event }) =>
              context.touched.includes(event.field) ? context.touched : [...context.touched, event.field],
          }),
        },
        'coupon.save': [
          { guard: 'hasProblems', actions: assign({ checked: true }) },
          { guard: 'isNew', target: 'creating' },
          { guard: 'hasChanges', target: 'updating' },
          // Nothing changed: the editor closes as after a save.
          { actions: 'saved' },
        ],
      },
    },
    creating: {
      entry: assign({ error: null, refused: {} }),
      invoke: {
        id: 'createCoupon',
        src: 'createCoupon',
        input: ({ context }) => couponOf(context.fields)!,
        onDone: { target: 'editing', actions: [assign({ fields: EMPTY_COUPON, ...saved }), 'saved'] },
        onError: refusedBackToEditing(),
      },
    },
    updating: {
      entry: assign({ error: null, refused: {} }),
      invoke: {
        id: 'updateCoupon',
        src: 'updateCoupon',
        input: ({ context }) => ({
          code: context.coupon!.code,
          update: couponChanges(context.coupon!, context.fields),
        }),
        onDone: {
          target: 'editing',
          actions: [
            assign({
              coupon: ({ event }) => event.output,
              fields: ({ event }) => fieldsOfCoupon(event.output),
              ...saved,
            }),
            'saved',
          ],
        },
        onError: refusedBackToEditing(),
      },
    },
  },
});

/** A failed save: the session's end as every console form's, a refusal of fields beside them, else the sentence. */
function refusedBackToEditing() {
  const [sessionEnd, otherwise] = failedBackTo('editing');
  return [
    sessionEnd,
    {
      guard: ({ event }: { event: { error: unknown } }) =>
        Object.keys(refusedFields(errorOf({ event }).error)).length > 0,
      target: 'editing' as const,
      actions: assign<
        AdminCouponContext,
        { type: string; error: unknown },
        undefined,
        AdminCouponEvent,
        never
      >({
        refused: ({ event }) => refusedFields(event.error),
      }),
    },
    otherwise,
  ];
}
