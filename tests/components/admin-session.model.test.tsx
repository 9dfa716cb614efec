// @vitest-environment jsdom
import './support/mocks.ts';
import { fireEvent, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { adminSessionMachine, canSubmitLogin } from '../../machines/adminSession.machine.ts';
import { ApiError } from '../../machines/api.ts';
import type { TokenStore } from '../../machines/session.machine.ts';
import { ADMIN_TOKEN_KEY } from '../../src/admin/tokenStore.ts';
import { covering, generatePaths, withoutPrefixes, type ModelPath } from '../machines/model/paths.ts';
import {
  consoleNetwork,
  feedbackText,
  labelled,
  OPERATOR_TOKEN,
  OWNER,
  renderConsole,
  started,
} from './support/console.tsx';
import { drivePath, press, recorder, type Driver } from './support/model.ts';
import { errorAnswer, type Network } from './support/network.ts';

// The operator's session (machines/adminSession.machine.ts) driven through the real console (src/admin/
// AdminConsole.tsx, Login.tsx) at `/pt/admin`: a first visit (no operator token) and a return visit (a stored
// token, checked first). Each user event is typing in the login, pressing Entrar or Sair; `session.expired` is
// what the console does when one of its calls is answered `unauthorized`, so here the Today page's load is
// answered 401 at the network. The starting state is passed at once (its `always`), before anything renders.

type Event = EventFrom<typeof adminSessionMachine>;
type Snapshot = SnapshotFrom<typeof adminSessionMachine>;

const OWNER_REF = { email: OWNER.email, role: OWNER.role };
const NEW_TOKEN = 'operator-token-2';
const CODE = '123 456';

const answers = (state: Snapshot): Event[] => {
  if (state.matches('checking'))
    return [
      { type: 'xstate.done.actor.fetchOperator', output: OWNER_REF },
      { type: 'xstate.error.actor.fetchOperator', error: new ApiError('unauthorized', 'Sessão terminada.') },
      {
        type: 'xstate.error.actor.fetchOperator',
        error: new ApiError('service_unavailable', 'Serviço indisponível.'),
      },
    ] as unknown as Event[];
  if (state.matches('loggingIn'))
    return [
      { type: 'xstate.done.actor.logIn', output: { token: NEW_TOKEN, operator: OWNER_REF } },
      {
        type: 'xstate.error.actor.logIn',
        error: new ApiError('invalid_credentials', 'E-mail, palavra-passe ou código incorretos.'),
      },
    ] as unknown as Event[];
  if (state.matches('loggingOut'))
    return [
      { type: 'xstate.done.actor.logOut' },
      { type: 'xstate.error.actor.logOut', error: new ApiError('internal_error', 'Erro no servidor.') },
    ] as unknown as Event[];
  return [];
};

/** What the operator can do: type the login's fields, press Entrar once they are complete, press Sair. */
function userEvents(state: Snapshot): Event[] {
  if (state.matches('loggedOut')) {
    const typed = [
      { type: 'field.change', field: 'email', value: OWNER.email },
      { type: 'field.change', field: 'password', value: 'long enough secret' },
      { type: 'field.change', field: 'code', value: CODE },
      { type: 'field.change', field: 'code', value: '12345' },
    ] as const;
    return [
      ...typed.filter((event) => state.context.fields[event.field] !== event.value),
      ...(canSubmitLogin(state.context.fields) ? [{ type: 'login.submit' as const }] : []),
    ];
  }
  if (state.matches('loggedIn')) return [{ type: 'logout' }, { type: 'session.expired' }];
  return [];
}

/** The model's token store: what the page stored before the visit; the model reads it, never changes it. */
const storeOf = (stored: string | null): TokenStore => ({ read: () => stored, write() {}, clear() {} });

async function pathsFor(stored: string | null): Promise<ModelPath<typeof adminSessionMachine>[]> {
  const input = { tokenStore: storeOf(stored) };
  const generated = withoutPrefixes(
    generatePaths(adminSessionMachine, {
      events: (state) => [...answers(state), ...userEvents(state)],
      input,
      serializeState: (state) =>
        JSON.stringify([
          state.value,
          state.context.fields,
          state.context.token,
          state.context.error,
          state.context.expired,
        ]),
      maxStatesForSimplePaths: 0,
    }),
  );
  return covering(adminSessionMachine, generated, { scripted: ['fetchOperator', 'logIn', 'logOut'], input });
}

// The page behind the login (Today), compiled before the first path renders it.
await import('../../src/admin/pages/Today.tsx');

const visits = [
  { name: 'a first visit', stored: null, paths: await pathsFor(null) },
  { name: 'a return visit', stored: OPERATOR_TOKEN, paths: await pathsFor(OPERATOR_TOKEN) },
];

type World = { network: Network };

const LABELS = {
  email: 'E-mail',
  password: 'Palavra-passe',
  code: 'Código da aplicação de autenticação',
} as const;

const driver: Driver<typeof adminSessionMachine, World> = {
  answer(event, before) {
    const actor = /actor\.(.+)$/.exec(event.type)![1]!;
    const error = event.error as ApiError | undefined;
    if (actor === 'fetchOperator')
      return {
        operations: ['getOperatorMe'],
        answer: (call) => {
          expect(call.request.headers.get('Authorization')).toBe(`Bearer ${before.context.token}`);
          return error ? errorAnswer(error) : { status: 200, body: OWNER };
        },
      };
    if (actor === 'logIn')
      return {
        operations: ['operatorLogin'],
        answer: (call) => {
          // The trimmed e-mail, the password, the code's digits.
          expect(call.body).toEqual({
            email: OWNER.email,
            password: 'long enough secret',
            totp_code: '123456',
          });
          return error
            ? errorAnswer(error)
            : {
                status: 200,
                body: {
                  access_token: NEW_TOKEN,
                  token_type: 'bearer',
                  expires_at: '2026-11-27T10:00:00Z',
                  operator: OWNER,
                },
              };
        },
      };
    return {
      operations: ['operatorLogout'],
      answer: (call) => {
        expect(call.request.headers.get('Authorization')).toBe(`Bearer ${before.context.token}`);
        return error ? errorAnswer(error) : { status: 204 };
      },
    };
  },
  act: {
    'field.change': (event) => {
      const { field, value } = event as Extract<Event, { type: 'field.change' }>;
      fireEvent.change(labelled(LABELS[field]), { target: { value } });
    },
    'login.submit': () => press(screen.getByRole('button', { name: 'Entrar' })),
    logout: () => press(screen.getByRole('button', { name: 'Sair' })),
    // One of the console's calls (the Today page's) is answered: the operator's session is over.
    'session.expired': async (_, __, world) => {
      await world.network.answer(
        ['getAdminToday'],
        errorAnswer(new ApiError('unauthorized', 'Sessão terminada.')),
      );
    },
  },
  check(state) {
    const { token, fields, error, expired, operator } = state.context;
    // What the page keeps is what the session uses.
    expect(window.localStorage.getItem(ADMIN_TOKEN_KEY)).toBe(token);
    const login = screen.queryByRole('heading', { name: 'Consola de operação' });
    const consoleTitle = screen.queryByRole('heading', { name: 'Consola' });
    if (state.matches('checking')) {
      // The console route waits for the check: neither the login nor a page shows.
      expect(login).toBeNull();
      expect(consoleTitle).toBeNull();
      return;
    }
    if (state.matches('loggedIn')) {
      expect(login).toBeNull();
      expect(consoleTitle).not.toBeNull();
      expect(screen.getByText(`${operator!.email} · responsável`)).toBeTruthy();
      return;
    }
    if (state.matches('loggingOut')) {
      // The page behind is gone at once (it belonged to the operator leaving); the console waits.
      expect(login).toBeNull();
      expect(consoleTitle).toBeNull();
      expect(screen.getByLabelText('…')).toBeTruthy();
      return;
    }
    expect(login).not.toBeNull();
    expect(consoleTitle).toBeNull();
    expect(labelled(LABELS.email)).toHaveProperty('value', fields.email);
    expect(labelled(LABELS.password)).toHaveProperty('value', fields.password);
    expect(labelled(LABELS.code)).toHaveProperty('value', fields.code);
    expect(screen.queryByRole('alert')?.textContent ?? null).toBe(error ? feedbackText(error) : null);
    expect(screen.queryByRole('status')?.textContent ?? null).toBe(
      expired ? 'A sua sessão terminou. Inicie sessão novamente.' : null,
    );
    const enter = screen.getByRole('button', { name: 'Entrar' });
    expect(enter.dataset.loading).toBe(state.matches('loggingIn') ? 'true' : undefined);
    expect(enter).toHaveProperty('disabled', state.matches('loggingIn') || !canSubmitLogin(fields));
  },
};

const flow = recorder(adminSessionMachine);
afterAll(() => flow.assertCovered());

for (const visit of visits) {
  describe(`the operator's session, driven by its model through the console, ${visit.name}`, () => {
    for (const path of visit.paths) {
      it(`follows ${path.description}`, async () => {
        // The session check and the Today page's load wait for the path.
        const network = consoleNetwork({ getOperatorMe: () => undefined });
        flow.startPath();
        const app = await renderConsole('/pt/admin', {
          network,
          inspect: flow.inspect,
          operatorToken: visit.stored,
        });
        try {
          await started(flow);
          await drivePath(driver, path, flow, { network });
        } finally {
          app.stop();
        }
      });
    }
  });
}
