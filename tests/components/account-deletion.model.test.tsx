// @vitest-environment jsdom
import './support/mocks.ts';
import { screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { accountDeletionMachine } from '../../machines/accountDeletion.machine.ts';
import { ApiError } from '../../machines/api.ts';
import { useModalSearch } from '../../src/auth/useModalSearch.ts';
import { covering, generatePaths, withoutPrefixes } from '../machines/model/paths.ts';
import { renderApp, type App } from './support/app.tsx';
import { feedbackText } from './support/feedback.ts';
import { drivePath, press, recorder, type Driver } from './support/model.ts';
import { booking } from '../machines/bookings-fixtures.ts';
import { MEMBER } from './support/member.ts';
import { createNetwork, errorAnswer, type Network } from './support/network.ts';

const { default: AccountModal } = await import('../../src/account/AccountModal.tsx');

// Deleting the account (machines/accountDeletion.machine.ts) driven through the real account modal's settings tab
// (src/account/Settings.tsx and its confirmation dialog): paths generated from the machine, each user event a
// click, the deletion answered at the network with a body the contract allows. A deleted account logs the member
// out and closes the account modal (the page shows the account modal while the URL asks for it, as the app's
// modals do). Every transition of the machine has its control.

type Event = EventFrom<typeof accountDeletionMachine>;
type Snapshot = SnapshotFrom<typeof accountDeletionMachine>;

// What the member has booked (issue 30): one booking past its last refund, one refunded 20 €, one already past
// (not cancelled by a deletion, not listed).
const BOOKINGS = [
  booking(4, { refundable_eur: 20 }),
  booking(2, { refundable_eur: 0 }),
  booking(1, { is_cancelable: false, is_in_past: true }),
];

function events(state: Snapshot): Event[] {
  if (state.matches('closed')) return [{ type: 'deletion.open' }];
  if (state.matches('loading'))
    return [
      { type: 'deletion.cancel' },
      { type: 'xstate.done.actor.loadUpcoming', output: BOOKINGS },
      { type: 'xstate.error.actor.loadUpcoming', error: new ApiError('service_unavailable') },
    ] as unknown as Event[];
  if (state.matches('confirming')) return [{ type: 'deletion.cancel' }, { type: 'deletion.confirm' }];
  return [
    { type: 'xstate.done.actor.deleteAccount' },
    // Refused (the session ended meanwhile: the server's sentence) or the refund could not be issued (a fault).
    {
      type: 'xstate.error.actor.deleteAccount',
      error: new ApiError('unauthorized', 'A sua sessão terminou.'),
    },
    { type: 'xstate.error.actor.deleteAccount', error: new ApiError('service_unavailable') },
  ] as unknown as Event[];
}

const generated = withoutPrefixes(
  generatePaths(accountDeletionMachine, {
    events,
    serializeState: (state) =>
      JSON.stringify([state.value, state.context.error, state.context.upcoming?.length ?? null]),
  }),
);
const paths = await covering(accountDeletionMachine, generated, {
  scripted: ['loadUpcoming', 'deleteAccount'],
});

type World = { network: Network; app: App; deleted: boolean };

const confirmDialog = () => screen.queryByRole('dialog', { name: 'Eliminar conta' });

const driver: Driver<typeof accountDeletionMachine, World> = {
  answer(event, _, world) {
    const error = event.error as ApiError | undefined;
    if (event.type.endsWith('loadUpcoming'))
      return {
        operations: ['listMyBookings'],
        answer: () => (error ? errorAnswer(error) : { status: 200, body: BOOKINGS }),
      };
    return {
      operations: ['deleteAccount'],
      answer: () => {
        if (error) return errorAnswer(error);
        world.deleted = true;
        return { status: 200, body: { message: 'Conta eliminada.' } };
      },
    };
  },
  act: {
    'deletion.open': () =>
      press(
        within(screen.getByRole('dialog', { name: 'A minha conta' })).getByRole('button', {
          name: 'Eliminar conta',
        }),
      ),
    'deletion.cancel': () => press(within(confirmDialog()!).getByRole('button', { name: 'Cancelar' })),
    'deletion.confirm': () => press(within(confirmDialog()!).getByRole('button', { name: 'Eliminar conta' })),
  },
  check(state, { app, deleted }) {
    const session = app.runtime.session.getSnapshot();
    if (deleted) {
      // The account is gone: the member is logged out and the account modal closed.
      expect(state.matches('closed')).toBe(true);
      expect(app.search()).not.toMatch(/account_tab/);
      expect(screen.queryByRole('dialog'), 'no dialog stays open').toBeNull();
      expect(session.matches('loggedOut')).toBe(true);
      return;
    }
    expect(session.matches('loggedIn')).toBe(true);
    screen.getByRole('dialog', { name: 'A minha conta' });
    const dialog = confirmDialog();
    expect(dialog !== null, 'the confirmation is open exactly while it asks or deletes').toBe(
      !state.matches('closed'),
    );
    if (!dialog) return;
    // What the deletion cancels and refunds, once read: soonest first, the one past its refunds said so.
    const { upcoming } = state.context;
    const items = within(dialog)
      .queryAllByRole('listitem')
      .map((item) => item.textContent);
    if (state.matches('loading')) {
      within(dialog).getByLabelText('A carregar as suas reservas…');
      expect(within(dialog).getByRole('button', { name: 'Eliminar conta' })).toHaveProperty('disabled', true);
    } else if (upcoming) {
      expect(items).toHaveLength(2);
      expect(items[0]).toMatch(/: sem reembolso$/);
      expect(items[1]).toMatch(/: reembolso de 20\s€$/);
      within(dialog).getByText('Reembolso total: 20 €');
    } else {
      expect(items).toEqual([]);
      within(dialog).getByText(/reembolsadas de acordo com a política de reembolso/);
    }
    const alert = within(dialog).queryByRole('alert');
    const { error } = state.context;
    expect(alert?.textContent ?? null).toBe(error ? feedbackText(error) : null);
    expect(within(dialog).getByRole('button', { name: 'Eliminar conta' }).dataset.loading).toBe(
      state.matches('deleting') ? 'true' : undefined,
    );
  },
};

/** The page: the account modal while the URL asks for it. */
function Page() {
  return useModalSearch().account_tab ? <AccountModal hidden={false} /> : null;
}

const flow = recorder(accountDeletionMachine);
afterAll(() => flow.assertCovered());

describe('deleting the account, driven by its model through the settings tab', () => {
  for (const path of paths) {
    it(`follows ${path.description}`, async () => {
      const network = createNetwork({
        validateToken: () => ({ status: 200, body: { valid: true } }),
        getMe: () => ({ status: 200, body: MEMBER }),
        listBranches: () => ({ status: 200, body: [] }),
        logout: () => ({ status: 204 }),
      });
      flow.startPath();
      const app = await renderApp(Page, {
        search: 'account_tab=settings',
        network,
        inspect: flow.inspect,
        token: 'member-token',
      });
      try {
        await drivePath(driver, path, flow, { network, app, deleted: false });
      } finally {
        app.runtime.session.stop();
        app.runtime.startup.stop();
      }
    });
  }
});
