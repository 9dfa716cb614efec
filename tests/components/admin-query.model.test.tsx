// @vitest-environment jsdom
import './support/mocks.ts';
import { fireEvent, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { adminQueryMachine } from '../../machines/adminQuery.machine.ts';
import { ApiError } from '../../machines/api.ts';
import { covering, generatePaths } from '../machines/model/paths.ts';
import {
  consoleNetwork,
  cutAfter,
  feedbackText,
  isSessionEnd,
  labelled,
  renderConsole,
  started,
} from './support/console.tsx';
import { drivePath, press, recorder, type Driver } from './support/model.ts';
import { errorAnswer, type Network } from './support/network.ts';

// The console's list machine (machines/adminQuery.machine.ts) driven through the real member search
// (`/pt/admin/members`, src/admin/pages/Members.tsx): typing in the search field is `query.change`, Procurar (or
// Tentar novamente after a failure) is `query.reload`, each load answered at the network with a body the contract
// allows. The search's operation has no refusal by role in the contract, so the one path that reaches `forbidden`
// is driven through the coupons page (owners only, src/admin/pages/Coupons.tsx), whose list may be refused.

type Event = EventFrom<typeof adminQueryMachine>;
type Snapshot = SnapshotFrom<typeof adminQueryMachine>;
type Params = { q: string; page: number };

const member = (id: string, first: string, last: string) => ({
  id,
  email: `${first.toLowerCase()}@example.pt`,
  phone_number: '+351912345678',
  first_name: first,
  last_name: last,
  locale: 'pt',
  email_verified: true,
  phone_verified: true,
  created_at: '2026-02-01T10:00:00Z',
  deleted: false,
  blocked: false,
  bookings_count: 2,
});
const EVERYONE = {
  items: [
    member('5b0c1f7e-2b8a-4a53-9d1e-0c7f1a2b3c4d', 'Rita', 'Lopes'),
    member('6c1d2a8f-3c9b-4b64-8e2f-1d8a2b3c4d5e', 'Paulo', 'Sousa'),
  ],
  total: 2,
  page: 1,
  page_size: 25,
};
const found = (q: string) =>
  q === ''
    ? EVERYONE
    : { ...EVERYONE, items: EVERYONE.items.filter((item) => item.first_name === q), total: 1 };

const answers = (state: Snapshot): Event[] =>
  state.matches('loading')
    ? ([
        { type: 'xstate.done.actor.load', output: found((state.context.params as Params).q) },
        { type: 'xstate.error.actor.load', error: new ApiError('internal_error', 'Erro no servidor.') },
        { type: 'xstate.error.actor.load', error: new ApiError('unauthorized', 'Sessão terminada.') },
      ] as unknown as Event[])
    : [];

/** What the operator can do on the search: type a name (always), search again once a load is over. */
function userEvents(state: Snapshot): Event[] {
  if (state.matches('forbidden')) return [];
  const { q } = state.context.params as Params;
  return [
    ...['Rita', 'Paulo']
      .filter((name) => name !== q)
      .map((name) => ({ type: 'query.change' as const, params: { q: name, page: 1 } })),
    ...(state.matches('loading') ? [] : [{ type: 'query.reload' as const }]),
  ];
}

const INPUT = { params: { q: '', page: 1 } };
const searchPaths = await covering(
  adminQueryMachine,
  cutAfter(
    generatePaths(adminQueryMachine, {
      events: (state) => [...answers(state), ...userEvents(state)],
      input: INPUT,
      serializeState: (state) => JSON.stringify([state.value, state.context.params, state.context.error]),
      maxStatesForSimplePaths: 0,
    }),
    isSessionEnd,
  ),
  { scripted: ['load'], input: INPUT },
);
// The coupons list, refused by role: its first load answered `operator_forbidden`.
const refusedPaths = generatePaths(adminQueryMachine, {
  events: (state) =>
    state.matches('loading')
      ? ([
          {
            type: 'xstate.error.actor.load',
            error: new ApiError('operator_forbidden', 'Só para responsáveis.'),
          },
        ] as unknown as Event[])
      : [],
  input: { params: undefined },
}).filter((path) => path.state.matches('forbidden'));

/** `ended`: the session-ending answer was given. */
type World = { network: Network; page: 'members' | 'coupons'; ended: boolean; location: () => string };

const SEARCH = 'E-mail, telefone ou nome';

const driver: Driver<typeof adminQueryMachine, World> = {
  answer(event, before, world) {
    const error = event.error as ApiError | undefined;
    return {
      operations: [world.page === 'members' ? 'searchMembers' : 'listAdminCoupons'],
      answer: (call) => {
        if (world.page === 'members') {
          // The load asks for the filters on screen.
          const { q } = before.context.params as Params;
          const url = new URL(call.request.url);
          expect(url.searchParams.get('q')).toBe(q === '' ? null : q);
          expect(url.searchParams.get('page')).toBe('1');
        }
        if (error && isSessionEnd({ type: event.type, error })) world.ended = true;
        return error ? errorAnswer(error) : { status: 200, body: event.output };
      },
    };
  },
  act: {
    'query.change': (event) => {
      const { q } = (event as Extract<Event, { type: 'query.change' }>).params as Params;
      fireEvent.change(labelled(SEARCH), { target: { value: q } });
    },
    'query.reload': (_, before) =>
      press(screen.getByRole('button', { name: before.matches('failed') ? 'Tentar novamente' : 'Procurar' })),
  },
  check(state, world) {
    const forbidden = screen.queryByText('Esta página é só para responsáveis.');
    if (world.page === 'coupons') {
      expect(forbidden !== null).toBe(state.matches('forbidden'));
      return;
    }
    expect(forbidden).toBeNull();
    const { params, error } = state.context;
    const data = state.context.data as typeof EVERYONE | null;
    if (world.ended) {
      // The session ended (a list's load answered `unauthorized`): the console shows its login, said so.
      expect(screen.getByRole('heading', { name: 'Consola de operação' })).toBeTruthy();
      expect(screen.getByRole('status').textContent).toBe('A sua sessão terminou. Inicie sessão novamente.');
      return;
    }
    // The search shows its filter, and keeps it in the address.
    const { q } = params as Params;
    expect(labelled(SEARCH)).toHaveProperty('value', q);
    expect(new URL(world.location(), 'http://localhost').searchParams.get('q') ?? '').toBe(q);
    // The last answer stays on screen while the next loads; a spinner only before the first.
    const names = screen.queryAllByRole('link').map((link) => link.textContent);
    for (const item of EVERYONE.items)
      expect(names.includes(`${item.first_name} ${item.last_name}`)).toBe(
        data?.items.some((shown) => shown.id === item.id) ?? false,
      );
    expect(screen.queryByLabelText('A carregar') !== null).toBe(state.matches('loading') && data === null);
    // A failure is said, with a way to try again.
    expect(screen.queryByRole('alert')?.textContent ?? null).toBe(
      state.matches('failed') && error ? feedbackText(error) : null,
    );
    expect(screen.queryByRole('button', { name: 'Tentar novamente' }) !== null).toBe(state.matches('failed'));
  },
};

// The page's list: the second list the console makes for an owner, after the navigation's count of approvals.
const flow = recorder(adminQueryMachine, { instance: 1 });
afterAll(() => flow.assertCovered());

await Promise.all([import('../../src/admin/pages/Members.tsx'), import('../../src/admin/pages/Coupons.tsx')]);

const pages = [
  { page: 'members' as const, address: '/pt/admin/members', paths: searchPaths },
  { page: 'coupons' as const, address: '/pt/admin/coupons', paths: refusedPaths },
];

for (const { page, address, paths } of pages) {
  describe(`a console list, driven by its model through ${address}`, () => {
    for (const path of paths) {
      it(`follows ${path.description}`, async () => {
        const network = consoleNetwork();
        flow.startPath();
        const app = await renderConsole(address, { network, inspect: flow.inspect });
        try {
          await started(flow);
          await drivePath(driver, path, flow, { network, page, ended: false, location: app.location });
        } finally {
          app.stop();
        }
      });
    }
  });
}
