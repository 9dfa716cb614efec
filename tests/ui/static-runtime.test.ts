import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { staticRuntime } from '../../src/app/static-runtime.ts';
import { sessionMachine } from '../../machines/session.machine.ts';
import { startupMachine } from '../../machines/startup.machine.ts';

// The landing adopts its prerendered page with the static runtime, whose actors are not XState's: they must show
// what the machines' first states show, or the page would change when the live runtime takes over.
describe('the static runtime', () => {
  const tokenStore = { read: () => null, write() {}, clear() {} };
  const runtime = staticRuntime({}, null);

  it('shows the session in the session machine’s first state, for a visitor without a token', () => {
    const first = createActor(sessionMachine, { input: { tokenStore } }).getSnapshot();
    const shown = runtime.session.getSnapshot();
    expect(shown.value).toEqual(first.value);
    expect(shown.matches('loggedOut')).toBe(true);
    expect(shown.matches('loggedIn')).toBe(false);
    expect({ ...shown.context, tokenStore: null }).toEqual({ ...first.context, tokenStore: null });
  });

  it('shows startup in the startup machine’s first state, with no branches and no modal', () => {
    const first = createActor(startupMachine, { input: { search: {} } }).getSnapshot();
    const shown = runtime.startup.getSnapshot();
    expect(shown.value).toEqual(first.value);
    expect(shown.matches('starting')).toBe(true);
    for (const state of [{ starting: { branches: 'fetching' } }, { starting: 'session' }, 'ready'] as const)
      expect(shown.matches(state)).toBe(first.matches(state));
    expect(shown.context).toEqual(first.context);
  });

  it('takes no event and sends no request', async () => {
    runtime.startup.send({ type: 'search.changed', search: {} });
    expect(runtime.startup.getSnapshot().matches('starting')).toBe(true);
    const answer = Promise.race([
      runtime.api.GET('/checkout/refund-ratios'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 20)),
    ]);
    expect(await answer).toBe('still waiting');
  });
});
