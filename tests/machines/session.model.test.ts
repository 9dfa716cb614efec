import { getShortestPaths } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type EventFrom } from 'xstate';
import { sessionMachine, type User } from '../../machines/session.machine.ts';

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
] as unknown as Event[];

type Pending = { resolve: (value: unknown) => void; reject: (error: unknown) => void };

/** Replays a path of the model on the real machine, answering its server calls as the path says. */
async function replay(startToken: string | null, steps: { event: Event; state: { value: unknown } }[]) {
  const pending = new Map<string, Pending>();
  function call<T>(name: string) {
    return fromPromise<T, { token: string }>(
      () =>
        new Promise<T>((resolve, reject) => {
          pending.set(name, { resolve: (value) => resolve(value as T), reject });
        }),
    );
  }
  let stored = startToken;
  const actor = createActor(
    sessionMachine.provide({
      actors: { validateToken: call<boolean>('validateToken'), fetchUser: call<User>('fetchUser') },
    }),
    {
      input: {
        tokenStore: {
          read: () => stored,
          write: (token) => {
            stored = token;
          },
          clear: () => {
            stored = null;
          },
        },
      },
    },
  ).start();
  for (const { event, state } of steps) {
    const answer = /^xstate\.(done|error)\.actor\.(\w+)$/.exec(event.type);
    if (answer?.[2]) {
      const call = pending.get(answer[2]);
      if (!call) throw new Error(`the machine is not waiting for ${answer[2]}`);
      pending.delete(answer[2]);
      if (answer[1] === 'done') call.resolve((event as unknown as { output: unknown }).output);
      else call.reject((event as unknown as { error: unknown }).error);
      await new Promise((resolve) => setTimeout(resolve, 0));
    } else if ((event.type as string) !== 'xstate.init') {
      actor.send(event);
    }
    expect(actor.getSnapshot().value).toEqual(state.value);
    // Logged out always means no token kept, in memory or in storage.
    if (actor.getSnapshot().matches('loggedOut')) {
      expect(actor.getSnapshot().context.token).toBeNull();
      expect(stored).toBeNull();
    }
  }
  actor.stop();
}

describe.each([
  ['with a stored token', 'stored'],
  ['without a stored token', null],
] as const)('session machine, model-based, %s', (_label, startToken) => {
  const tokenStore = { read: () => startToken, write() {}, clear() {} };
  const paths = getShortestPaths(sessionMachine, {
    events: EVENTS,
    input: { tokenStore },
    serializeState: (state) =>
      `${JSON.stringify(state.value)} token:${state.context.token !== null} user:${state.context.user !== null}`,
  });

  it('reaches every state of the session', () => {
    const reached = new Set(paths.map((path) => JSON.stringify(path.state.value)));
    expect(reached).toEqual(new Set(['"validating"', '"loggedIn"', '"loggedOut"']));
  });

  for (const path of paths) {
    const route = path.steps.map((step) => step.event.type.replace('xstate.', '')).join(' → ');
    it(`follows the path ${route} to ${JSON.stringify(path.state.value)}`, async () => {
      await replay(startToken, path.steps as never);
    });
  }
});
