import { assign, setup } from 'xstate';
import { machineTypes } from './machine-types.ts';

export type DraftFields = Record<string, unknown>;

export type AdminDraftEvent =
  { type: 'draft.change'; patch: DraftFields } | { type: 'draft.reset'; fields: DraftFields };

/**
 * What an operator is typing into a console form before it is sent (a reason, a slot picked, a price grid being
 * edited, a branch's settings): the form's values, kept by a machine rather than by the component (issue 28,
 * item 2). A change merges into the values; a reset starts them again (what the server answered). Sending them
 * is the page's change (the one-change machine, adminTask), which reads them from here.
 */
export const adminDraftMachine = setup({
  types: machineTypes<{ fields: DraftFields }, AdminDraftEvent, { fields: DraftFields }>(),
}).createMachine({
  id: 'adminDraft',
  context: ({ input }) => ({ fields: input.fields }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'draft.change': {
          actions: assign({ fields: ({ context, event }) => ({ ...context.fields, ...event.patch }) }),
        },
        'draft.reset': { actions: assign({ fields: ({ event }) => event.fields }) },
      },
    },
  },
});
