// @vitest-environment jsdom
import './support/mocks.ts';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { adminClosureMachine, isClosureComplete } from '../../machines/adminClosure.machine.ts';
import { ApiError } from '../../machines/api.ts';
import { formatLocalDate } from '../../src/admin/dates.tsx';
import { intlTag } from '../../src/i18n/format.ts';
import { covering, generatePaths } from '../machines/model/paths.ts';
import {
  consoleNetwork,
  cutAfter,
  feedbackText,
  isSessionEnd,
  labelled,
  renderConsole,
  shortestThrough,
  started,
  adminBranch,
} from './support/console.tsx';
import { drivePath, press, recorder, type Driver } from './support/model.ts';
import { errorAnswer, type Network } from './support/network.ts';

// A branch's closure (machines/adminClosure.machine.ts) driven through the real closures page
// (`/pt/admin/closures`, src/admin/pages/Closures.tsx): each user event a choice of branch, a date and time or a
// reason typed as the console's language writes them, or one of the form's buttons; the preview and the closure
// answered at the network with bodies the contract allows.

type Event = EventFrom<typeof adminClosureMachine>;
type Snapshot = SnapshotFrom<typeof adminClosureMachine>;
type FieldChange = Extract<Event, { type: 'field.change' }>;
type BranchChange = Extract<Event, { type: 'branch.change' }>;

const BRANCH = { id: 1, name: 'Centro', time_zone: 'Europe/Lisbon' };
const ADMIN_BRANCH = { ...adminBranch(1, 'Centro'), location: 'Rua Augusta 1, Lisboa' };
const FROM = '2026-11-24T18:00';
const TO = '2026-11-24T23:00';
const REASON = 'Fuga de água';
const PREVIEW = { slots: 5, bookings: [], refund_total_eur: 0 };
// Lisbon keeps UTC in November: the branch's wall-clock times are these instants.
const CLOSURE = {
  id: 7,
  branch: BRANCH,
  starts_at: '2026-11-24T18:00:00Z',
  ends_at: '2026-11-24T23:00:00Z',
  reason: REASON,
  created_at: '2026-11-24T12:00:00Z',
  created_by: 'owner@gym.example',
  reopened_at: null,
  canceled_booking_ids: [],
};

const answers = (state: Snapshot): Event[] => {
  if (state.matches('previewing'))
    return [
      { type: 'xstate.done.actor.previewClosure', output: PREVIEW },
      {
        type: 'xstate.error.actor.previewClosure',
        error: new ApiError('branch_not_found', 'Filial não encontrada.'),
      },
      { type: 'xstate.error.actor.previewClosure', error: new ApiError('unauthorized', 'Sessão terminada.') },
    ] as unknown as Event[];
  if (state.matches('closing'))
    return [
      { type: 'xstate.done.actor.closeBranch' },
      {
        type: 'xstate.error.actor.closeBranch',
        error: new ApiError('service_unavailable', 'Serviço indisponível.'),
      },
      { type: 'xstate.error.actor.closeBranch', error: new ApiError('unauthorized', 'Sessão terminada.') },
    ] as unknown as Event[];
  return [];
};

/** What the owner can do: fill the form (a period ending too early among the choices), and press what is shown. */
function userEvents(state: Snapshot): Event[] {
  if (state.matches('editing')) {
    const { fields } = state.context;
    const typed: FieldChange[] = [
      { type: 'field.change', field: 'from', value: FROM },
      { type: 'field.change', field: 'to', value: TO },
      { type: 'field.change', field: 'to', value: '2026-11-24T17:00' },
      { type: 'field.change', field: 'reason', value: REASON },
      { type: 'field.change', field: 'reason', value: '' },
    ];
    const branches: BranchChange[] = [
      { type: 'branch.change', branchId: BRANCH.id, timeZone: BRANCH.time_zone },
      { type: 'branch.change', branchId: null, timeZone: 'UTC' },
    ];
    return [
      ...branches.filter((event) => event.branchId !== fields.branchId),
      ...typed.filter((event) => fields[event.field] !== event.value),
      ...(isClosureComplete(fields) ? [{ type: 'closure.preview' as const }] : []),
    ];
  }
  if (state.matches('reviewing')) return [{ type: 'closure.back' }, { type: 'closure.confirm' }];
  if (state.matches('closed')) return [{ type: 'closure.again' }];
  return [];
}

const generated = cutAfter(
  generatePaths(adminClosureMachine, {
    events: (state) => [...answers(state), ...userEvents(state)],
    serializeState: (state) =>
      JSON.stringify([
        state.value,
        state.context.fields,
        state.context.preview !== null,
        state.context.error,
      ]),
    maxStatesForSimplePaths: 0,
  }),
  isSessionEnd,
);
const covered = await covering(adminClosureMachine, generated, {
  scripted: ['previewClosure', 'closeBranch'],
});
// What keeps the preview off is shown by the page too: a period that ends before it starts, no branch.
const paths = [
  ...new Set([
    ...covered,
    shortestThrough(generated, (state) => state.context.fields.to === '2026-11-24T17:00'),
    shortestThrough(
      generated,
      (state) => state.context.fields.branchId === null && state.context.fields.reason !== '',
    ),
  ]),
];

/** `ended`: the session-ending answer was given; `closed`: the server closed the branch. */
type World = { network: Network; ended: boolean; closed: boolean };

