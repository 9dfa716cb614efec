// @vitest-environment jsdom
import './support/mocks.ts';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import { guestsMachine, newGuestOf, type Guest } from '../../machines/guests.machine.ts';
import { covering, generatePaths, withoutPrefixes } from '../machines/model/paths.ts';
import { booking } from '../machines/bookings-fixtures.ts';
import { renderApp, type App } from './support/app.tsx';
import { feedbackText } from './support/feedback.ts';
import { drivePath, press, recorder, type Driver } from './support/model.ts';
import { MEMBER } from './support/member.ts';
import { createNetwork, errorAnswer, type Network } from './support/network.ts';

const { GuestsButton } = await import('../../src/account/Guests.tsx');
const { MantineLayer } = await import('../../src/ui/MantineLayer.tsx');

// A booking's guests (machines/guests.machine.ts, issue 31) driven through the real dialog of My bookings
// (src/account/Guests.tsx): paths generated from the machine, each user event a click or a keystroke, each call
// answered at the network with a body the contract allows. Every transition of the machine has its control.

type Event = EventFrom<typeof guestsMachine>;
type Snapshot = SnapshotFrom<typeof guestsMachine>;

const BOOKING = booking(7);
const WHEN = 'sábado, 10:00 - 11:00';
const guest = (id: number, name: string, overrides: Partial<Guest> = {}): Guest => ({
  id,
  name,
  email: null,
  phone_number: '+351912345678',
  added_at: '2026-11-20T10:00:00Z',
  entered_at: null,
  door_code: 'set',
  ...overrides,
});
const RITA = guest(1, 'Rita', { entered_at: '2026-11-28T10:05:00Z' });
const PAULO = guest(2, 'Paulo', { email: 'paulo@example.pt', phone_number: null, door_code: 'pending' });

const answer = (type: string, rest: object) => ({ type, ...rest }) as unknown as Event;

function events(state: Snapshot): Event[] {
  const { context } = state;
  if (state.matches('closed')) return [{ type: 'guests.open' }];
  if (state.matches('loading'))
    return [
      answer('xstate.done.actor.listGuests', { output: [RITA] }),
      answer('xstate.error.actor.listGuests', { error: new ApiError('service_unavailable') }),
      { type: 'guests.close' },
    ];
  if (state.matches('failed')) return [{ type: 'guests.retry' }, { type: 'guests.close' }];
  if (state.matches('adding'))
    return [
      answer('xstate.done.actor.addGuest', { output: PAULO }),
      answer('xstate.error.actor.addGuest', {
        error: new ApiError(
          'guest_limit_reached',
          'Esta reserva já tem todos os convidados que este espaço permite.',
        ),
      }),
    ];
  if (state.matches('removing'))
    return [
      answer('xstate.done.actor.removeGuest', {}),
      answer('xstate.error.actor.removeGuest', { error: new ApiError('service_unavailable') }),
    ];
  // Ready: the member types a guest (a name, then a wrong and a right number) and adds them, removes one, closes.
  const offered: Event[] = [{ type: 'guests.close' }];
  const { form } = context;
  // Paulo is added once (the server would give a second one another id): the graph stays finite.
  const pauloListed = context.guests.some((listed) => listed.id === PAULO.id);
  if (form.name === '' && !pauloListed) offered.push({ type: 'guest.input', field: 'name', value: 'Paulo' });
  else if (form.phone === '') offered.push({ type: 'guest.input', field: 'phone', value: '912' });
  else if (form.phone === '912')
    offered.push({ type: 'guest.input', field: 'phone', value: '+351 912 000 111' });
  offered.push({ type: 'guest.add' });
  for (const listed of context.guests) offered.push({ type: 'guest.remove', id: listed.id });
  return offered;
}

const generated = withoutPrefixes(
  generatePaths(guestsMachine, {
    events,
    input: { bookingId: BOOKING.id },
    serializeState: (state) =>
      JSON.stringify([
        state.value,
        state.context.guests.map((listed) => listed.id),
        state.context.form,
        state.context.error,
      ]),
    maxStatesForSimplePaths: 0,
  }),
);
const paths = await covering(guestsMachine, generated, {
  scripted: ['listGuests', 'addGuest', 'removeGuest'],
  input: { bookingId: BOOKING.id },
});

type World = { network: Network; app: App };

const dialog = () => screen.queryByRole('dialog', { name: `Convidados: ${WHEN}` });
const FIELDS = { name: 'Nome do convidado', phone: 'Telemóvel do convidado', email: 'E-mail do convidado' };

