import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Branch } from '../../machines/branches.ts';
import type { ModalSearch } from '../../machines/modal-search.ts';
import { startupMachine } from '../../machines/startup.machine.ts';

function branch(id: number, order: number, active = true): Branch {
  return {
    id,
    name: `Branch ${id}`,
    order,
    image: `/images/branches/${id}.jpg`,
    images_urls: [],
    location: 'Lisboa',
    active_with_smart_lock: active,
    descriptions_data: { pt: '', en: '', fr: '', de: '', sk: '' },
    min_and_max_price_eur_long_cached: [10, 20],
    time_zone: 'Europe/Lisbon',
    slot_minutes: 60,
    latitude: 0,
    longitude: 0,
    map_url: null,
  };
}

function startStartup(options: {
  search?: ModalSearch;
  tokenValid?: boolean;
  branches?: () => Promise<Branch[]>;
}) {
  const fetchBranches = vi.fn(options.branches ?? (async () => [branch(2, 2), branch(1, 1)]));
  const validateSession = vi.fn(async () => options.tokenValid ?? false);
  const requestLogin = vi.fn();
  const machine = startupMachine.provide({
    actors: { fetchBranches: fromPromise(fetchBranches), validateSession: fromPromise(validateSession) },
    actions: { requestLogin },
  });
  const actor = createActor(machine, { input: { search: options.search ?? {} } }).start();
  return { actor, fetchBranches, validateSession, requestLogin };
}

const ready = (actor: ReturnType<typeof startStartup>['actor']) =>
  waitFor(actor, (state) => state.matches({ ready: 'idle' }));