const LABELS = {
  branch: 'Filial',
  from: 'Desde (hora da filial)',
  to: 'Até (hora da filial)',
  reason: 'Motivo (dito aos clientes)',
} as const;
/** A branch's wall-clock time as the console's Portuguese date field writes it. */
const written = (value: string) => formatLocalDate(value, intlTag('pt'), true);
const form = () => screen.getByRole('region', { name: 'Encerrar uma filial' });
const button = (name: string) => within(form()).getByRole('button', { name });

const driver: Driver<typeof adminClosureMachine, World> = {
  answer(event, before, world) {
    const error = event.error as ApiError | undefined;
    const closing = event.type.endsWith('closeBranch');
    return {
      operations: [closing ? 'createClosure' : 'previewClosure'],
      answer: (call) => {
        // The branch, its period as instants of the branch's zone, the trimmed reason.
        const { fields } = before.context;
        expect(call.body).toEqual({
          branch_id: fields.branchId,
          starts_at: '2026-11-24T18:00:00Z',
          ends_at: '2026-11-24T23:00:00Z',
          reason: fields.reason.trim(),
        });
        if (error && isSessionEnd({ type: event.type, error })) world.ended = true;
        if (closing && !error) world.closed = true;
        if (error) return errorAnswer(error);
        return closing ? { status: 201, body: CLOSURE } : { status: 200, body: PREVIEW };
      },
    };
  },
  act: {
    'branch.change': (event) =>
      void fireEvent.change(labelled(LABELS.branch, form()), {
        target: { value: String((event as BranchChange).branchId ?? '') },
      }),
    'field.change': (event) => {
      const { field, value } = event as FieldChange;
      fireEvent.change(labelled(LABELS[field], form()), {
        target: { value: field === 'reason' ? value : written(value) },
      });
    },
    'closure.preview': () => press(button('Ver as reservas afetadas')),
    'closure.back': () => press(button('Voltar')),
    'closure.confirm': () => press(button('Encerrar e reembolsar')),
    'closure.again': () => press(button('Encerrar outro período')),
  },
  check(state, world) {
    if (world.ended) {
      // The session ended: the console shows its login, said so.
      expect(screen.getByRole('heading', { name: 'Consola de operação' })).toBeTruthy();
      expect(screen.getByRole('status').textContent).toBe('A sua sessão terminou. Inicie sessão novamente.');
      return;
    }
    const { fields, error } = state.context;
    const inside = within(form());
    // The closures on record: the new one once the server closed the branch (the list reloads).
    expect(screen.queryByText(REASON, { selector: 'p' }) !== null).toBe(world.closed);
    // A failure is said on the form or the review (once closed, there is neither).
    expect(inside.queryByRole('alert')?.textContent ?? null).toBe(
      error && !state.matches('closed') ? feedbackText(error) : null,
    );
    if (state.matches('closed')) {
      expect(inside.getByRole('status').textContent).toBe(
        'A filial está encerrada nesse período. As reservas foram canceladas e os clientes avisados.',
      );
      expect(inside.queryByLabelText(/^Filial/)).toBeNull();
      return;
    }
    if (state.matches('reviewing') || state.matches('closing')) {
      // The bookings the period cancels, for the period on the form.
      expect(form().textContent).toContain('Nenhuma reserva é cancelada. 5 horários ficam fechados.');
      expect(inside.queryByLabelText(/^Filial/)).toBeNull();
      expect(button('Voltar')).toHaveProperty('disabled', state.matches('closing'));
      expect(button('Encerrar e reembolsar').dataset.loading).toBe(
        state.matches('closing') ? 'true' : undefined,
      );
      return;
    }
    expect(labelled(LABELS.branch, form())).toHaveProperty('value', String(fields.branchId ?? ''));
    expect(labelled(LABELS.from, form())).toHaveProperty('value', written(fields.from));
    expect(labelled(LABELS.to, form())).toHaveProperty('value', written(fields.to));
    expect(labelled(LABELS.reason, form())).toHaveProperty('value', fields.reason);
    const preview = button('Ver as reservas afetadas');
    expect(preview.dataset.loading).toBe(state.matches('previewing') ? 'true' : undefined);
    if (state.matches('editing')) expect(preview).toHaveProperty('disabled', !isClosureComplete(fields));
  },
};

const flow = recorder(adminClosureMachine);
afterAll(() => flow.assertCovered());

await import('../../src/admin/pages/Closures.tsx');

describe("a branch's closure, driven by its model through the closures page", () => {
  for (const path of paths) {
    it(`follows ${path.description}`, async () => {
      const world: World = { network: consoleNetwork(), ended: false, closed: false };
      world.network = consoleNetwork({
        listAdminBranches: () => ({ status: 200, body: [ADMIN_BRANCH] }),
        listClosures: () => ({ status: 200, body: world.closed ? [CLOSURE] : [] }),
      });
      flow.startPath();
      const app = await renderConsole('/pt/admin/closures', {
        network: world.network,
        inspect: flow.inspect,
      });
      try {
        await started(flow);
        // The branches to choose from are there.
        await screen.findByRole('option', { name: BRANCH.name }, { timeout: 5_000 });
        await drivePath(driver, path, flow, world);
      } finally {
        app.stop();
      }
    });
  }
});
