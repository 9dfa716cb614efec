import { assign, enqueueActions, setup } from 'xstate';
import { placeholder } from './placeholder.ts';
import { sortBranches, type Branch } from './branches.ts';
import type { ModalSearch } from './modal-search.ts';
import { machineTypes } from './machine-types.ts';

export type StartupInput = { search: ModalSearch };

/** A modal that can stay open behind the auth modal, so its flow resumes after a login. */
type BaseModal = 'payment' | 'booking' | 'account';
type StartupModal = 'auth' | BaseModal | null;

/** What is on screen: the modal in front, and the one kept (hidden, with its state) behind the auth modal. */
export type ModalArrangement = { modal: StartupModal; behind: BaseModal | null };

function opensAuth(search: ModalSearch): boolean {
  return Boolean(search.reset_token || search.verify_email || search.auth_tab);
}

/**
 * The modal precedence (docs/decisions.md, 'Client': modals), the one place it is written: a reset token, a
 * verification link or an auth tab opens the auth modal in front; otherwise a payment result, then a booking
 * tab, then (with a valid session) an account tab. At most one modal is in front; the one the auth modal
 * covers stays behind it, hidden, so a login asked for by the booking or payment flow resumes it.
 */
export function arrangeModals(search: ModalSearch, tokenValid: boolean): ModalArrangement {
  const base: BaseModal | null = search.stripe_session_id
    ? 'payment'
    : search.booking_tab
      ? 'booking'
      : search.account_tab && tokenValid
        ? 'account'
        : null;
  return opensAuth(search) ? { modal: 'auth', behind: base } : { modal: base, behind: null };
}

/** The account needs a login: a logged-out visitor asking for it gets the login (the tab stays). */
export function needsLogin(search: ModalSearch, tokenValid: boolean): boolean {
  return search.account_tab !== undefined && !tokenValid && !opensAuth(search);
}

export type StartupContext = {
  /** The modal parameters of the current URL (`search.changed` follows the router). */
  search: ModalSearch;
  /** Kept, sorted by `order`; refetched only when forced or when the kept list is empty (docs/decisions.md, 'Contract and API'). */
  branches: Branch[];
  branchesFailed: boolean;
  tokenValid: boolean;
} & ModalArrangement;

export type StartupEvent =
  | { type: 'branches.load'; force?: boolean }
  | { type: 'session.changed'; valid: boolean }
  | { type: 'search.changed'; search: ModalSearch };

const startupSetup = setup({
  types: machineTypes<StartupContext, StartupEvent, StartupInput>(),
  actors: {
    fetchBranches: placeholder<Branch[]>('fetchBranches'),
    validateSession: placeholder<boolean>('validateSession'),
  },
  guards: {
    shouldFetchBranches: ({ context, event }) =>
      event.type === 'branches.load' && (event.force === true || context.branches.length === 0),
  },
  actions: {
    // The listing comes in one language (the interface's, asked with `lang`); the descriptions of languages
    // read before are kept, so a change of language shows text at once and the other languages cost nothing.
    keepBranches: assign(({ context }, params: { branches: Branch[] }) => ({
      branches: sortBranches(
        params.branches.map((branch) => ({
          ...branch,
          descriptions_data: {
            ...context.branches.find((known) => known.id === branch.id)?.descriptions_data,
            ...branch.descriptions_data,
          },
        })),
      ),
      branchesFailed: false,
    })),
    markBranchesFailed: assign({ branchesFailed: true }),
    keepSearch: assign((_, params: { search: ModalSearch }) => ({ search: params.search })),
    keepSession: assign((_, params: { valid: boolean }) => ({ tokenValid: params.valid })),
    // Provided by the app: adds the login to the URL.
    requestLogin: () => {},
  },
}).extend<{ arrange: undefined }>({
  actions: {
    // The modals as the kept URL and session want them, and the login the account needs asked for (declared
    // apart: it names `requestLogin`, and XState types an action that names another only over declared ones).
    arrange: enqueueActions(({ context, enqueue }) => {
      enqueue.assign(arrangeModals(context.search, context.tokenValid));
      if (needsLogin(context.search, context.tokenValid)) enqueue('requestLogin');
    }),
  },
});

/**
 * Fetching the branch listing, then `target` with the listing kept, or marked failed: the page still opens
 * without branches (docs/decisions.md, 'Client').
 */
function fetchingBranchesThen<TTarget extends string>(target: TTarget) {
  return startupSetup.createStateConfig({
    invoke: {
      id: 'fetchBranches',
      src: 'fetchBranches',
      onDone: {
        target,
        actions: { type: 'keepBranches', params: ({ event }) => ({ branches: event.output }) },
      },
      onError: { target, actions: 'markBranchesFailed' },
    },
  });
}

/**
 * Startup (docs/decisions.md, 'Client'): fetch the branches and validate the session token (both at once),
 * then arrange the modals by their precedence, and keep arranging them as the URL and the session change: the
 * app renders what `modal` and `behind` say. It also keeps the branch list for the rest of the app.
 */
export const startupMachine = startupSetup.createMachine({
  id: 'startup',
  context: ({ input }) => ({
    search: input.search,
    branches: [],
    branchesFailed: false,
    tokenValid: false,
    modal: null,
    behind: null,
  }),
  initial: 'starting',
  on: {
    // Before startup is done nothing is arranged yet: the URL is only kept.
    'search.changed': { actions: { type: 'keepSearch', params: ({ event }) => ({ search: event.search }) } },
  },
  states: {
    starting: {
      type: 'parallel',
      states: {
        branches: {
          initial: 'fetching',
          states: {
            fetching: fetchingBranchesThen('done'),
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
      onDone: { target: 'ready', actions: 'arrange' },
    },
    // Once started, a new URL or session re-arranges the modals, and asks for the login the account needs.
    ready: {
      initial: 'idle',
      on: {
        'search.changed': {
          actions: [{ type: 'keepSearch', params: ({ event }) => ({ search: event.search }) }, 'arrange'],
        },
        'session.changed': {
          actions: [{ type: 'keepSession', params: ({ event }) => ({ valid: event.valid }) }, 'arrange'],
        },
      },
      states: {
        idle: {
          on: { 'branches.load': { guard: 'shouldFetchBranches', target: 'refreshingBranches' } },
        },
        refreshingBranches: fetchingBranchesThen('idle'),
      },
    },
  },
});
