import { assign } from 'xstate';
import { failedBackTo } from './adminErrors.ts';
import { adminMachineSetup } from './adminMachine.ts';
import type { Feedback } from './feedback.ts';
import { placeholder } from './placeholder.ts';
import type { components } from '../openapi/schema.gen.ts';
import { machineTypes } from './machine-types.ts';
import { withField } from './form-fields.ts';

export type ClosureFields = {
  branchId: number | null;
  timeZone: string;
  /** Local date-times of the branch as the inputs give them (yyyy-MM-ddTHH:mm). */
  from: string;
  to: string;
  reason: string;
};

export type ClosurePreview = components['schemas']['ClosurePreview'];

/** The period in the branch's local time; the actor turns it into instants in the branch's zone. */
export type ClosureRequest = { branchId: number; timeZone: string; from: string; to: string; reason: string };

export type AdminClosureContext = {
  fields: ClosureFields;
  preview: ClosurePreview | null;
  error: Feedback | null;
};

export type AdminClosureEvent =
  | { type: 'field.change'; field: 'from' | 'to' | 'reason'; value: string }
  | { type: 'branch.change'; branchId: number | null; timeZone: string }
  | { type: 'closure.preview' }
  | { type: 'closure.back' }
  | { type: 'closure.confirm' }
  | { type: 'closure.again' };

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/** A branch, a period that ends after it starts, and a reason (members are told it). */
export function isClosureComplete(fields: ClosureFields): boolean {
  return (
    fields.branchId !== null &&
    LOCAL_DATE_TIME.test(fields.from) &&
    LOCAL_DATE_TIME.test(fields.to) &&
    fields.from < fields.to &&
    fields.reason.trim() !== ''
  );
}

/**
 * Closing a branch for a period (issue 18): the operator names the branch, the period and the reason, sees the
 * bookings it affects, and confirms; the server cancels them with a full refund and a message to each member,
 * and keeps the slots closed. Going back to change the period forgets the list (it belongs to the old period).
 */
export const adminClosureMachine = adminMachineSetup({
  types: machineTypes<AdminClosureContext, AdminClosureEvent>(),
  calls: {
    previewClosure: placeholder<ClosurePreview, ClosureRequest>('previewClosure'),
    closeBranch: placeholder<void, ClosureRequest>('closeBranch'),
  },
  reports: 'closed',
  fallback: 'generic',
  guards: { isComplete: ({ context }) => isClosureComplete(context.fields) },
}).createMachine({
  id: 'adminClosure',
  context: {
    fields: { branchId: null, timeZone: 'UTC', from: '', to: '', reason: '' },
    preview: null,
    error: null,
  },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'field.change': {
          actions: assign(({ context, event }) => ({
            fields: withField(context.fields, event),
            error: null,
          })),
        },
        'branch.change': {
          actions: assign(({ context, event }) => ({
            fields: { ...context.fields, branchId: event.branchId, timeZone: event.timeZone },
            error: null,
          })),
        },
        'closure.preview': { guard: 'isComplete', target: 'previewing' },
      },
    },
    previewing: {
      invoke: {
        id: 'previewClosure',
        src: 'previewClosure',
        input: ({ context }) => requestOf(context.fields),
        onDone: { target: 'reviewing', actions: assign({ preview: ({ event }) => event.output }) },
        onError: failedBackTo('editing'),
      },
    },
    reviewing: {
      on: {
        'closure.back': { target: 'editing', actions: assign({ preview: null }) },
        'closure.confirm': 'closing',
      },
    },
    closing: {
      invoke: {
        id: 'closeBranch',
        src: 'closeBranch',
        input: ({ context }) => requestOf(context.fields),
        onDone: { target: 'closed', actions: 'closed' },
        onError: failedBackTo('reviewing'),
      },
    },
    closed: {
      on: {
        'closure.again': {
          target: 'editing',
          actions: assign(({ context }) => ({
            fields: { ...context.fields, from: '', to: '', reason: '' },
            preview: null,
            error: null,
          })),
        },
      },
    },
  },
});

function requestOf(fields: ClosureFields): ClosureRequest {
  return {
    branchId: fields.branchId ?? 0,
    timeZone: fields.timeZone,
    from: fields.from,
    to: fields.to,
    reason: fields.reason.trim(),
  };
}
