import { expect, test, type Page } from '@playwright/test';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { myBookingsMachine } from '../machines/myBookings.machine.ts';
import { booking } from '../tests/machines/bookings-fixtures.ts';
import { generatePaths } from '../tests/machines/model/paths.ts';
import { apiLogin, bookableSlots, bookAndPay, DEMO_ACCOUNT, storeToken } from './support/accounts.ts';
import { range, type ApiSlot } from './support/booking.ts';
import { open } from './support/fixtures.ts';
import { reportCoverage, runPath, titleOf, withoutPrefixes, type ModelDriver } from './support/model.ts';

type Event = EventFrom<typeof myBookingsMachine>;
type Snapshot = SnapshotFrom<typeof myBookingsMachine>;

// The real world of each path: one paid booking of the demo account, far enough ahead to be cancelable with a
// full refund. The model's list is that booking; after a cancellation, the same booking canceled. The demo
// account has other bookings (other paths run at once), so the checks look at this path's booking only, and the
// paths book every other slot, so no two of their bookings are back to back (those would be shown as one group).
// Left to the vitest model: a failed list load, a refused cancellation (409: the refund changed, or the booking
// can no longer be cancelled; 5xx) and `bookings.reload` (no control sends it); the real server cannot be made to
// give those answers on demand.
const PAID = booking(1, { refundable_eur: 20 });
const CANCELED = booking(1, { is_cancelable: false, active: false, canceled: true });

function events(state: Snapshot): Event[] {
  const { bookings, selected } = state.context;
  if (state.matches('loading'))
    return [
      { type: 'xstate.done.actor.loadBookings', output: bookings.length === 0 ? [PAID] : [CANCELED] },
    ] as unknown as Event[];
  if (state.matches({ dialog: 'cancelling' })) return [{ type: 'xstate.done.actor.cancelBookings' }] as never;
  return [
    { type: 'booking.toggle', id: PAID.id },
    // The buttons are disabled without a selection.
    ...(selected.length > 0 ? [{ type: 'selection.clear' }, { type: 'dialog.open' }] : []),
    { type: 'cancellation.confirm' },
    { type: 'dialog.cancel' },
  ] as Event[];
}

const paths = withoutPrefixes(
  generatePaths(myBookingsMachine, {
    events,
    maxStatesForSimplePaths: 0,
    serializeState: (state) =>
      `${JSON.stringify(state.value)} loaded:${state.context.bookings.length} selected:${state.context.selected.length} canceled:${state.context.bookings.some((item) => item.canceled)}`,
  }),
);

type Data = { label: RegExp };

