import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom } from 'xstate';
import { sessionMachine, type TokenStore, type User } from '../../machines/session.machine.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';

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

type Event = EventFrom<typeof sessionMachine>;
// The events a user and the two server calls can produce; done/error events stand for the answers.
const EVENTS = [
  { type: 'token.set', token: 'fresh' },
  { type: 'token.validate' },
  { type: 'logout' },
  { type: 'xstate.done.actor.validateToken', output: true },
  { type: 'xstate.done.actor.validateToken', output: false },
  { type: 'xstate.error.actor.validateToken', error: new Error('offline') },
  { type: 'xstate.done.actor.fetchUser', output: user },
  { type: 'xstate.error.actor.fetchUser', error: new Error('offline') },
  { type: 'locale.change', locale: 'fr' },
  { type: 'locale.change', locale: 'pt' },
  { type: 'xstate.done.actor.updateLocale', output: { ...user, locale: 'fr' } },
  { type: 'xstate.error.actor.updateLocale', error: new Error('offline') },
] as unknown as Event[];

function memoryStore(initial: string | null): TokenStore & { stored: string | null } {
  return {
    stored: initial,
    read() {
      return this.stored;
    },
    write(token) {
      this.stored = token;
    },
    clear() {
      this.stored = null;
    },
  };
}

const coverage = coverageOf(sessionMachine);
afterAll(() => coverage.save());

describe.each([
  ['with a stored token', 'stored'],
  ['without a stored token', null],
] as const)('session machine, model-based, %s', (_label, startToken) => {
  const paths = generatePaths(sessionMachine, {
    events: EVENTS,
    // The traversal only reads the store (its actions are not meant to change the test's world).
    input: { tokenStore: { read: () => startToken, write() {}, clear() {} } },
    serializeState: (state) =>
      `${JSON.stringify(state.value)} token:${state.context.token !== null} user:${state.context.user?.locale ?? null}`,
  });

  it('reaches every state of the session', () => {
    const reached = new Set(paths.map((path) => JSON.stringify(path.state.value)));
    expect(reached).toEqual(new Set(['"validating"', '"loggedIn"', '"loggedOut"', '"savingLocale"']));
  });

  for (const path of paths) {
    it(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      const store = memoryStore(startToken);
      await replayPath(sessionMachine, path, {
        scripted: ['validateToken', 'fetchUser', 'updateLocale'],
        input: { tokenStore: store },
        coverage,
        check: (snapshot) => {
          // Logged out always means no token kept, in memory or in storage; logged in always keeps one.
          if (snapshot.matches('loggedOut')) {
            expect(snapshot.context.token).toBeNull();
            expect(store.stored).toBeNull();
          }
          if (snapshot.matches('loggedIn')) expect(store.stored).toBe(snapshot.context.token);
          // The language is saved only for a known user whose account has another one.
          if (snapshot.matches('savingLocale')) {
            expect(snapshot.context.user).not.toBeNull();
            expect(snapshot.context.token).not.toBeNull();
          }
        },
      });
    });
  }
});

describe('session machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});
