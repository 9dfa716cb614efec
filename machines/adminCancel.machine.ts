import { assign } from 'xstate';
import { failedBackTo } from './adminErrors.ts';
import { adminMachineSetup } from './adminMachine.ts';
import type { Feedback } from './feedback.ts';
import { placeholder } from './placeholder.ts';
import { machineTypes } from './machine-types.ts';

/** `policy`: the refund policy's amount; the others override it. Every cancellation states a reason (audited). */
export type RefundMode = 'policy' | 'full' | 'none' | 'amount';

export type AdminCancelInput = {
  bookingId: number;
  /** What the member paid, in cents: the most any refund can be. */
  paidCents: number;
  /** What the refund policy gives now, in cents. */
  policyCents: number;
  /**
   * The staff refund ceiling in cents (a refund above it is sent to the owners for approval), or null for an
   * owner, who has none.
   */
  ceilingCents: number | null;
};

export type AdminCancelContext = AdminCancelInput & {
  mode: RefundMode;
  /** The amount as typed, in euros ('12,50' or '12.50'). */
  amount: string;
  reason: string;
  error: Feedback | null;
};

export type AdminCancelEvent =
  | { type: 'mode.change'; mode: RefundMode }
  | { type: 'amount.change'; value: string }
  | { type: 'reason.change'; value: string }
  | { type: 'cancel.submit' };

/** What the cancellation answered: done, or sent to the owners for approval (a staff refund above the ceiling). */
export type AdminCancelOutcome = 'cancelled' | 'sent-for-approval';

export type AdminCancelRequest = {
  bookingId: number;
  refund: { mode: 'policy' } | { mode: 'full' | 'none' } | { mode: 'amount'; amount_cents: number };
  reason: string;
};

/** Euros as typed (comma or point, at most two decimals) in cents; null when it is not an amount. */
export function eurosToCents(typed: string): number | null {
  const match = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(typed.trim());
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** The refund the form asks for, in cents (0 while a typed amount is no amount). */
export function refundCentsOf(
  context: Pick<AdminCancelContext, 'mode' | 'amount' | 'paidCents' | 'policyCents'>,
): number {
  if (context.mode === 'policy') return context.policyCents;
  if (context.mode === 'full') return context.paidCents;
  if (context.mode === 'none') return 0;
  return eurosToCents(context.amount) ?? 0;
}

/** Whether sending the form asks the owners rather than cancels: a staff refund above the ceiling. */
export function needsApproval(
  context: Pick<AdminCancelContext, 'mode' | 'amount' | 'paidCents' | 'policyCents' | 'ceilingCents'>,
): boolean {
  return context.ceilingCents !== null && refundCentsOf(context) > context.ceilingCents;
}

/** Why the form cannot be sent yet, or null when it can. */
export function cancelProblem(
  context: Pick<AdminCancelContext, 'mode' | 'amount' | 'reason' | 'paidCents'>,
): 'amount-invalid' | 'amount-above-paid' | 'reason-missing' | null {
  if (context.mode === 'amount') {
    const cents = eurosToCents(context.amount);
    if (cents === null) return 'amount-invalid';
    if (cents > context.paidCents) return 'amount-above-paid';
  }
  if (context.reason.trim() === '') return 'reason-missing';
  return null;
}

function requestOf(context: AdminCancelContext): AdminCancelRequest {
  const reason = context.reason.trim();
  if (context.mode === 'amount')
    return {
      bookingId: context.bookingId,
      refund: { mode: 'amount', amount_cents: eurosToCents(context.amount) ?? 0 },
      reason,
    };
  return { bookingId: context.bookingId, refund: { mode: context.mode }, reason };
}

/**
 * An operator cancels a booking (issue 18): with the refund policy's amount, or overriding it (full, none, or
 * an amount up to what was paid), always with a reason. The form is checked before any call; while the cancellation
 * runs nothing else can be sent, and a failure keeps the form as it was. A staff member's refund above the ceiling
 * (`needsApproval`, said before sending) is sent to the owners instead (issue 32): the server answers so and the
 * flow ends `sentForApproval`. Either way the booking page reloads (`cancelled`).
 */
export const adminCancelMachine = adminMachineSetup({
  types: machineTypes<AdminCancelContext, AdminCancelEvent, AdminCancelInput>(),
  calls: { cancelBooking: placeholder<AdminCancelOutcome, AdminCancelRequest>('cancelBooking') },
  reports: 'cancelled',
  fallback: 'can-not-cancel-bookings',
  guards: { canSubmit: ({ context }) => cancelProblem(context) === null },
}).createMachine({
  id: 'adminCancel',
  context: ({ input }) => ({ ...input, mode: 'policy', amount: '', reason: '', error: null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'mode.change': { actions: assign({ mode: ({ event }) => event.mode, error: null }) },
        'amount.change': { actions: assign({ amount: ({ event }) => event.value, error: null }) },
        'reason.change': { actions: assign({ reason: ({ event }) => event.value, error: null }) },
        'cancel.submit': { guard: 'canSubmit', target: 'cancelling' },
      },
    },
    cancelling: {
      invoke: {
        id: 'cancelBooking',
        src: 'cancelBooking',
        input: ({ context }) => requestOf(context),
        onDone: [
          {
            guard: ({ event }) => event.output === 'sent-for-approval',
            target: 'sentForApproval',
            actions: 'cancelled',
          },
          { target: 'cancelled', actions: 'cancelled' },
        ],
        onError: failedBackTo('editing'),
      },
    },
    cancelled: { type: 'final' },
    sentForApproval: { type: 'final' },
  },
});
