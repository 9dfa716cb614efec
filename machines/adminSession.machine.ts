import { assign, setup } from 'xstate';
import { hasErrorCode } from './api.ts';
import { failureFeedback, type Feedback } from './feedback.ts';
import { placeholder } from './placeholder.ts';
import type { TokenStore } from './session.machine.ts';
import { machineTypes } from './machine-types.ts';
import { withField } from './form-fields.ts';

export type OperatorRole = 'owner' | 'staff';
/** The signed-in operator; `branch_ids` null for every branch, else the branches a limited staff member has. */
export type Operator = { email: string; role: OperatorRole; branch_ids: number[] | null };

export type AdminLoginFields = { email: string; password: string; code: string };

export type AdminSessionContext = {
  tokenStore: TokenStore;
  token: string | null;
  operator: Operator | null;
  fields: AdminLoginFields;
  error: Feedback | null;
  /** The session ended without the operator asking (expired, ended by an owner): the login says so. */
  expired: boolean;
};

export type AdminSessionEvent =
  | { type: 'field.change'; field: keyof AdminLoginFields; value: string }
  | { type: 'login.submit' }
  | { type: 'logout' }
  /** Any console call answered `unauthorized`: the operator token is no longer good. */
  | { type: 'session.expired' };

export type AdminCredentials = { email: string; password: string; totp_code: string };

/** A TOTP code is six digits (RFC 6238 as the server checks it); spaces typed from an app are dropped. */
function totpDigits(raw: string): string {
  return raw.replace(/\s+/g, '');
}

export function canSubmitLogin(fields: AdminLoginFields): boolean {
  return fields.email.trim() !== '' && fields.password !== '' && /^\d{6}$/.test(totpDigits(fields.code));
}

const emptyFields: AdminLoginFields = { email: '', password: '', code: '' };

/**
 * The operator's session in the console (issue 18). Operator tokens live apart from the member's (the app
 * stores them under their own key), so neither logs the other in or out. A stored token is checked first; a
 * refused one is dropped. Login takes e-mail, password and the authenticator's 6-digit code; a code is never
 * kept after an attempt (the server refuses a used code anyway). Logging out ends the session on the server and
 * forgets the token even when the server cannot be reached.
 */
export const adminSessionMachine = setup({
  types: machineTypes<AdminSessionContext, AdminSessionEvent, { tokenStore: TokenStore }>(),
  actors: {
    /** The operator behind a token; throws `unauthorized` when the token is no longer good. */
    fetchOperator: placeholder<Operator, { token: string }>('fetchOperator'),
    logIn: placeholder<{ token: string; operator: Operator }, AdminCredentials>('logIn'),
    logOut: placeholder<void, { token: string }>('logOut'),
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    isComplete: ({ context }) => canSubmitLogin(context.fields),
  },
  actions: {
    forgetToken: assign(({ context }) => {
      context.tokenStore.clear();
      return { token: null, operator: null };
    }),
  },
}).createMachine({
  id: 'adminSession',
  context: ({ input }) => ({
    tokenStore: input.tokenStore,
    token: input.tokenStore.read(),
    operator: null,
    fields: emptyFields,
    error: null,
    expired: false,
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'hasToken', target: 'checking' }, { target: 'loggedOut' }],
    },
    checking: {
      invoke: {
        id: 'fetchOperator',
        src: 'fetchOperator',
        input: ({ context }) => ({ token: context.token ?? '' }),
        onDone: { target: 'loggedIn', actions: assign({ operator: ({ event }) => event.output }) },
        onError: [
          {
            guard: ({ event }) => hasErrorCode(event.error, 'unauthorized'),
            target: 'loggedOut',
            actions: 'forgetToken',
          },
          // The server could not say (outage): the token is kept for the next visit, the login is shown.
          {
            target: 'loggedOut',
            actions: assign({ error: ({ event }) => failureFeedback(event.error, 'generic') }),
          },
        ],
      },
    },
    loggedOut: {
      on: {
        'field.change': {
          actions: assign({ fields: ({ context, event }) => withField(context.fields, event) }),
        },
        'login.submit': { guard: 'isComplete', target: 'loggingIn' },
      },
    },
    loggingIn: {
      entry: assign({ error: null, expired: false }),
      invoke: {
        id: 'logIn',
        src: 'logIn',
        input: ({ context }) => ({
          email: context.fields.email.trim(),
          password: context.fields.password,
          totp_code: totpDigits(context.fields.code),
        }),
        onDone: {
          target: 'loggedIn',
          actions: assign(({ context, event }) => {
            context.tokenStore.write(event.output.token);
            return { token: event.output.token, operator: event.output.operator, fields: emptyFields };
          }),
        },
        onError: {
          target: 'loggedOut',
          // The code is spent or wrong either way: the next attempt needs a fresh one.
          actions: assign(({ context, event }) => ({
            error: failureFeedback(event.error, 'error-during-login'),
            fields: { ...context.fields, code: '' },
          })),
        },
      },
    },
    loggedIn: {
      on: {
        logout: { target: 'loggingOut' },
        'session.expired': { target: 'loggedOut', actions: ['forgetToken', assign({ expired: true })] },
      },
    },
    loggingOut: {
      invoke: {
        id: 'logOut',
        src: 'logOut',
        input: ({ context }) => ({ token: context.token ?? '' }),
        onDone: { target: 'loggedOut', actions: 'forgetToken' },
        onError: { target: 'loggedOut', actions: 'forgetToken' },
      },
    },
  },
});
