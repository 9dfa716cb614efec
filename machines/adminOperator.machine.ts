import { assign } from 'xstate';
import type { CreatedOperator, Operator } from './adminConsole.actors.ts';
import { failedBackTo } from './adminErrors.ts';
import { adminMachineSetup } from './adminMachine.ts';
import type { Feedback } from './feedback.ts';
import { placeholder } from './placeholder.ts';
import { machineTypes } from './machine-types.ts';

export type NewOperator = { email: string; role: Operator['role'] };

export type AdminOperatorContext = NewOperator & {
  /** The operator just made, with its setup link and TOTP secret: shown once, until the next attempt. */
  created: CreatedOperator | null;
  error: Feedback | null;
};

export type AdminOperatorEvent =
  | { type: 'email.change'; value: string }
  | { type: 'role.change'; role: Operator['role'] }
  | { type: 'operator.create' };

/**
 * The console's new-operator form (owners): an e-mail and a role; creating shows the operator's setup link and
 * TOTP secret once and empties the e-mail for the next one (the role stays), and the page reloads its list
 * (`created`). A failure stays on the form with its error.
 */
export const adminOperatorMachine = adminMachineSetup({
  types: machineTypes<AdminOperatorContext, AdminOperatorEvent>(),
  calls: { createOperator: placeholder<CreatedOperator, NewOperator>('createOperator') },
  reports: 'created',
  fallback: 'generic',
  guards: { hasEmail: ({ context }) => context.email.trim() !== '' },
}).createMachine({
  id: 'adminOperator',
  context: { email: '', role: 'staff', created: null, error: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'email.change': { actions: assign({ email: ({ event }) => event.value }) },
        'role.change': { actions: assign({ role: ({ event }) => event.role }) },
        'operator.create': { guard: 'hasEmail', target: 'creating' },
      },
    },
    creating: {
      entry: assign({ created: null, error: null }),
      invoke: {
        id: 'createOperator',
        src: 'createOperator',
        input: ({ context }) => ({ email: context.email.trim(), role: context.role }),
        onDone: {
          target: 'editing',
          actions: [assign({ created: ({ event }) => event.output, email: '' }), 'created'],
        },
        onError: failedBackTo('editing'),
      },
    },
  },
});
