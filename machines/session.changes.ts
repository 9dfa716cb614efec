import { fromCallback, type EventObject } from 'xstate';

/** What a flow hears of the session: it settled logged in or logged out. */
export type SessionChanged = { type: 'session.changed'; loggedIn: boolean };

/** The part of the session actor the bridge reads (machines/session.machine.ts). */
export type SessionSource = {
  getSnapshot(): { value: unknown; matches(value: 'loggedIn' | 'loggedOut'): boolean };
  subscribe(
    observer: (state: { value: unknown; matches(value: 'loggedIn' | 'loggedOut'): boolean }) => void,
  ): {
    unsubscribe(): void;
  };
};

/**
 * The bridge from the session into a flow, invoked by the flow's machine for as long as it runs: each time the
 * session settles (enters logged in or logged out, also after a re-validation or another account's login),
 * the flow gets `session.changed`. The states in between (validating, saving the language) and changes of the
 * user's details are not changes of the session.
 */
export function sessionChanges(session: SessionSource) {
  return fromCallback<EventObject, void>(({ sendBack }) => {
    let previous = session.getSnapshot().value;
    const subscription = session.subscribe((state) => {
      const entered = state.value !== previous;
      previous = state.value;
      if (!entered) return;
      const loggedIn = state.matches('loggedIn');
      if (loggedIn || state.matches('loggedOut'))
        sendBack({ type: 'session.changed', loggedIn } satisfies SessionChanged);
    });
    return () => subscription.unsubscribe();
  });
}

/**
 * The machines' declaration of the bridge: the app provides `sessionChanges(session)` with `.provide()`; a flow
 * run without it (a test of something else) hears no session change, as if the session never changed.
 */
export const withoutSessionChanges = fromCallback<EventObject, void>(() => {});
