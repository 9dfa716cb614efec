// @vitest-environment jsdom
import './support/mocks.ts';
import { fireEvent, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { getNextSnapshot, type EventFrom, type SnapshotFrom } from 'xstate';
import { adminTaskMachine } from '../../machines/adminTask.machine.ts';
import { ApiError } from '../../machines/api.ts';
import { covering, generatePaths, type ModelPath } from '../machines/model/paths.ts';
import {
  consoleNetwork,
  cutAfter,
  feedbackText,
  isSessionEnd,
  joinSteps,
  labelled,
  renderConsole,
  started,
  adminBranch,
} from './support/console.tsx';
import { drivePath, press, recorder, type Driver } from './support/model.ts';
import { errorAnswer, type Network } from './support/network.ts';

// The console's one-change machine (machines/adminTask.machine.ts) driven through a branch's page
// (`/pt/admin/branches/1`, src/admin/pages/Branches.tsx), whose "Ver o que muda" runs it: the button asks and
// confirms at once (the two model steps are one press, `task.run`), and editing any field dismisses what it
// answered (`task.dismiss`). The page runs two of these flows (the preview, then the save); the recorder follows
// the first. Every call is answered at the network with a body the contract allows.

type Event = EventFrom<typeof adminTaskMachine>;
type Snapshot = SnapshotFrom<typeof adminTaskMachine>;

const NAMES = ['Centro renovado', 'Centro novo'] as const;
const BRANCH = { ...adminBranch(1, 'Centro'), location: 'Rua Augusta 1, Lisboa' };
const PREVIEW = {
  changes: [{ field: 'name', before: 'Centro', after: 'Centro renovado' }],
  effects: ['landing_page_changes'],
  future_bookings: 3,
};

const answers = (state: Snapshot): Event[] =>
  state.matches('running')
    ? ([
        { type: 'xstate.done.actor.run', output: PREVIEW },
        { type: 'xstate.error.actor.run', error: new ApiError('branch_not_found', 'Filial não encontrada.') },
        { type: 'xstate.error.actor.run', error: new ApiError('unauthorized', 'Sessão terminada.') },
      ] as unknown as Event[])
    : [];

/**
 * What the owner can do: ask for the preview (the button asks and confirms, so a question just asked is only
 * confirmed), and after an answer or a failure, ask again or edit a field.
 */
function userEvents(state: Snapshot): Event[] {
  const ask = { type: 'task.ask', input: { id: BRANCH.id } } as Event;
  if (state.matches('idle')) return [ask];
  if (state.matches('confirming'))
    return state.context.error === null ? [{ type: 'task.confirm' }] : [ask, { type: 'task.dismiss' }];
  if (state.matches('done')) return [ask, { type: 'task.dismiss' }];
  return [];
}

/** A path that ends on a question is confirmed too: the page's button asks and confirms with one press. */
function confirmed(path: ModelPath<typeof adminTaskMachine>): ModelPath<typeof adminTaskMachine> {
  const last = path.steps.at(-1)!;
  if (last.event.type !== 'task.ask') return path;
  const event = { type: 'task.confirm' } as const;
  const state = getNextSnapshot(adminTaskMachine, last.state, event);
  return {
    steps: [...path.steps, { event, state }],
    state,
    description: `${path.description} → task.confirm`,
  };
}

const generated = cutAfter(
  generatePaths(adminTaskMachine, {
    events: (state) => [...answers(state), ...userEvents(state)],
    serializeState: (state) =>
      JSON.stringify([
        state.value,
        state.context.input !== null,
        state.context.output !== null,
        state.context.error,
      ]),
    maxStatesForSimplePaths: 0,
  }),
  isSessionEnd,
).map(confirmed);
const paths = (await covering(adminTaskMachine, generated, { scripted: ['run'] })).map((path) =>
  joinSteps(path, 'task.ask', 'task.confirm', 'task.run'),
);

/** `name`: what the name field holds; `ended`: the session-ending answer was given. */
type World = { network: Network; name: string; ended: boolean };

const NAME = 'Nome';
const previewButton = () => screen.getByRole('button', { name: 'Ver o que muda' });

/** Types the other name: the branch stays changed (its preview can be asked), the answer shown is dismissed. */
function editName(world: World) {
  world.name = world.name === NAMES[0] ? NAMES[1] : NAMES[0];
  fireEvent.change(labelled(NAME), { target: { value: world.name } });
}

const driver: Driver<typeof adminTaskMachine, World> = {
  answer(event, _, world) {
    const error = event.error as ApiError | undefined;
    return {
      operations: ['previewBranchUpdate'],
      answer: (call) => {
        // The branch's changes as typed, for that branch.
        expect(new URL(call.request.url).pathname).toBe(`/api/admin/branches/${BRANCH.id}/preview`);
        expect(call.body).toEqual({ name: world.name });
        if (error && isSessionEnd({ type: event.type, error })) world.ended = true;
        return error ? errorAnswer(error) : { status: 200, body: PREVIEW };
      },
    };
  },
  act: {
    'task.run': () => press(previewButton()),
    'task.dismiss': (_, __, world) => editName(world),
  },
  check(state, world) {
    if (world.ended) {
      // The session ended: the console shows its login, said so.
      expect(screen.getByRole('heading', { name: 'Consola de operação' })).toBeTruthy();
      expect(screen.getByRole('status').textContent).toBe('A sua sessão terminou. Inicie sessão novamente.');
      return;
    }
    expect(labelled(NAME)).toHaveProperty('value', world.name);
    const { error } = state.context;
    expect(screen.queryByRole('alert')?.textContent ?? null).toBe(error ? feedbackText(error) : null);
    expect(previewButton().dataset.loading).toBe(state.matches('running') ? 'true' : undefined);
    // The answer shows while it holds (done), and only then may the change be saved.
    const shown = screen.queryByRole('status');
    expect(shown !== null).toBe(state.matches('done'));
    if (shown) {
      expect(shown.textContent).toContain('Nome: Centro → Centro renovado');
      expect(shown.textContent).toContain('3 reservas futuras nesta filial.');
    }
    expect(screen.getByRole('button', { name: 'Guardar' })).toHaveProperty(
      'disabled',
      !state.matches('done'),
    );
  },
};

// The first of the page's two one-change flows: the preview's.
const flow = recorder(adminTaskMachine, { instance: 0 });
afterAll(() => flow.assertCovered());

await import('../../src/admin/pages/Branches.tsx');

describe("the console's one-change flow, driven by its model through a branch's preview", () => {
  for (const path of paths) {
    it(`follows ${path.description}`, async () => {
      const network = consoleNetwork({ getAdminBranch: () => ({ status: 200, body: BRANCH }) });
      flow.startPath();
      const app = await renderConsole(`/pt/admin/branches/${BRANCH.id}`, { network, inspect: flow.inspect });
      try {
        await started(flow);
        const world: World = { network, name: BRANCH.name, ended: false };
        // The branch changed: its preview can be asked (an edit in `idle` dismisses nothing).
        await screen.findByLabelText(/^Nome/, {}, { timeout: 5_000 });
        editName(world);
        await drivePath(driver, path, flow, world);
      } finally {
        app.stop();
      }
    });
  }
});

// Issue 30, item 1: the arrival kit is edited on the branch's page, a language per tab; the preview and the save
// send the whole kit as edited, the other fields left out.
describe("the branch page's arrival kit", () => {
  it('sends the Wi-Fi and the English directions typed, in the preview and the save', async () => {
    const network = consoleNetwork({
      getAdminBranch: () => ({ status: 200, body: BRANCH }),
      previewBranchUpdate: (call) => ({
        status: 200,
        body: {
          changes: [
            { field: 'arrival', before: BRANCH.arrival, after: (call.body as { arrival: unknown }).arrival },
          ],
          effects: [],
          future_bookings: 0,
        },
      }),
    });
    const app = await renderConsole(`/pt/admin/branches/${BRANCH.id}`, { network, inspect: () => {} });
    try {
      await screen.findByLabelText(/^Rede Wi-Fi/, {}, { timeout: 5_000 });
      fireEvent.change(labelled('Rede Wi-Fi'), { target: { value: 'Centro-Guest' } });
      fireEvent.click(screen.getByRole('tab', { name: 'en' }));
      fireEvent.change(await screen.findByLabelText(/^Como encontrar a entrada \(en\)/), {
        target: { value: 'Blue door, left of the café.' },
      });
      const kit = {
        ...BRANCH.arrival,
        wifi_network: 'Centro-Guest',
        texts: {
          ...BRANCH.arrival.texts,
          en: { directions: 'Blue door, left of the café.', keypad: '', rules: '' },
        },
      };
      press(previewButton());
      const shown = await screen.findByRole('status', {}, { timeout: 5_000 });
      const preview = network.calls.find((call) => call.operationId === 'previewBranchUpdate');
      expect(preview?.body).toEqual({ arrival: kit });
      // The change read as the form's labels with the values typed, only the parts that change, not as JSON.
      const lines = [...shown.querySelectorAll('p')].map((line) => line.textContent);
      expect(lines).toEqual([
        'Rede Wi-Fi: — → Centro-Guest',
        'Como encontrar a entrada (en): — → Blue door, left of the café.',
        '0 reservas futuras nesta filial.',
      ]);
      press(screen.getByRole('button', { name: 'Guardar' }));
      const saved = await network.answer(['updateAdminBranch'], {
        status: 200,
        body: { ...BRANCH, arrival: kit },
      });
      expect(saved.body).toEqual({ arrival: kit });
    } finally {
      app.stop();
    }
  });
});
