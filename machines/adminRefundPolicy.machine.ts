import { assign } from 'xstate';
import { failedBackTo } from './adminErrors.ts';
import { adminMachineSetup } from './adminMachine.ts';
import type { RefundRatios } from './adminConsole.actors.ts';
import type { Feedback } from './feedback.ts';
import { placeholder } from './placeholder.ts';
import { machineTypes } from './machine-types.ts';

/** One line of the policy as the operator types it: hours before the start, and the percentage refunded. */
export type PolicyRow = { hours: string; percent: string };

export type AdminRefundPolicyContext = { rows: PolicyRow[]; error: Feedback | null };

export type AdminRefundPolicyEvent =
  | { type: 'row.change'; index: number; patch: Partial<PolicyRow> }
  | { type: 'row.add' }
  | { type: 'row.remove'; index: number }
  | { type: 'policy.save' };

/** The policy's lines, longest notice first. */
function rowsOf(ratios: RefundRatios): PolicyRow[] {
  return Object.entries(ratios)
    .map(([hours, ratio]) => ({ hours, percent: String(Math.round(ratio * 100)) }))
    .sort((a, b) => Number(b.hours) - Number(a.hours));
}

/** The ratios the lines say, or null while a line is not whole hours and a percentage, or no line is 0 hours. */
export function ratiosOf(rows: readonly PolicyRow[]): RefundRatios | null {
  const ratios: RefundRatios = {};
  for (const row of rows) {
    if (!/^\d{1,5}$/.test(row.hours) || !/^\d{1,3}$/.test(row.percent) || Number(row.percent) > 100)
      return null;
    ratios[String(Number(row.hours))] = Number(row.percent) / 100;
  }
  return '0' in ratios ? ratios : null;
}

/**
 * Editing the refund policy (issue 18, owners): the lines live here, the page only shows them and sends what
 * the operator types; saving takes only a policy that is one.
 */
export const adminRefundPolicyMachine = adminMachineSetup({
  types: machineTypes<AdminRefundPolicyContext, AdminRefundPolicyEvent, { ratios: RefundRatios }>(),
  calls: { saveRefundPolicy: placeholder<RefundRatios, RefundRatios>('saveRefundPolicy') },
  fallback: 'generic',
  guards: { isPolicy: ({ context }) => ratiosOf(context.rows) !== null },
}).createMachine({
  id: 'adminRefundPolicy',
  context: ({ input }) => ({ rows: rowsOf(input.ratios), error: null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'row.change': {
          target: 'editing',
          actions: assign({
            rows: ({ context, event }) =>
              context.rows.map((row, at) => (at === event.index ? { ...row, ...event.patch } : row)),
            error: null,
          }),
        },
        'row.add': {
          target: 'editing',
          actions: assign({ rows: ({ context }) => [...context.rows, { hours: '', percent: '' }] }),
        },
        'row.remove': {
          target: 'editing',
          actions: assign({
            rows: ({ context, event }) => context.rows.filter((_, at) => at !== event.index),
          }),
        },
        'policy.save': { guard: 'isPolicy', target: 'saving' },
      },
      initial: 'unsaved',
      states: { unsaved: {}, saved: {} },
    },
    saving: {
      invoke: {
        id: 'saveRefundPolicy',
        src: 'saveRefundPolicy',
        input: ({ context }) => ratiosOf(context.rows)!,
        onDone: {
          target: 'editing.saved',
          actions: assign({ rows: ({ event }) => rowsOf(event.output), error: null }),
        },
        onError: failedBackTo('editing'),
      },
    },
  },
});
