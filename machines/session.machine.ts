import { assign, setup } from 'xstate';
import { placeholder } from './placeholder.ts';
import type { components } from '../openapi/schema.gen.ts';
import { machineTypes } from './machine-types.ts';

export type User = components['schemas']['User'];

/** Where the bearer token lives between visits (local storage under `token` in the app). */
export type TokenStore = {
  read(): string | null;
  write(token: string): void;
  clear(): void;
};

export type SessionInput = { tokenStore: TokenStore };

export type SessionContext = {
  tokenStore: TokenStore;
  token: string | null;
  user: User | null;
  /** The last check could not reach the server (5xx, network): the session is kept, the view says so. */
  unavailable: boolean;
};

export type LocaleCode = components['schemas']['LocaleCode'];

export type SessionEvent =
  | { type: 'token.set'; token: string }
  | { type: 'token.validate' }
  | { type: 'logout' }
  | { type: 'locale.change'; locale: LocaleCode };

/**
 * The session (docs/decisions.md, 'Accounts'): no token means logged out; setting a token stores it and
 * validates it; a valid token means logged in; a refused token logs out, which clears the token. A check the
 * server could not answer (5xx, no network: `validateToken` throws) keeps the session and marks it
 * `unavailable`, so an outage never logs anyone out. A language change or a profile update sends
 * `token.validate`. Logging out also ends the session on the server (`endServerSession`).
 * A logged-in member's language change (`locale.change`) is first saved on the account, so the e-mails and
 * SMS that follow use it.
 */
export const sessionMachine = setup({
  types: machineTypes<SessionContext, SessionEvent, SessionInput>(),
  actors: {
    /** true: valid; false: refused (the token is dropped); throws when the server could not say. */
    validateToken: placeholder<boolean, { token: string }>('validateToken'),
    fetchUser: placeholder<User, { token: string }>('fetchUser'),
    updateLocale: placeholder<User, { token: string; user: User; locale: LocaleCode }>('updateLocale'),
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    isNewLocale: ({ context }, params: { locale: LocaleCode }) =>
      context.user !== null && context.user.locale !== params.locale,
    isValid: (_, params: { valid: boolean }) => params.valid,
  },
  actions: {
    storeToken: assign(({ context }, params: { token: string }) => {
      context.tokenStore.write(params.token);
      return { token: params.token, user: null };
    }),
    forgetToken: assign(({ context }) => {
      context.tokenStore.clear();
      return { token: null, user: null, unavailable: false };
    }),
    markUnavailable: assign({ unavailable: true }),
    markAvailable: assign({ unavailable: false }),
    // Calls POST /auth/logout with the token being dropped (provided with `.provide()`; fire and forget).
    endServerSession: (_, _params: { token: string | null }) => {},
    keepUser: assign((_, params: { user: User }) => ({ user: params.user })),
    // The app identifies the user to analytics and resets it on logout (provided with `.provide()`).
    identifyUser: (_, _params: { user: User }) => {},
    forgetIdentity: () => {},
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    tokenStore: input.tokenStore,
    token: input.tokenStore.read(),
    user: null,
    unavailable: false,
  }),
  initial: 'checking',
  on: {
    'token.set': {
      target: '.validating',
      reenter: true,
      actions: { type: 'storeToken', params: ({ event }) => ({ token: event.token }) },
    },
    logout: {
      target: '.loggedOut',
      actions: [
        { type: 'endServerSession', params: ({ context }) => ({ token: context.token }) },
        'forgetToken',
        'forgetIdentity',
      ],
    },
  },
  states: {
    checking: {
      always: [{ guard: 'hasToken', target: 'validating' }, { target: 'loggedOut' }],
    },
    validating: {
      invoke: {
        id: 'validateToken',
        src: 'validateToken',
        input: ({ context }) => ({ token: context.token ?? '' }),
        onDone: [
          {
            guard: { type: 'isValid', params: ({ event }) => ({ valid: event.output }) },
            target: 'loggedIn',
            actions: 'markAvailable',
          },
          { target: 'loggedOut', actions: ['forgetToken', 'forgetIdentity'] },
        ],
        // The server could not say (an outage): the token is kept; only a refusal logs out.
        onError: { target: 'loggedIn', actions: 'markUnavailable' },
      },
    },
    loggedIn: {
      on: {
        'token.validate': { target: 'validating' },
        'locale.change': {
          guard: { type: 'isNewLocale', params: ({ event }) => ({ locale: event.locale }) },
          target: 'savingLocale',
        },
      },
      invoke: {
        id: 'fetchUser',
        src: 'fetchUser',
        input: ({ context }) => ({ token: context.token ?? '' }),
        onDone: {
          actions: [
            { type: 'keepUser', params: ({ event }) => ({ user: event.output }) },
            { type: 'identifyUser', params: ({ event }) => ({ user: event.output }) },
          ],
        },
        // The user's details are a convenience (menu, analytics); without them the session still holds.
        onError: {},
      },
    },
    // The account's language: saved, then the token re-validated (the switch's token.validate waits for it).
    savingLocale: {
      invoke: {
        id: 'updateLocale',
        src: 'updateLocale',
        input: ({ context, event }) => ({
          token: context.token ?? '',
          user: context.user as User,
          locale: (event as Extract<SessionEvent, { type: 'locale.change' }>).locale,
        }),
        onDone: {
          target: 'validating',
          actions: { type: 'keepUser', params: ({ event }) => ({ user: event.output }) },
        },
        // The interface switches anyway; the messages keep the old language until the next profile save.
        onError: { target: 'validating' },
      },
    },
    // Logged out holds no token, so there is nothing to re-validate: token.validate is ignored here.
    loggedOut: {},
  },
});
