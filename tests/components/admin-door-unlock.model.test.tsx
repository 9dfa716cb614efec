// @vitest-environment jsdom
import './support/mocks.ts';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { adminDoorUnlockMachine, isUnlockReady } from '../../machines/adminDoorUnlock.machine.ts';
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

// 'Open now' (machines/adminDoorUnlock.machine.ts) driven through the real door page (`/pt/admin/doors?branchId=1`,
// src/admin/pages/Doors.tsx) and its dialog, opened before each path: each user event a typed reason (or a blank
// one), the dialog's submit, or 'open again'; the opening answered at the network as the contract allows.

type Event = EventFrom<typeof adminDoorUnlockMachine>;
type Snapshot = SnapshotFrom<typeof adminDoorUnlockMachine>;

const DOOR = 'virtual-door-1';
const PAGE = {
  branch: { id: 1, name: 'Centro', time_zone: 'Europe/Lisbon' },
  on_call: { email: null, phone: null },
  doors: [
    {
      device_id: DOOR,
      name: 'Porta virtual de Centro',
      online: true,
      battery_level: null,
      provider_error: null,
      codes: { pending: 0, programming: 0, set: 2, failed: 0, revoking: 0, revoked: 0 },
    },
  ],
  feed: [],
  no_shows: [],
  overstays: [],
};
const INPUT = { branchId: 1, deviceId: DOOR };

const answers = (state: Snapshot): Event[] =>
  state.matches('unlocking')
    ? ([
        { type: 'xstate.done.actor.unlockDoor' },
        {
          type: 'xstate.error.actor.unlockDoor',
          error: new ApiError('door_offline', 'A porta está sem ligação e não pode ser aberta à distância.'),
        },
        { type: 'xstate.error.actor.unlockDoor', error: new ApiError('unauthorized', 'Sessão terminada.') },
      ] as unknown as Event[])
    : [];

/** What the operator can do: type a reason or blank it, and press 'Abrir agora' once it has one. */
function userEvents(state: Snapshot): Event[] {
  if (!state.matches('editing')) return [];
  return [
    ...['Cliente à porta', '']
      .filter((value) => value !== state.context.reason)
      .map((value) => ({ type: 'reason.change' as const, value })),
    ...(isUnlockReady(state.context) ? [{ type: 'unlock.submit' as const }] : []),
  ];
}

const generated = cutAfter(
  generatePaths(adminDoorUnlockMachine, {
    events: (state) => [...answers(state), ...userEvents(state)],
    input: INPUT,
    serializeState: (state) => JSON.stringify([state.value, state.context.reason, state.context.error]),
    maxStatesForSimplePaths: 0,
  }),
  isSessionEnd,
);
const paths = await covering(adminDoorUnlockMachine, generated, { scripted: ['unlockDoor'], input: INPUT });

type World = { network: Network; ended: boolean; requestIds: string[] };

const dialog = () => screen.getByRole('dialog', { name: 'Abrir Porta virtual de Centro agora' });

const driver: Driver<typeof adminDoorUnlockMachine, World> = {
  answer(event, before, world) {
    const error = event.error as ApiError | undefined;
    return {
      operations: ['unlockBranchDoor'],
      answer: (call) => {
        expect(new URL(call.request.url).pathname).toBe(`/api/admin/branches/1/doors/${DOOR}/unlock`);
        const body = call.body as { reason: string; request_id: string };
        expect(body.reason).toBe(before.context.reason.trim());
        // Each press is one attempt with an id of its own.
        expect(world.requestIds).not.toContain(body.request_id);
        world.requestIds.push(body.request_id);
        if (error && isSessionEnd({ type: event.type, error })) world.ended = true;
        return error
          ? errorAnswer(error)
          : {
              status: 200,
              body: {
                device_id: DOOR,
                outcome: 'opened',
                requested_at: '2026-11-27T10:00:00Z',
                finished_at: '2026-11-27T10:00:01Z',
              },
            };
      },
    };
  },
  act: {
    'reason.change': (event) =>
      void fireEvent.change(labelled('Motivo', dialog()), {
        target: { value: (event as Extract<Event, { type: 'reason.change' }>).value },
      }),
    'unlock.submit': () => press(within(dialog()).getByRole('button', { name: /^Abrir agora$/ })),
  },
  check(state, world) {
    if (world.ended) {
      expect(screen.getByRole('heading', { name: 'Consola de operação' })).toBeTruthy();
      return;
    }
    const inside = within(dialog());
    if (state.matches('opened')) {
      expect(inside.getByRole('status').textContent).toContain('A porta abriu');
      return;
    }
    expect(labelled('Motivo', dialog())).toHaveProperty('value', state.context.reason);
    const error = state.context.error;
    expect(inside.queryByRole('alert')?.textContent ?? null).toBe(error ? feedbackText(error) : null);
    const submit = inside.getByRole('button', { name: /^Abrir agora$/ });
    expect(submit.dataset.loading).toBe(state.matches('unlocking') ? 'true' : undefined);
    // No reason, no opening: the button is off.
    if (state.matches('editing')) expect(submit).toHaveProperty('disabled', !isUnlockReady(state.context));
  },
};

const flow = recorder(adminDoorUnlockMachine);
afterAll(() => flow.assertCovered());

await import('../../src/admin/pages/Doors.tsx');

describe("'Open now', driven by its model through the door page's dialog", () => {
  for (const path of paths) {
    it(`follows ${path.description}`, async () => {
      const world: World = { network: consoleNetwork(), ended: false, requestIds: [] };
      world.network = consoleNetwork({
        getBranchDoors: () => ({ status: 200, body: PAGE }),
        listAdminBranches: () => ({ status: 200, body: [] }),
      });
      flow.startPath();
      const app = await renderConsole('/pt/admin/doors?branchId=1', {
        network: world.network,
        inspect: flow.inspect,
      });
      try {
        press(await screen.findByRole('button', { name: 'Abrir agora…' }, { timeout: 5_000 }));
        await started(flow);
        await drivePath(driver, path, flow, world);
      } finally {
        app.stop();
      }
    });
  }
});
