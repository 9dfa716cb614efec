import { createActor, fromPromise } from 'xstate';
import { sessionChanges, type SessionChanged } from '../../../machines/session.changes.ts';
import { sessionMachine, type TokenStore, type User } from '../../../machines/session.machine.ts';

const VALID = 'valid-token';
const REFUSED = 'refused-token';

const USER = {
  id: 1,
  email: 'rita@example.pt',
  first_name: 'Rita',
  last_name: 'Lopes',
  phone_number: '+351912345678',
  agree_newsletter: false,
  locale: 'pt',
  distinct_id: 'd-1',
} as unknown as User;

/**
 * A real session (machines/session.machine.ts, its token checks answered at once) for a flow's model test:
 * `session.changed` steps change this session, and the flow hears them through the app's own bridge
 * (`sessionChanges`), as in the app. A login stores a token the check accepts; a logout is `logout` when
 * logged in, else a token the check refuses (an expired token).
 */
export function modelSession() {
  let stored: string | null = null;
  const tokenStore: TokenStore = {
    read: () => stored,
    write: (token) => {
      stored = token;
    },
    clear: () => {
      stored = null;
    },
  };
  const session = createActor(
    sessionMachine.provide({
      actors: {
        validateToken: fromPromise(async ({ input }) => input.token === VALID),
        fetchUser: fromPromise(async () => USER),
        updateLocale: fromPromise(async () => USER),
      },
    }),
    { input: { tokenStore } },
  ).start();
  return {
    session,
    bridge: sessionChanges(session),
    through: {
      'session.changed': (event: unknown) => {
        if ((event as SessionChanged).loggedIn) session.send({ type: 'token.set', token: VALID });
        else if (session.getSnapshot().matches('loggedIn')) session.send({ type: 'logout' });
        else session.send({ type: 'token.set', token: REFUSED });
      },
    },
  };
}