const driver: Driver<typeof guestsMachine, World> = {
  answer(event) {
    const error = event.error as ApiError | undefined;
    const actor = /actor\.(.+)$/.exec(event.type)![1]!;
    const ok = (status: number, body?: unknown) => (error ? errorAnswer(error) : { status, body });
    if (actor === 'listGuests') return { operations: ['listBookingGuests'], answer: ok(200, event.output) };
    if (actor === 'addGuest') return { operations: ['addBookingGuest'], answer: ok(201, event.output) };
    return { operations: ['removeBookingGuest'], answer: ok(204) };
  },
  act: {
    'guests.open': () => press(screen.getByRole('button', { name: `Convidados da reserva de ${WHEN}` })),
    'guests.close': () => press(within(dialog()!).getByRole('button', { name: 'Fechar' })),
    'guests.retry': () => press(within(dialog()!).getByRole('button', { name: 'Tentar novamente' })),
    'guest.input': (event) => {
      const { field, value } = event as { field: keyof typeof FIELDS; value: string };
      fireEvent.change(within(dialog()!).getByLabelText(FIELDS[field], { exact: false }), {
        target: { value },
      });
    },
    'guest.add': () => press(within(dialog()!).getByRole('button', { name: 'Adicionar convidado' })),
    'guest.remove': (event, state) => {
      const listed = state.context.guests.find((candidate) => candidate.id === (event as { id: number }).id)!;
      press(within(dialog()!).getByRole('button', { name: `Remover ${listed.name}` }));
    },
  },
  check(state) {
    const open = dialog();
    expect(open !== null, 'the dialog is open exactly while the flow is').toBe(!state.matches('closed'));
    if (!open) return;
    const inside = within(open);
    const { context } = state;
    if (state.matches('loading')) inside.getByText('A carregar os convidados…');
    if (state.matches('failed')) {
      inside.getByRole('button', { name: 'Tentar novamente' });
      expect(inside.getByRole('alert').textContent).toBe(feedbackText(context.error!));
      return;
    }
    if (state.matches('loading')) return;
    const items = inside.queryAllByRole('listitem').map((item) => item.textContent ?? '');
    expect(items).toHaveLength(context.guests.length);
    context.guests.forEach((listed, index) => expect(items[index]!.startsWith(listed.name)).toBe(true));
    for (const [index, listed] of context.guests.entries()) {
      // Rita came in at 10:05 (Lisbon, winter); Paulo's code is still being set on the door.
      if (listed.id === RITA.id) expect(items[index]).toContain('entrou às 10:05');
      if (listed.id === PAULO.id) expect(items[index]).toContain('código a ser programado na porta');
    }
    if (context.guests.length === 0) inside.getByText('Ainda não tem convidados nesta reserva.');
    expect(inside.getByLabelText<HTMLInputElement>(FIELDS.name, { exact: false }).value).toBe(
      context.form.name,
    );
    expect(inside.getByLabelText<HTMLInputElement>(FIELDS.phone, { exact: false }).value).toBe(
      context.form.phone,
    );
    const alert = inside.queryByRole('alert');
    expect(alert?.textContent ?? null).toBe(context.error ? feedbackText(context.error) : null);
    expect(inside.getByRole('button', { name: 'Adicionar convidado' }).dataset.loading).toBe(
      state.matches('adding') ? 'true' : undefined,
    );
    // What the form would send: nothing until it names a guest with a valid contact.
    if (state.matches('adding')) expect(newGuestOf(context.form)).not.toBeNull();
  },
};

const flow = recorder(guestsMachine);
afterAll(() => flow.assertCovered());

describe('a booking’s guests, driven by their model through My bookings’ dialog', () => {
  for (const path of paths) {
    it(`follows ${path.description}`, async () => {
      const network = createNetwork({
        validateToken: () => ({ status: 200, body: { valid: true } }),
        getMe: () => ({ status: 200, body: MEMBER }),
        listBranches: () => ({ status: 200, body: [] }),
      });
      flow.startPath();
      // Inside the account modal's Mantine layer, as My bookings shows it.
      const Page = () => (
        <MantineLayer>
          <GuestsButton booking={BOOKING} when={WHEN} locale="pt" />
        </MantineLayer>
      );
      const app = await renderApp(Page, {
        search: '',
        network,
        inspect: flow.inspect,
        token: 'member-token',
      });
      try {
        await drivePath(driver, path, flow, { network, app });
      } finally {
        app.runtime.session.stop();
        app.runtime.startup.stop();
      }
    });
  }
});
