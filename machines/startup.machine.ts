import { assign, fromPromise, setup } from 'xstate';
import { sortBranches, type Branch } from './branches.ts';
import { chooseStartupModal, type ModalSearch, type StartupModal } from './modal-search.ts';

export type StartupInput = { search: ModalSearch };

export type StartupContext = {
  search: ModalSearch;
  /** Kept, sorted by `order`; refetched only when forced or when the kept list is empty (spec 7). */
  branches: Branch[];
  branchesFailed: boolean;
  tokenValid: boolean;
  modal: StartupModal;
};

export type StartupEvent =
  | { type: 'branches.load'; force?: boolean }
  | { type: 'session.changed'; valid: boolean }
  | { type: 'modal.closed' };

function notProvided(name: string): never {
  throw new Error(`the startup machine's ${name} actor must be provided`);
}

/**
 * Spec 2.5: fetch the branches and validate the session token (both at once), then open at most one
 * modal by the stated priority. Afterwards it keeps the branch list for the rest of the app.
 */
export const startupMachine = setup({
  types: {
    context: {} as StartupContext,
    events: {} as StartupEvent,
    input: {} as StartupInput,
  },
  actors: {
    fetchBranches: fromPromise<Branch[]>(async () => notProvided('fetchBranches')),
    validateSession: fromPromise<boolean>(async () => notProvided('validateSession')),
  },
  guards: {
    shouldFetchBranches: ({ context, event }) =>
      event.type === 'branches.load' && (event.force === true || context.branches.length === 0),
  },
  actions: {
    keepBranches: assign((_, params: { branches: Branch[] }) => ({
      branches: sortBranches(params.branches),
      branchesFailed: false,
    })),
    markBranchesFailed: assign({ branchesFailed: true }),
    chooseModal: assign(({ context }) => ({ modal: chooseStartupModal(context.search, context.tokenValid) })),
  },
}).createMachine({
  id: 'startup',
  context: ({ input }) => ({
    search: input.search,
    branches: [],
    branchesFailed: false,
    tokenValid: false,
    modal: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      type: 'parallel',
      states: {
        branches: {
          initial: 'fetching',
          states: {
            fetching: {
              invoke: {
                id: 'fetchBranches',
                src: 'fetchBranches',
                onDone: {
                  target: 'done',
                  actions: { type: 'keepBranches', params: ({ event }) => ({ branches: event.output }) },
                },
                // The page still opens without branches (spec 2.2: black background, no branch sections).
                onError: { target: 'done', actions: 'markBranchesFailed' },
              },
            },
            done: { type: 'final' },
          },
        },
        session: {
          initial: 'validating',
          states: {
            validating: {
              invoke: {
                id: 'validateSession',
                src: 'validateSession',
                onDone: { target: 'done', actions: assign({ tokenValid: ({ event }) => event.output }) },
                onError: { target: 'done', actions: assign({ tokenValid: false }) },
              },
            },
            done: { type: 'final' },
          },
        },
      },
      onDone: { target: 'ready', actions: 'chooseModal' },
    },
    ready: {
      on: {
        'branches.load': { guard: 'shouldFetchBranches', target: 'refreshingBranches' },
        'session.changed': { actions: assign({ tokenValid: ({ event }) => event.valid }) },
        'modal.closed': { actions: assign({ modal: null }) },
      },
    },
    refreshingBranches: {
      invoke: {
        id: 'fetchBranches',
        src: 'fetchBranches',
        onDone: {
          target: 'ready',
          actions: { type: 'keepBranches', params: ({ event }) => ({ branches: event.output }) },
        },
        onError: { target: 'ready', actions: 'markBranchesFailed' },
      },
      on: {
        'session.changed': { actions: assign({ tokenValid: ({ event }) => event.valid }) },
        'modal.closed': { actions: assign({ modal: null }) },
      },
    },
  },
});
