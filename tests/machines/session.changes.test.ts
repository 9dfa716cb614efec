import { describe, expect, it } from 'vitest';
import { createActor, setup, waitFor } from 'xstate';
import { sessionChanges, type SessionChanged } from '../../machines/session.changes.ts';
import { modelSession } from './model/session.ts';

/** A flow that only records what the bridge tells it. */
function listener(world: ReturnType<typeof modelSession>) {
  const heard: boolean[] = [];
  const flow = setup({
    types: { events: {} as SessionChanged },
    actors: { sessionChanges: sessionChanges(world.session) },
  }).createMachine({
    invoke: { src: 'sessionChanges' },
    on: { 'session.changed': { actions: ({ event }) => heard.push(event.loggedIn) } },
  });
  return { heard, flow: createActor(flow).start() };
}

const settled = (world: ReturnType<typeof modelSession>, value: 'loggedIn' | 'loggedOut') =>
  waitFor(world.session, (state) => state.matches(value));

describe('the session bridge (sessionChanges)', () => {
  it('tells a flow each time the session settles, not the steps in between or the user’s details', async () => {
    const world = modelSession();
    const { heard, flow } = listener(world);
    world.through['session.changed']({ type: 'session.changed', loggedIn: true });
    // validating, then logged in, then the user's details arrive: one change.
    await settled(world, 'loggedIn');
    await waitFor(world.session, (state) => state.context.user !== null);
    expect(heard).toEqual([true]);
    // A re-validation (a language change, another account's login) settles logged in again.
    world.session.send({ type: 'token.validate' });
    await waitFor(world.session, (state) => state.matches('validating'));
    await settled(world, 'loggedIn');
    expect(heard).toEqual([true, true]);
    world.session.send({ type: 'logout' });
    expect(heard).toEqual([true, true, false]);
    // An expired token is refused: logged out again, after a validation.
    world.through['session.changed']({ type: 'session.changed', loggedIn: false });
    await waitFor(world.session, (state) => state.matches('validating'));
    await settled(world, 'loggedOut');
    expect(heard).toEqual([true, true, false, false]);
    flow.stop();
    world.session.stop();
  });

  it('stops listening when the flow stops', async () => {
    const world = modelSession();
    const { heard, flow } = listener(world);
    flow.stop();
    world.through['session.changed']({ type: 'session.changed', loggedIn: true });
    await settled(world, 'loggedIn');
    expect(heard).toEqual([]);
    world.session.stop();
  });
});
