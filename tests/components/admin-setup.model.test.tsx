// @vitest-environment jsdom
import './support/mocks.ts';
import { fireEvent, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { adminSetupMachine } from '../../machines/adminSetup.machine.ts';
import { ApiError } from '../../machines/api.ts';
import { covering, generatePaths, withoutPrefixes } from '../machines/model/paths.ts';
import { consoleNetwork, feedbackText, labelled, renderConsole, started } from './support/console.tsx';
import { drivePath, press, recorder, type Driver } from './support/model.ts';
import { errorAnswer, type Network } from './support/network.ts';

// The password setup's machine (machines/adminSetup.machine.ts) driven through the real page the one-time link
// opens (`/pt/admin?setup=<token>`, src/admin/Setup.tsx): paths generated from the machine, each user event typing
// or pressing Guardar, each call answered at the network with a body the contract allows.

type Event = EventFrom<typeof adminSetupMachine>;
type Snapshot = SnapshotFrom<typeof adminSetupMachine>;

const SETUP_TOKEN = 'one-time';
const SECRET = 'a long new secret';

const answers = (state: Snapshot): Event[] =>
  state.matches('saving')
    ? ([
        { type: 'xstate.done.actor.setPassword' },
        {
          type: 'xstate.error.actor.setPassword',
          error: new ApiError('invalid_setup_token', 'Esta ligação já não é válida.'),
        },
        {
          type: 'xstate.error.actor.setPassword',
          error: new ApiError('internal_error', 'Erro no servidor.'),
        },
      ] as unknown as Event[])
    : [];

/** What the operator can do: type either password; Guardar once both are filled (the browser asks for both). */
function userEvents(state: Snapshot): Event[] {
  if (!state.matches('editing')) return [];
  const { password, confirmPassword } = state.context;
  const typed = [
    { type: 'field.change', field: 'password', value: SECRET },
    { type: 'field.change', field: 'confirmPassword', value: SECRET },
    { type: 'field.change', field: 'confirmPassword', value: 'something else' },
  ] as const;
  return [
    // Typing changes what a field holds: the same text again is no change (the page is not told of it).
    ...typed.filter((event) => state.context[event.field] !== event.value),
    ...(password !== '' && confirmPassword !== '' ? [{ type: 'setup.submit' as const }] : []),
  ];
}

const generated = withoutPrefixes(
  generatePaths(adminSetupMachine, {
    events: (state) => [...answers(state), ...userEvents(state)],
    input: { setupToken: SETUP_TOKEN },
    serializeState: (state) =>
      JSON.stringify([
        state.value,
        state.context.password,
        state.context.confirmPassword,
        state.context.error,
      ]),
    maxStatesForSimplePaths: 0,
  }),
);
const paths = await covering(adminSetupMachine, generated, {
  scripted: ['setPassword'],
  input: { setupToken: SETUP_TOKEN },
});

type World = { network: Network };

const LABELS = { password: 'Nova palavra-passe', confirmPassword: 'Confirmar a palavra-passe' } as const;

const driver: Driver<typeof adminSetupMachine, World> = {
  answer(event) {
    const error = event.error as ApiError | undefined;
    return {
      operations: ['operatorSetupPassword'],
      answer: (call) => {
        // The link's token and the password typed, nothing else.
        expect(call.body).toEqual({ token: SETUP_TOKEN, password: SECRET });
        return error ? errorAnswer(error) : { status: 200, body: { message: 'Palavra-passe definida.' } };
      },
    };
  },
  act: {
    'field.change': (event) => {
      const { field, value } = event as Extract<Event, { type: 'field.change' }>;
      fireEvent.change(labelled(LABELS[field]), { target: { value } });
    },
    'setup.submit': () => press(screen.getByRole('button', { name: 'Guardar' })),
  },
  check(state) {
    const alert = screen.queryByRole('alert');
    if (state.matches('done')) {
      expect(screen.getByRole('status').textContent).toMatch(/^Palavra-passe definida\./);
      expect(screen.queryByLabelText(/^Nova palavra-passe/)).toBeNull();
      expect(screen.getByRole('link', { name: 'Ir para o início de sessão' })).toBeTruthy();
      return;
    }
    if (state.matches('linkInvalid')) {
      expect(alert?.textContent).toBe(
        'Esta ligação já foi usada ou expirou. Peça uma nova a um responsável.',
      );
      expect(screen.queryByLabelText(/^Nova palavra-passe/)).toBeNull();
      return;
    }
    const { password, confirmPassword, error } = state.context;
    expect(labelled(LABELS.password)).toHaveProperty('value', password);
    expect(labelled(LABELS.confirmPassword)).toHaveProperty('value', confirmPassword);
    expect(alert?.textContent ?? null, 'the form says what went wrong, and only then').toBe(
      error ? feedbackText(error) : null,
    );
    expect(screen.getByRole('button', { name: 'Guardar' }).dataset.loading).toBe(
      state.matches('saving') ? 'true' : undefined,
    );
  },
};

const flow = recorder(adminSetupMachine);
afterAll(() => flow.assertCovered());

describe('the operator password setup, driven by its model through the one-time link page', () => {
  for (const path of paths) {
    it(`follows ${path.description}`, async () => {
      const network = consoleNetwork();
      flow.startPath();
      const app = await renderConsole(`/pt/admin?setup=${SETUP_TOKEN}`, {
        network,
        inspect: flow.inspect,
        operatorToken: null,
      });
      try {
        await started(flow);
        await drivePath(driver, path, flow, { network });
        // Two different passwords never reach the server.
        const sent = network.calls.filter((call) => call.operationId === 'operatorSetupPassword');
        expect(sent).toHaveLength(path.steps.filter((step) => step.state.matches('saving')).length);
      } finally {
        app.stop();
      }
    });
  }
});
