import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../openapi/schema.gen.ts';

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
};

export type LocaleCode = components['schemas']['LocaleCode'];

export type SessionEvent =
  | { type: 'token.set'; token: string }
  | { type: 'token.validate' }
  | { type: 'logout' }
  | { type: 'locale.change'; locale: LocaleCode };

function notProvided(name: string): never {
  throw new Error(`the session machine's ${name} actor must be provided`);
}

/**
 * The session (spec 4, Authentication): no token means logged out; setting a token stores it and
 * validates it; a valid token means logged in; a failed validation logs out, which clears the token.
 * A language change or a profile update sends `token.validate`. A logged-in member's language change
 * (`locale.change`) is first saved on the account, so the e-mails and SMS that follow use it.
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  actors: {
    validateToken: fromPromise<boolean, { token: string }>(async () => notProvided('validateToken')),
    fetchUser: fromPromise<User, { token: string }>(async () => notProvided('fetchUser')),
    updateLocale: fromPromise<User, { token: string; user: User; locale: LocaleCode }>(async () =>
      notProvided('updateLocale'),
    ),
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
      return { token: null, user: null };
    }),
    keepUser: assign((_, params: { user: User }) => ({ user: params.user })),
    // The app identifies the user to analytics and resets it on logout (provided with `.provide()`).
    identifyUser: (_, _params: { user: User }) => {},
    forgetIdentity: () => {},
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ tokenStore: input.tokenStore, token: input.tokenStore.read(), user: null }),
  initial: 'checking',
  on: {
    'token.set': {
      target: '.validating',
      reenter: true,
      actions: { type: 'storeToken', params: ({ event }) => ({ token: event.token }) },
    },
    logout: { target: '.loggedOut', actions: ['forgetToken', 'forgetIdentity'] },
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
          },
          { target: 'loggedOut', actions: ['forgetToken', 'forgetIdentity'] },
        ],
        onError: { target: 'loggedOut', actions: ['forgetToken', 'forgetIdentity'] },
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
