// @vitest-environment jsdom
import './support/mocks.ts';
import { screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import { myBookingsMachine, type HistoryPage } from '../../machines/myBookings.machine.ts';
import { listOf, type Booking } from '../../machines/myBookings.selectors.ts';
import {
  bookingAt,
  CHANGED_BOOKINGS,
  FIRST_BOOKINGS,
  LONG_HISTORY,
  pastBooking,
} from '../machines/bookings-fixtures.ts';
import { covering, generatePaths, withoutPrefixes } from '../machines/model/paths.ts';
import { renderApp } from './support/app.tsx';
import { cutAfter } from './support/console.tsx';
import { drivePath, press, recorder, type Driver } from './support/model.ts';
import { MEMBER } from './support/member.ts';
import { createNetwork, errorAnswer, type Network } from './support/network.ts';

const { default: AccountModal } = await import('../../src/account/AccountModal.tsx');

// My bookings' machine (machines/myBookings.machine.ts) driven through the real account modal's bookings tab
// (src/account/MyBookings.tsx): paths generated from the machine, each user event a click in the rendered lists
// and dialog, each call answered at the network with a body the contract allows. `bookings.reload` has no control
// (nothing in the UI sends it), so the UI reaches at most 21 of the 22 transitions.

type Event = EventFrom<typeof myBookingsMachine>;
type Snapshot = SnapshotFrom<typeof myBookingsMachine>;

const FIRST = FIRST_BOOKINGS;
const CHANGED = CHANGED_BOOKINGS;
const LONG = LONG_HISTORY;
const AGAIN = { branch_id: 1, date: '2026-12-08', time_slot_id: 77, start_time: '2026-12-08T10:00:00+00:00' };
const OLDER: HistoryPage = { bookings: [pastBooking(5), pastBooking(4)], nextCursor: null };

const answers = (state: Snapshot): Event[] => {
  const loaded = state.context.bookings;
  if (state.matches('loading'))
    return [
      ...(loaded.length === 0 ? [FIRST, LONG] : [FIRST]).map((output) => ({
        type: 'xstate.done.actor.loadBookings',
        output,
      })),
      { type: 'xstate.error.actor.loadBookings', error: new ApiError('internal_error') },
    ] as unknown as Event[];
  if (state.matches({ dialog: 'refreshing' }))
    return [
      { type: 'xstate.done.actor.loadBookings', output: CHANGED },
      { type: 'xstate.error.actor.loadBookings', error: new ApiError('service_unavailable') },
    ] as unknown as Event[];
  if (state.matches('loadingHistory'))
    return [
      { type: 'xstate.done.actor.loadHistory', output: OLDER },
      { type: 'xstate.error.actor.loadHistory', error: new ApiError('service_unavailable') },
    ] as unknown as Event[];
  if (state.matches('findingAgain'))
    return [
      { type: 'xstate.done.actor.findBookAgainSlot', output: AGAIN },
      {
        type: 'xstate.error.actor.findBookAgainSlot',
        error: new ApiError('no_free_week', 'Este horário não está livre em nenhuma das próximas semanas.'),
      },
    ] as unknown as Event[];
  if (state.matches('resendingCode'))
    return [
      { type: 'xstate.done.actor.resendCode' },
      { type: 'xstate.error.actor.resendCode', error: new ApiError('rate_limited', 'Demasiados pedidos.') },
    ] as unknown as Event[];
  if (state.matches({ dialog: 'cancelling' }))
    return [
      { type: 'xstate.done.actor.cancelBookings' },
      {
        type: 'xstate.error.actor.cancelBookings',
        error: new ApiError('refund_changed', 'O reembolso é agora 5 €.'),
      },
      { type: 'xstate.error.actor.cancelBookings', error: new ApiError('service_unavailable') },
    ] as unknown as Event[];
  return [];
};

/** What the user can do: the controls shown and enabled in the state. */
function userEvents(state: Snapshot): Event[] {
  const { bookings, selected, olderHistory } = state.context;
  if (state.matches('ready'))
    return [
      ...bookings
        .filter((item) => item.is_cancelable && !item.is_in_past)
        .map((item) => ({ type: 'booking.toggle' as const, id: item.id })),
      ...(selected.length > 0
        ? [{ type: 'selection.clear' as const }, { type: 'dialog.open' as const }]
        : []),
      ...(olderHistory !== null ? [{ type: 'history.more' as const }] : []),
      ...bookings
        .filter((item) => item.lock_code !== null)
        .map((item) => ({ type: 'code.resend' as const, id: item.id })),
      // "Book again" on the first booking of the history shown (one is enough for every transition).
      ...bookings
        .filter((item) => listOf(item) !== 'active')
        .slice(0, 1)
        .map((item) => ({ type: 'booking.again' as const, id: item.id })),
    ];
  if (state.matches({ dialog: 'idle' }))
    return [
      ...(selected.length > 0 ? [{ type: 'cancellation.confirm' as const }] : []),
      { type: 'dialog.cancel' },
    ];
  return [];
}

const listName = (bookings: Booking[]) =>
  bookings === FIRST ? 'first' : bookings === CHANGED ? 'changed' : bookings.map((item) => item.id).join(',');

// The model logs nothing while paths are generated; the running modal's logging is checked below.
const model = myBookingsMachine.provide({ actions: { logLoadFailure: () => {} } });
const generated = withoutPrefixes(
  generatePaths(model, {
    events: (state) => [...answers(state), ...userEvents(state)],
    serializeState: (state) =>
      JSON.stringify([
        state.value,
        listName(state.context.bookings),
        [...state.context.selected].sort(),
        state.context.error,
        state.context.codeNotice,
        state.context.olderHistory,
        state.context.cancelled,
        state.context.again,
      ]),
    maxStatesForSimplePaths: 0,
  }),
);
// The slot found opens the booking modal in place of the account modal: nothing more is done on this page.
const cut = cutAfter(generated, (event) => event.type === 'xstate.done.actor.findBookAgainSlot');
const SCRIPTED = ['loadBookings', 'cancelBookings', 'resendCode', 'loadHistory', 'findBookAgainSlot'];
const paths = await covering(model, cut, { scripted: SCRIPTED });

/** `opened`: the slot of "Book again" was answered, so the booking modal opens in place of this one. */
type World = { network: Network; search: () => string; opened: boolean };

const card = (id: number) => {
  const found = screen.getAllByTestId('booking').find((item) => item.textContent?.includes(`#${id}`));
  if (!found) throw new Error(`booking #${id} is not shown`);
  return found;
};
const button = (name: string) => screen.getByRole('button', { name });
const cancelDialog = () => screen.getByRole('dialog', { name: 'Cancelar reservas' });

const driver: Driver<typeof myBookingsMachine, World> = {
  answer(event, _, world) {
    const actor = /actor\.(.+)$/.exec(event.type)![1]!;
    const error = event.error as ApiError | undefined;
    if (actor === 'loadBookings')
      return {
        operations: ['listMyBookings'],
        answer: error ? errorAnswer(error) : { status: 200, body: event.output },
      };
    if (actor === 'loadHistory') {
      const page = event.output as HistoryPage | undefined;
      return {
        operations: ['listMyBookings'],
        answer: error
          ? errorAnswer(error)
          : {
              status: 200,
              body: page!.bookings,
              headers: page!.nextCursor ? { 'next-history-cursor': page!.nextCursor } : {},
            },
      };
    }
    if (actor === 'findBookAgainSlot')
      return {
        operations: ['findBookAgainSlot'],
        answer: () => {
          world.opened = !error;
          return error ? errorAnswer(error) : { status: 200, body: event.output };
        },
      };
    if (actor === 'resendCode')
      return {
        operations: ['resendAccessCode'],
        answer: error ? errorAnswer(error) : { status: 202, body: { message: 'Código enviado.' } },
      };
    return {
      operations: ['cancelBookings'],
      answer: error ? errorAnswer(error) : { status: 200, body: { message: 'Reservas canceladas.' } },
    };
  },
  act: {
    'booking.toggle': (event) =>
      press(
        within(card((event as { id: number }).id)).getByRole('checkbox', {
          name: /^Selecionar a reserva de/,
        }),
      ),
    'selection.clear': () => press(button('Desmarcar todas')),
    'dialog.open': () => press(button('Cancelar as reservas selecionadas')),
    // Named for what they do (issue 30): keep or cancel the chosen bookings.
    'dialog.cancel': () =>
      press(within(cancelDialog()).getByRole('button', { name: /^Manter (a reserva|as reservas)$/ })),
    'cancellation.confirm': () =>
      press(within(cancelDialog()).getByRole('button', { name: /^Cancelar (a reserva|as reservas)$/ })),
    'history.more': () => press(button('Mostrar reservas mais antigas')),
    'booking.again': (event) =>
      press(within(card((event as { id: number }).id)).getByRole('button', { name: /^Reservar de novo/ })),
    'code.resend': () =>
      press(
        within(screen.getByRole('region', { name: 'Códigos da porta' })).getByRole('button', {
          name: 'Enviar o código novamente',
        }),
      ),
  },
  check(state, world) {
    const { bookings, selected, error, codeNotice, olderHistory, cancelled, again } = state.context;
    // "Book again" (issue 30): the booking modal opens on the slot found, in place of the account modal.
    if (world.opened) {
      const search = new URLSearchParams(world.search());
      expect(Object.fromEntries(search)).toEqual({
        booking_tab: 'bookSessions',
        booking_branch_id: String(AGAIN.branch_id),
        booking_date: AGAIN.date,
        booking_slot_id: String(AGAIN.time_slot_id),
      });
      return;
    }
    const notices = screen.queryAllByText(/^Este horário não está livre/);
    expect(notices.length, 'the reason is said beside the booking asked about').toBe(
      again?.feedback && !state.matches('loading') ? 1 : 0,
    );
    if (again?.feedback && !state.matches('loading'))
      expect(card(again.bookingId).contains(notices[0]!)).toBe(true);
    if (state.matches('findingAgain')) {
      const asked = within(card(again!.bookingId)).getByRole('button', { name: /^Reservar de novo/ });
      expect(asked.dataset.loading).toBe('true');
    }
    // Once a cancellation is done it is said with the list it reloads (issue 30), until the dialog opens again.
    const statuses = screen.queryAllByRole('status');
    const said = statuses.filter((item) => item.classList.contains('cancelled-notice'));
    expect(said.map((item) => item.textContent?.replace(/\s+/g, ' '))).toEqual(
      cancelled && !state.matches('loading')
        ? [
            `${cancelled.count} ${cancelled.count === 1 ? 'reserva cancelada' : 'reservas canceladas'}. ` +
              (cancelled.refundEur > 0
                ? `O reembolso de ${cancelled.refundEur} € chega ao meio de pagamento usado em 5 a 10 dias úteis.`
                : 'Sem reembolso, segundo a política de cancelamento.'),
          ]
        : [],
    );
    if (state.matches('loading')) {
      expect(screen.queryByRole('button', { name: 'Cancelar as reservas selecionadas' })).toBeNull();
      return;
    }
    // Every booking held is on a card; the cancelable ones' boxes are ticked exactly when selected.
    for (const item of bookings) {
      const box = within(card(item.id)).queryByRole('checkbox');
      if (item.is_cancelable && !item.is_in_past)
        expect(box).toHaveProperty('checked', selected.includes(item.id));
      else expect(box).toBeNull();
    }
    if (bookings.length === 0)
      expect(screen.getAllByText('Não foram encontradas reservas').length).toBeGreaterThan(0);
    const more = screen.queryByRole('button', { name: 'Mostrar reservas mais antigas' });
    expect(more !== null, 'older bookings are offered exactly while there are some').toBe(
      olderHistory !== null || state.matches('loadingHistory'),
    );
    if (state.matches('loadingHistory')) expect(more?.dataset.loading).toBe('true');
    const resend = screen.queryByRole('button', { name: 'Enviar o código novamente' });
    if (bookings.some((item) => item.lock_code !== null)) {
      expect(resend?.dataset.loading).toBe(state.matches('resendingCode') ? 'true' : undefined);
      const notice = statuses.find((item) => !item.classList.contains('cancelled-notice')) ?? null;
      expect(notice !== null, 'the code notice shows once the code was sent again (or not)').toBe(
        codeNotice !== null && !state.matches('resendingCode'),
      );
      if (codeNotice && 'text' in codeNotice.feedback && notice)
        expect(notice.textContent).toBe(codeNotice.feedback.text);
      // Issue 30, item 1: the code's card carries its branch's arrival kit.
      const kits = screen.queryAllByRole('region', { name: 'Como chegar e entrar' });
      const withKit = bookings.filter((item) => item.lock_code !== null && item.arrival);
      expect(kits).toHaveLength(withKit.length);
      for (const [index, item] of withKit.entries()) {
        const kit = item.arrival!;
        const region = within(kits[index]!);
        expect(
          region.getByRole('img', { name: `A entrada de ${item.time_slot_data.branch_data.name}` }),
        ).toHaveProperty('src', `${window.location.origin}${kit.entrance_photo_url}`);
        // The operator's line breaks are kept as they were typed.
        expect(kits[index]!.textContent).toContain(kit.directions!);
        expect(region.getByText(kit.keypad!)).toBeDefined();
        expect(region.getByText(`Regras da casa: ${kit.rules}`)).toBeDefined();
        expect(kits[index]!.textContent).toContain(
          `Wi-Fi: ${kit.wifi_network}, palavra-passe ${kit.wifi_password}`,
        );
        expect(region.getByRole('link', { name: 'Ver no mapa' }).getAttribute('href')).toBe(kit.map_url);
        expect(region.getByRole('link', { name: `Ajuda: ${kit.support_phone}` }).getAttribute('href')).toBe(
          'tel:+351210000000',
        );
      }
    } else expect(resend).toBeNull();
    const dialog = screen.queryByRole('dialog', { name: 'Cancelar reservas' });
    if (!state.matches('dialog')) {
      expect(dialog).toBeNull();
      return;
    }
    expect(dialog).not.toBeNull();
    const alert = within(dialog!).queryByRole('alert');
    expect(alert !== null, 'the dialog shows an error exactly when there is one').toBe(error !== null);
    if (error && 'text' in error) expect(alert?.textContent).toBe(error.text);
    expect(
      within(dialog!).getByRole('button', { name: /^Cancelar (a reserva|as reservas)$/ }).dataset.loading,
    ).toBe(state.matches({ dialog: 'idle' }) ? undefined : 'true');
  },
};

const flow = recorder(myBookingsMachine);
afterAll(() => flow.assertCovered());

describe('my bookings, driven by its model through the account modal', () => {
  for (const path of paths) {
    it(`follows ${path.description}`, async () => {
      const network = createNetwork({
        validateToken: () => ({ status: 200, body: { valid: true } }),
        getMe: () => ({ status: 200, body: MEMBER }),
        listBranches: () => ({ status: 200, body: [] }),
      });
      // A failed load is only logged (docs/decisions.md, 'Client'): once per failed answer, never shown.
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      flow.startPath();
      const app = await renderApp(() => <AccountModal hidden={false} />, {
        search: 'account_tab=myBookings',
        network,
        inspect: flow.inspect,
        token: 'member-token',
      });
      try {
        await drivePath(driver, path, flow, { network, search: app.search, opened: false });
        const failedLoads = path.steps.filter((step) =>
          /^xstate\.error\.actor\.load(Bookings|History)$/.test(step.event.type as string),
        ).length;
        expect(logged.mock.calls.filter(([text]) => text === 'Could not load my bookings')).toHaveLength(
          failedLoads,
        );
      } finally {
        logged.mockRestore();
        app.runtime.session.stop();
        app.runtime.startup.stop();
      }
    });
  }
});

// Issue 31, item 1: a weekly series' bookings say their week, and "this week and the following" selects the series'
// later weeks that can still be cancelled, for the ordinary cancellation and its refunds.
describe('my bookings, a weekly series', () => {
  it('says each booking’s week and selects this week and the following cancelable ones for cancelling', async () => {
    const weekly = { series_id: 7 };
    const weeks = [
      bookingAt(21, '2026-12-01T18:00:00+00:00', '2026-12-01T19:00:00+00:00', weekly),
      bookingAt(22, '2026-12-08T18:00:00+00:00', '2026-12-08T19:00:00+00:00', weekly),
      bookingAt(23, '2026-12-15T18:00:00+00:00', '2026-12-15T19:00:00+00:00', weekly),
      bookingAt(24, '2026-12-22T18:00:00+00:00', '2026-12-22T19:00:00+00:00', {
        ...weekly,
        is_cancelable: false,
      }),
    ];
    const alone = bookingAt(25, '2026-12-16T09:00:00+00:00', '2026-12-16T10:00:00+00:00');
    const network = createNetwork({
      validateToken: () => ({ status: 200, body: { valid: true } }),
      getMe: () => ({ status: 200, body: MEMBER }),
      listBranches: () => ({ status: 200, body: [] }),
      listMyBookings: () => ({ status: 200, body: [...weeks, alone] }),
    });
    const app = await renderApp(() => <AccountModal hidden={false} />, {
      search: 'account_tab=myBookings',
      network,
      inspect: () => {},
      token: 'member-token',
    });
    try {
      const cards = await screen.findAllByTestId('booking', {}, { timeout: 5_000 });
      const cardOf = (id: number) => cards.find((card) => card.textContent?.includes(`#${id}`))!;
      expect(within(cardOf(21)).getByText('Semana 1 de 4')).toBeTruthy();
      expect(within(cardOf(23)).getByText('Semana 3 de 4')).toBeTruthy();
      expect(within(cardOf(25)).queryByText('Série semanal')).toBeNull();
      // The last cancelable week and a booking alone have nothing after them to select.
      expect(within(cardOf(23)).queryByRole('button', { name: /e as seguintes da série/ })).toBeNull();
      expect(within(cardOf(25)).queryByRole('button', { name: /e as seguintes da série/ })).toBeNull();

      // Week 3 already chosen: "this and the following" from week 2 adds week 2 and keeps week 3 (not unselected).
      press(within(cardOf(23)).getByRole('checkbox'));
      press(within(cardOf(22)).getByRole('button', { name: /e as seguintes da série/ }));
      const checked = (id: number) => within(cardOf(id)).getByRole<HTMLInputElement>('checkbox').checked;
      expect([21, 22, 23, 25].map(checked)).toEqual([false, true, true, false]);

      press(screen.getByRole('button', { name: 'Cancelar as reservas selecionadas' }));
      const dialog = await screen.findByRole('dialog', { name: 'Cancelar reservas' });
      expect(within(dialog).getAllByRole('row')).toHaveLength(3);
      expect(within(dialog).getByRole('button', { name: 'Cancelar as reservas' })).toBeTruthy();
    } finally {
      app.runtime.session.stop();
      app.runtime.startup.stop();
    }
  });
});

// Issue 31: a booking the member's credit paid (all or part of) says how much; one paid by card alone says nothing.
describe('my bookings, paid with credit', () => {
  it('says on the card what the credit paid', async () => {
    const withCredit = bookingAt(31, '2026-12-02T09:00:00+00:00', '2026-12-02T10:00:00+00:00', {
      credit_eur: 15,
      final_price_eur: 5,
    });
    const byCard = bookingAt(32, '2026-12-03T09:00:00+00:00', '2026-12-03T10:00:00+00:00');
    const network = createNetwork({
      validateToken: () => ({ status: 200, body: { valid: true } }),
      getMe: () => ({ status: 200, body: MEMBER }),
      listBranches: () => ({ status: 200, body: [] }),
      listMyBookings: () => ({ status: 200, body: [withCredit, byCard] }),
    });
    const app = await renderApp(() => <AccountModal hidden={false} />, {
      search: 'account_tab=myBookings',
      network,
      inspect: () => {},
      token: 'member-token',
    });
    try {
      const cards = await screen.findAllByTestId('booking', {}, { timeout: 5_000 });
      const cardOf = (id: number) => cards.find((card) => card.textContent?.includes(`#${id}`))!;
      const paid = within(cardOf(31)).getByText('Pago com crédito');
      expect(paid.nextElementSibling?.textContent?.replace(/\s+/g, ' ')).toBe('15 €');
      expect(within(cardOf(32)).queryByText('Pago com crédito')).toBeNull();
    } finally {
      app.runtime.session.stop();
      app.runtime.startup.stop();
    }
  });
});