describe('startup machine', () => {
  it('fetches the branches and validates the session at the same time', () => {
    const { actor, fetchBranches, validateSession } = startStartup({});
    expect(actor.getSnapshot().matches('starting')).toBe(true);
    expect(fetchBranches).toHaveBeenCalledTimes(1);
    expect(validateSession).toHaveBeenCalledTimes(1);
  });

  it('keeps the branches sorted by their order', async () => {
    const { actor } = startStartup({});
    await ready(actor);
    expect(actor.getSnapshot().context.branches.map((b) => b.id)).toEqual([1, 2]);
  });

  it('opens no modal when the URL asks for none', async () => {
    const { actor } = startStartup({ tokenValid: true });
    await ready(actor);
    expect(actor.getSnapshot().context.modal).toBeNull();
  });

  it('opens the auth modal for a password-reset token, even when a booking tab is pending too', async () => {
    const { actor } = startStartup({ search: { reset_token: 'r1', booking_tab: 'bookSessions' } });
    await ready(actor);
    expect(actor.getSnapshot().context.modal).toBe('auth');
  });

  it('opens the auth modal for an e-mail verification marker', async () => {
    const { actor } = startStartup({ search: { verify_email: 'ana@example.pt', verify_email_code: '123' } });
    await ready(actor);
    expect(actor.getSnapshot().context.modal).toBe('auth');
  });

  it('opens the booking modal when its tab is pending and no auth flag is', async () => {
    const { actor } = startStartup({
      search: { booking_tab: 'branchInformation', account_tab: 'profile' },
      tokenValid: true,
    });
    await ready(actor);
    expect(actor.getSnapshot().context.modal).toBe('booking');
  });

  it('opens the account modal only when the token is valid', async () => {
    const loggedIn = startStartup({ search: { account_tab: 'myBookings' }, tokenValid: true });
    const loggedOut = startStartup({ search: { account_tab: 'myBookings' }, tokenValid: false });
    await ready(loggedIn.actor);
    await ready(loggedOut.actor);
    expect(loggedIn.actor.getSnapshot().context.modal).toBe('account');
    expect(loggedOut.actor.getSnapshot().context.modal).toBeNull();
  });

  it('still becomes ready with no branches when fetching them fails', async () => {
    const { actor } = startStartup({ branches: () => Promise.reject(new Error('offline')) });
    await ready(actor);
    expect(actor.getSnapshot().context.branches).toEqual([]);
    expect(actor.getSnapshot().context.branchesFailed).toBe(true);
  });

  it('does not refetch the kept branches unless forced', async () => {
    const { actor, fetchBranches } = startStartup({});
    await ready(actor);
    actor.send({ type: 'branches.load' });
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
    actor.send({ type: 'branches.load', force: true });
    expect(actor.getSnapshot().matches({ ready: 'refreshingBranches' })).toBe(true);
    await ready(actor);
    expect(fetchBranches).toHaveBeenCalledTimes(2);
  });

  it('keeps the descriptions of languages read before when the branches come again in another language', async () => {
    let calls = 0;
    const { actor } = startStartup({
      branches: async () =>
        ++calls === 1
          ? [{ ...branch(1, 1), descriptions_data: { pt: '<p>Olá</p>' } }]
          : [
              { ...branch(1, 1), descriptions_data: { en: '<p>Hello</p>' } },
              { ...branch(2, 2), descriptions_data: { en: '<p>New</p>' } },
            ],
    });
    await ready(actor);
    actor.send({ type: 'branches.load', force: true });
    await waitFor(actor, (state) => state.context.branches.length === 2);
    expect(actor.getSnapshot().context.branches.map((kept) => kept.descriptions_data)).toEqual([
      { pt: '<p>Olá</p>', en: '<p>Hello</p>' },
      { en: '<p>New</p>' },
    ]);
  });

  it('refetches when the kept list is empty', async () => {
    let calls = 0;
    const { actor, fetchBranches } = startStartup({
      branches: async () => (++calls === 1 ? [] : [branch(1, 1)]),
    });
    await ready(actor);
    actor.send({ type: 'branches.load' });
    await waitFor(actor, (state) => state.context.branches.length === 1);
    expect(fetchBranches).toHaveBeenCalledTimes(2);
  });

  it('follows the URL once started: closing the auth modal brings back the booking modal it covered', async () => {
    const { actor } = startStartup({ search: { auth_tab: 'login', booking_tab: 'bookSessions' } });
    await ready(actor);
    expect(actor.getSnapshot().context).toMatchObject({ modal: 'auth', behind: 'booking' });
    actor.send({ type: 'search.changed', search: { booking_tab: 'bookSessions' } });
    expect(actor.getSnapshot().context).toMatchObject({ modal: 'booking', behind: null });
    actor.send({ type: 'search.changed', search: {} });
    expect(actor.getSnapshot().context).toMatchObject({ modal: null, behind: null });
  });

  it('keeps the URL it is told of while starting, and arranges by it once ready', async () => {
    const { actor } = startStartup({ search: {}, tokenValid: true });
    actor.send({ type: 'search.changed', search: { account_tab: 'settings' } });
    expect(actor.getSnapshot().context.modal).toBeNull();
    await ready(actor);
    expect(actor.getSnapshot().context.modal).toBe('account');
  });

  it('asks a logged-out visitor for a login before the account, and opens the account once logged in', async () => {
    const { actor, requestLogin } = startStartup({ search: { account_tab: 'profile' }, tokenValid: false });
    await ready(actor);
    expect(requestLogin).toHaveBeenCalledTimes(1);
    actor.send({ type: 'search.changed', search: { account_tab: 'profile', auth_tab: 'login' } });
    expect(actor.getSnapshot().context.modal).toBe('auth');
    actor.send({ type: 'session.changed', valid: true });
    actor.send({ type: 'search.changed', search: { account_tab: 'profile' } });
    expect(actor.getSnapshot().context.modal).toBe('account');
    expect(requestLogin).toHaveBeenCalledTimes(1);
  });

  it('asks for a login again when the session of an open account ends', async () => {
    const { actor, requestLogin } = startStartup({ search: { account_tab: 'myBookings' }, tokenValid: true });
    await ready(actor);
    expect(actor.getSnapshot().context.modal).toBe('account');
    actor.send({ type: 'session.changed', valid: false });
    expect(actor.getSnapshot().context.modal).toBeNull();
    expect(requestLogin).toHaveBeenCalledTimes(1);
  });
});
