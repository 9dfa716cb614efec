import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { sessionMachine, type TokenStore, type User } from '../../machines/session.machine.ts';

function memoryStore(initial: string | null = null): TokenStore & { value: string | null } {
  const store = {
    value: initial,
    read: () => store.value,
    write: (token: string) => {
      store.value = token;
    },
    clear: () => {
      store.value = null;
    },
  };
  return store;
}

const user: User = {
  email: 'ana@example.pt',
  phone_number: '+351912345678',
  first_name: 'Ana',
  last_name: 'Silva',
  agree_newsletter: true,
  distinct_id: 'u-1',
  email_verified: true,
  phone_verified: true,
  locale: 'pt',
  tax_id: null,
  offered_coupon: null,
};

function startSession(options: {
  token?: string | null;
  valid?: (token: string) => boolean | Promise<boolean>;
  updateLocale?: (input: { token: string; user: User; locale: string }) => Promise<User>;
}) {
  const tokenStore = memoryStore(options.token ?? null);
  const validate = vi.fn(async ({ input }: { input: { token: string } }) =>
    (options.valid ?? (() => true))(input.token),
  );
  const identifyUser = vi.fn<(user: User) => void>();
  const forgetIdentity = vi.fn();
  const machine = sessionMachine.provide({
    actors: {
      validateToken: fromPromise(validate),
      fetchUser: fromPromise(async () => user),
      updateLocale: fromPromise(
        async ({ input }: { input: { token: string; user: User; locale: User['locale'] } }) =>
          (options.updateLocale ?? (async () => ({ ...input.user, locale: input.locale })))(input),
      ),
    },
    actions: {
      identifyUser: (_, params) => identifyUser(params.user),
      forgetIdentity,
    },
  });
  const actor = createActor(machine, { input: { tokenStore } }).start();
  return { actor, tokenStore, validate, identifyUser, forgetIdentity };
}