const driver: ModelDriver<typeof myBookingsMachine, Data> = {
  machine: myBookingsMachine,
  calls: {
    loadBookings: (request) =>
      request.method() === 'GET' && request.url().endsWith('/api/bookings/my-bookings'),
    cancelBookings: (request) =>
      request.method() === 'POST' && request.url().endsWith('/api/bookings/cancel-bookings'),
  },
  async setup({ page, request }, path) {
    // One login per worker: the server allows 30 logins per 15 minutes from one address.
    demoToken ??= apiLogin(request, DEMO_ACCOUNT);
    const token = await demoToken;
    // Each path its own slot, 20 days ahead and on: no two paths of this spec (or others) share one.
    const index = paths.indexOf(path);
    const { slots } = await bookableSlots(request, 20 + Math.floor(index / 6));
    const slot = slots[(index % 6) * 2]!;
    await bookAndPay(request, token, [slot]);
    await storeToken(page, token);
    await open(page, '/pt?account_tab=myBookings');
    return { label: bookingLabel(slot) };
  },
  act: {
    'booking.toggle': ({ page, data }) => account(page).getByRole('checkbox', { name: data.label }).click(),
    'selection.clear': ({ page }) => account(page).getByRole('button', { name: 'Desmarcar todas' }).click(),
    'dialog.open': ({ page }) =>
      account(page).getByRole('button', { name: 'Cancelar as reservas selecionadas' }).click(),
    'dialog.cancel': ({ page }) =>
      cancelDialog(page).getByRole('button', { name: 'Cancelar', exact: true }).click(),
    'cancellation.confirm': ({ page }) =>
      cancelDialog(page).getByRole('button', { name: 'Confirmar', exact: true }).click(),
  },
  states: [
    {
      name: 'the list is loading: no list and no buttons yet',
      matches: (state) => state.matches('loading'),
      async expect({ page }) {
        await expect(account(page)).toBeVisible();
        await expect(cancelDialog(page)).toHaveCount(0);
        await expect(
          account(page).getByRole('button', { name: 'Cancelar as reservas selecionadas' }),
        ).toHaveCount(0);
        await expect(account(page).getByRole('checkbox')).toHaveCount(0);
      },
    },
    {
      name: 'the list, the selection and the buttons that follow it',
      matches: (state) => state.matches('ready'),
      async expect({ page, data }, state) {
        const list = account(page);
        await expect(cancelDialog(page)).toHaveCount(0);
        await expect(list.getByText(/^Reservas ativas \(\d+\)$/).first()).toBeVisible();
        const canceled = state.context.bookings.some((item) => item.canceled);
        // A canceled booking moves to the closed 'Reservas canceladas' list: nothing to select any more.
        const box = list.getByRole('checkbox', { name: data.label });
        const selected = state.context.selected.length > 0;
        if (canceled) await expect(box).toHaveCount(0);
        else if (selected) await expect(box).toBeChecked();
        else await expect(box).not.toBeChecked();
        for (const name of ['Cancelar as reservas selecionadas', 'Desmarcar todas']) {
          const button = list.getByRole('button', { name });
          if (selected) await expect(button).toBeEnabled();
          else await expect(button).toBeDisabled();
        }
      },
    },
    {
      name: 'the dialog lists the selected booking and its refund',
      matches: (state) => state.matches({ dialog: 'idle' }),
      async expect({ page }) {
        const dialog = cancelDialog(page);
        await expect(dialog).toBeVisible();
        await expect(dialog.getByRole('row')).toHaveCount(2);
        await expect(dialog.getByRole('row').nth(1)).toContainText('(100%)');
        await expect(dialog.getByText(/^Total a reembolsar: /)).toBeVisible();
        await expect(dialog.getByRole('alert')).toHaveCount(0);
        await expect(dialog.getByRole('button', { name: 'Confirmar', exact: true })).toBeEnabled();
        await expect(dialog.getByRole('button', { name: 'Confirmar', exact: true })).not.toHaveAttribute(
          'data-loading',
        );
      },
    },
    {
      name: 'the dialog is busy cancelling',
      matches: (state) => state.matches({ dialog: 'cancelling' }),
      async expect({ page }) {
        const dialog = cancelDialog(page);
        await expect(dialog).toBeVisible();
        await expect(dialog.getByRole('button', { name: 'Confirmar', exact: true })).toHaveAttribute(
          'data-loading',
          'true',
        );
      },
    },
  ],
};

let demoToken: Promise<string> | undefined;

/** The booking card's checkbox label: 'Selecionar a reserva de <weekday>, <day> de <month> de <year>, HH:mm - HH:mm'. */
function bookingLabel(slot: ApiSlot): RegExp {
  const date = new Date(`${slot.start_time.slice(0, 10)}T12:00:00Z`);
  const month = new Intl.DateTimeFormat('pt-PT', { month: 'long', timeZone: 'UTC' }).format(date);
  return new RegExp(
    `^Selecionar a reserva de .*\\b${date.getUTCDate()} de ${month} de ${date.getUTCFullYear()}.* ${range(slot)}$`,
  );
}

function account(page: Page) {
  return page.getByRole('dialog', { name: 'A minha conta' });
}
function cancelDialog(page: Page) {
  return page.getByRole('dialog', { name: 'Cancelar reservas' });
}

test.describe('my bookings and their cancellation, driven by the model', () => {
  for (const path of paths) {
    test(`follows ${titleOf(path)}`, async ({ page, request, baseURL }) => {
      await runPath(driver, path, { page, request, baseURL });
    });
  }

  test('the paths run through the UI check every state they reach and cover 5 states and 7 transitions', async () => {
    await reportCoverage(driver, paths, ['loadBookings', 'cancelBookings'], { states: 5, transitions: 7 });
  });
});
