import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom } from 'xstate';
import { adminSessionMachine, type AdminCredentials } from '../../machines/adminSession.machine.ts';
import { ApiError } from '../../machines/api.ts';
import type { TokenStore } from '../../machines/session.machine.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';

type Event = EventFrom<typeof adminSessionMachine>;

const owner = { email: 'owner@gym.example', role: 'owner' as const };
// What an operator types (a complete login, a code with a space, a short code), and the server's answers.
const EVENTS = [
  { type: 'field.change', field: 'email', value: ' owner@gym.example ' },
  { type: 'field.change', field: 'password', value: 'long enough secret' },
  { type: 'field.change', field: 'code', value: '123 456' },
  { type: 'field.change', field: 'code', value: '12345' },
  { type: 'login.submit' },
  { type: 'logout' },
  { type: 'session.expired' },
  { type: 'xstate.done.actor.fetchOperator', output: owner },
  { type: 'xstate.error.actor.fetchOperator', error: new ApiError('unauthorized', 'Session ended.') },
  { type: 'xstate.error.actor.fetchOperator', error: new ApiError('service_unavailable') },
  { type: 'xstate.done.actor.logIn', output: { token: 'op-token-2', operator: owner } },
  {
    type: 'xstate.error.actor.logIn',
    error: new ApiError('invalid_credentials', 'Wrong e-mail, password or code.'),
  },
  { type: 'xstate.error.actor.logIn', error: new ApiError('rate_limited', 'Too many attempts.') },
  { type: 'xstate.done.actor.logOut' },
  { type: 'xstate.error.actor.logOut', error: new ApiError(null) },
] as unknown as Event[];

function memoryStore(initial: string | null): TokenStore & { value: string | null } {
  return {
    value: initial,
    read() {
      return this.value;
    },
    write(token) {
      this.value = token;
    },
    clear() {
      this.value = null;
    },
  };
}

const coverage = coverageOf(adminSessionMachine);
afterAll(() => coverage.save());

// A first visit (no token) and a return visit (a stored operator token, checked first).
for (const stored of [null, 'op-token-1']) {
  describe(`admin session machine, model-based, ${stored ? 'with' : 'without'} a stored token`, () => {
    const paths = generatePaths(adminSessionMachine, {
      events: EVENTS,
      input: { tokenStore: memoryStore(stored) },
      serializeState: (state) =>
        `${JSON.stringify(state.value)} ${JSON.stringify(state.context.fields)} token:${state.context.token !== null} error:${state.context.error !== null} expired:${state.context.expired}`,
      maxStatesForSimplePaths: 0,
    });
    for (const path of paths) {
      it.concurrent(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
        const store = memoryStore(stored);
        const logins: AdminCredentials[] = [];
        await replayPath(adminSessionMachine, path, {
          scripted: ['fetchOperator', 'logIn', 'logOut'],
          input: { tokenStore: store },
          coverage,
          onCall: (id, input) => {
            if (id === 'logIn') logins.push(input as AdminCredentials);
          },
          check: (snapshot, step) => {
            const type = step.event.type as string;
            const { token, operator, fields } = snapshot.context;
            // The stored token is the machine's token: what the page keeps is what the session uses.
            expect(store.value).toBe(token);
            // Logged in means an operator is known; logged out means none.
            if (snapshot.matches('loggedIn')) expect(operator).not.toBeNull();
            if (snapshot.matches('loggedOut')) expect(operator).toBeNull();
            // Only a complete form is sent, with the code's digits and the trimmed e-mail.
            if (type === 'login.submit' && snapshot.matches('loggingIn')) {
              expect(logins.at(-1)).toEqual({
                email: 'owner@gym.example',
                password: 'long enough secret',
                totp_code: '123456',
              });
            }
            // A refused login forgets the code (it cannot be used again) and keeps the e-mail.
            if (type === 'xstate.error.actor.logIn') {
              expect(fields.code).toBe('');
              expect(snapshot.context.error).not.toBeNull();
            }
            // A successful login keeps no password in memory.
            if (type === 'xstate.done.actor.logIn') expect(fields.password).toBe('');
            // An outage while checking keeps the stored token for later; a refusal drops it.
            if (type === 'xstate.error.actor.fetchOperator') {
              const refused = (step.event as unknown as { error: ApiError }).error.code === 'unauthorized';
              expect(token === null).toBe(refused);
            }
            // A session the server ended says so on the login.
            if (type === 'session.expired' && snapshot.matches('loggedOut'))
              expect(snapshot.context.expired).toBe(true);
          },
        });
      });
    }
  });
}

describe('admin session machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});
