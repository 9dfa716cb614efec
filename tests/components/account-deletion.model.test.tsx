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

function events(state: Snapshot): Event[] {
  if (state.matches('closed')) return [{ type: 'deletion.open' }];
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
    serializeState: (state) => JSON.stringify([state.value, state.context.error]),
  }),
);
const paths = await covering(accountDeletionMachine, generated, { scripted: ['deleteAccount'] });

type World = { network: Network; app: App; deleted: boolean };

const confirmDialog = () => screen.queryByRole('dialog', { name: 'Eliminar conta' });

const driver: Driver<typeof accountDeletionMachine, World> = {
  answer(event, _, world) {
    const error = event.error as ApiError | undefined;
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