describe('session machine', () => {
  it('is logged out at once when no token is stored, without calling the server', () => {
    const { actor, validate } = startSession({ token: null });
    expect(actor.getSnapshot().value).toBe('loggedOut');
    expect(validate).not.toHaveBeenCalled();
  });

  it('validates a stored token at start and is logged in when it is valid', async () => {
    const { actor, validate } = startSession({ token: 'abc' });
    expect(actor.getSnapshot().value).toBe('validating');
    await waitFor(actor, (state) => state.matches('loggedIn'));
    expect(validate).toHaveBeenCalledWith(expect.objectContaining({ input: { token: 'abc' } }));
  });

  it('logs out and clears the stored token when validation fails', async () => {
    const { actor, tokenStore, forgetIdentity } = startSession({ token: 'stale', valid: () => false });
    await waitFor(actor, (state) => state.matches('loggedOut'));
    expect(tokenStore.value).toBeNull();
    expect(actor.getSnapshot().context.token).toBeNull();
    expect(forgetIdentity).toHaveBeenCalled();
  });

  it('keeps the session when the check cannot be answered (5xx, no network), and says so', async () => {
    let failing = true;
    const { actor, tokenStore } = startSession({
      token: 'abc',
      valid: () => (failing ? Promise.reject(new Error('503')) : true),
    });
    await waitFor(actor, (state) => state.matches('loggedIn'));
    expect(tokenStore.value).toBe('abc');
    expect(actor.getSnapshot().context).toMatchObject({ token: 'abc', unavailable: true });
    failing = false;
    actor.send({ type: 'token.validate' });
    await waitFor(actor, (state) => state.matches('loggedIn') && !state.context.unavailable);
    expect(tokenStore.value).toBe('abc');
  });

  it('ends the session on the server with the token it drops when logging out', async () => {
    const endServerSession = vi.fn<(token: string | null) => void>();
    const tokenStore = memoryStore('abc');
    const actor = createActor(
      sessionMachine.provide({
        actors: { validateToken: fromPromise(async () => true), fetchUser: fromPromise(async () => user) },
        actions: { endServerSession: (_, params) => endServerSession(params.token) },
      }),
      { input: { tokenStore } },
    ).start();
    await waitFor(actor, (state) => state.matches('loggedIn'));
    actor.send({ type: 'logout' });
    expect(endServerSession).toHaveBeenCalledWith('abc');
    expect(tokenStore.value).toBeNull();
  });

  it('stores a token that is set and validates it', async () => {
    const { actor, tokenStore } = startSession({ token: null });
    actor.send({ type: 'token.set', token: 'fresh' });
    expect(tokenStore.value).toBe('fresh');
    await waitFor(actor, (state) => state.matches('loggedIn'));
    expect(actor.getSnapshot().context.token).toBe('fresh');
  });

  it('loads the current user once logged in and identifies them to analytics', async () => {
    const { actor, identifyUser } = startSession({ token: 'abc' });
    await waitFor(actor, (state) => state.context.user !== null);
    expect(actor.getSnapshot().context.user?.distinct_id).toBe('u-1');
    expect(identifyUser).toHaveBeenCalledWith(user);
  });

  it('re-validates the token on request (after a language change) and logs out if it expired', async () => {
    let valid = true;
    const { actor, validate } = startSession({ token: 'abc', valid: () => valid });
    await waitFor(actor, (state) => state.matches('loggedIn'));
    valid = false;
    actor.send({ type: 'token.validate' });
    await waitFor(actor, (state) => state.matches('loggedOut'));
    expect(validate).toHaveBeenCalledTimes(2);
  });

  it('ignores a re-validation request while logged out without a token', () => {
    const { actor, validate } = startSession({ token: null });
    actor.send({ type: 'token.validate' });
    expect(actor.getSnapshot().value).toBe('loggedOut');
    expect(validate).not.toHaveBeenCalled();
  });

  it('logs out on request: the token is cleared and the user forgotten', async () => {
    const { actor, tokenStore } = startSession({ token: 'abc' });
    await waitFor(actor, (state) => state.context.user !== null);
    actor.send({ type: 'logout' });
    expect(actor.getSnapshot().value).toBe('loggedOut');
    expect(tokenStore.value).toBeNull();
    expect(actor.getSnapshot().context.user).toBeNull();
  });

  it('lets the newest token win when one is set while another is being validated', async () => {
    vi.useFakeTimers();
    try {
      // The old token's answer (invalid) comes last: after the new token's (valid).
      const { actor } = startSession({
        token: 'old',
        valid: (token) =>
          new Promise((resolve) => setTimeout(() => resolve(token === 'new'), token === 'old' ? 30 : 5)),
      });
      actor.send({ type: 'token.set', token: 'new' });
      await vi.advanceTimersByTimeAsync(5);
      expect(actor.getSnapshot().value).toBe('loggedIn');
      await vi.advanceTimersByTimeAsync(25);
      expect(actor.getSnapshot().value).toBe('loggedIn');
      expect(actor.getSnapshot().context.token).toBe('new');
    } finally {
      vi.useRealTimers();
    }
  });

  it("saves a logged-in member's language change on the account, then re-validates the token", async () => {
    const saved: { locale: string; user: User }[] = [];
    const { actor, validate } = startSession({
      token: 'abc',
      updateLocale: async (input) => {
        saved.push({ locale: input.locale, user: input.user });
        return { ...input.user, locale: input.locale as User['locale'] };
      },
    });
    await waitFor(actor, (state) => state.matches('loggedIn') && state.context.user !== null);
    actor.send({ type: 'locale.change', locale: 'de' });
    expect(actor.getSnapshot().value).toBe('savingLocale');
    await waitFor(actor, (state) => state.matches('loggedIn') && state.context.user?.locale === 'de');
    expect(saved).toEqual([{ locale: 'de', user }]);
    expect(validate).toHaveBeenCalledTimes(2);
  });

  it("does not call the server when the language is already the account's, or when logged out", async () => {
    const updateLocale = vi.fn(async (input: { user: User }) => input.user);
    const loggedIn = startSession({ token: 'abc', updateLocale });
    await waitFor(loggedIn.actor, (state) => state.matches('loggedIn') && state.context.user !== null);
    loggedIn.actor.send({ type: 'locale.change', locale: 'pt' });
    expect(loggedIn.actor.getSnapshot().value).toBe('loggedIn');
    const loggedOut = startSession({ token: null, updateLocale });
    loggedOut.actor.send({ type: 'locale.change', locale: 'fr' });
    expect(loggedOut.actor.getSnapshot().value).toBe('loggedOut');
    expect(updateLocale).not.toHaveBeenCalled();
  });

  it('stays logged in when saving the language fails (the interface still switches)', async () => {
    const { actor } = startSession({
      token: 'abc',
      updateLocale: () => Promise.reject(new Error('offline')),
    });
    await waitFor(actor, (state) => state.matches('loggedIn') && state.context.user !== null);
    actor.send({ type: 'locale.change', locale: 'sk' });
    await waitFor(actor, (state) => state.matches('loggedIn'));
    expect(actor.getSnapshot().context.token).toBe('abc');
  });
});
