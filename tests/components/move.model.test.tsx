// @vitest-environment jsdom
import './support/mocks.ts';
import { stripe } from './support/stripe.ts';
import { screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { getNextSnapshot, type EventFrom, type SnapshotFrom } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import type { TimeSlot } from '../../machines/booking.pricing.ts';
import { moveMachine, priceDifferenceEur, shownDifferenceEur } from '../../machines/move.machine.ts';
import { temporal } from '../../machines/temporal.ts';
import { slotTimes, timeRange } from '../../src/account/time.ts';
import { formatDay, formatMonth, todayIn } from '../../src/booking/dates.ts';
import { formatEuros } from '../../src/i18n/format.ts';
import { booking, bookingAt } from '../machines/bookings-fixtures.ts';
import { covering, generatePaths, withoutPrefixes } from '../machines/model/paths.ts';
import { renderApp, type App } from './support/app.tsx';
import { feedbackText } from './support/feedback.ts';
import { drivePath, press, recorder, type Driver } from './support/model.ts';
import { MEMBER } from './support/member.ts';
import { createNetwork, errorAnswer, type Call, type Network } from './support/network.ts';

const { default: BookingModal } = await import('../../src/booking/BookingModal.tsx');

// Moving a booking (machines/move.machine.ts) driven through the real booking modal in move mode
// (src/booking/MoveBooking.tsx: the calendar and slots, the review dialog, the checkout for a dearer slot): paths
// generated from the machine, each user event a click, each call answered at the network with a body the
// contract allows, `payment.failed` Stripe.js failing to load (support/stripe.ts). Every transition of the
// machine has its control (cancelling the review while the move is sent is pressing "Cancelar", which the
// machine ignores then: see `withCancelWhileMoving`).

type Event = EventFrom<typeof moveMachine>;
type Snapshot = SnapshotFrom<typeof moveMachine>;

const ZONE = 'Europe/Lisbon';
const TODAY = todayIn(ZONE);
const NEXT_DAY = temporal().PlainDate.from(TODAY).add({ days: 1 }).toString();

const BRANCH = {
  id: 1,
  name: 'Avenidas Novas',
  order: 1,
  image: '/images/branches/lisboa-1.jpg',
  images_urls: [],
  location: 'Lisboa',
  active_with_smart_lock: true,
  descriptions_data: { pt: '<p>Um espaço privado.</p>' },
  min_and_max_price_eur_long_cached: [15, 25],
  time_zone: ZONE,
  slot_minutes: 60,
  latitude: 38.74,
  longitude: -9.15,
  map_url: null,
};

// Booking 1, the day after today, cost 18 € (20 € with its 10 % coupon, which the new slot gets too). The move's
// calendar opens on its day (issue 30: it opened on today).
const BOOKING_MONTH = NEXT_DAY.slice(0, 7);
const MINE = bookingAt(1, `${NEXT_DAY}T09:00:00+00:00`, `${NEXT_DAY}T10:00:00+00:00`, {
  final_price_eur: 18,
  coupon_code: 'TEN',
  coupon_discount: 0.1,
});
const slot = (id: number, hour: number, price: number, bookable = true): TimeSlot => ({
  id,
  start_time: `${NEXT_DAY}T${hour}:00:00+00:00`,
  end_time: `${NEXT_DAY}T${hour + 1}:00:00+00:00`,
  basic_price_eur: price,
  is_bookeable: bookable,
});
// The same price, a cheaper one (9 € back), a dearer one (9 € to pay), one taken.
const SLOTS = [slot(11, 10, 20), slot(12, 11, 10), slot(13, 12, 30), slot(14, 13, 20, false)];

const answer = (type: string, rest: object = {}) => ({ type, ...rest }) as unknown as Event;

function events(state: Snapshot): Event[] {
  const { context } = state;
  if (state.matches('loadingBooking'))
    return [
      answer('xstate.done.actor.loadBookings', { output: [MINE, booking(2)] }),
      answer('xstate.done.actor.loadBookings', { output: [{ ...MINE, is_movable: false }] }),
      answer('xstate.error.actor.loadBookings', { error: new ApiError('service_unavailable') }),
    ];
  if (state.matches('loadingToday'))
    return [
      answer('xstate.done.actor.loadLocalTime', { output: `${TODAY}T08:00:00+00:00` }),
      answer('xstate.error.actor.loadLocalTime', { error: new ApiError('service_unavailable') }),
    ];
  if (state.matches({ browsing: 'loading' }))
    return [
      answer('xstate.done.actor.loadSlots', { output: context.date === NEXT_DAY ? SLOTS : [] }),
      answer('xstate.error.actor.loadSlots', { error: new ApiError('internal_error') }),
    ];
  if (state.matches('browsing')) {
    // A person's order: on the booking's day (where the calendar opens), the month turned and back, today's empty
    // day and back, and the day's slots.
    if (context.date === TODAY) return [{ type: 'date.select', date: NEXT_DAY }];
    if (!state.matches({ browsing: 'ready' })) return [];
    return [
      ...(context.month === BOOKING_MONTH
        ? [{ type: 'date.select', date: TODAY } as const, { type: 'month.next' } as const]
        : [{ type: 'month.previous' } as const]),
      ...context.slots
        .filter((item) => item.is_bookeable && item.id !== context.selected?.id)
        .map((item) => ({ type: 'slot.select', slot: item }) as const),
      ...(context.selected ? [{ type: 'review.open' } as const] : []),
    ];
  }
  if (state.matches({ reviewing: 'idle' })) return [{ type: 'move.confirm' }, { type: 'review.close' }];
  if (state.matches({ reviewing: 'moving' })) {
    const difference = shownDifferenceEur(context)!;
    return [
      { type: 'review.close' },
      // A dearer slot goes through the checkout; an equal or cheaper one moves at once.
      difference > 0
        ? answer('xstate.done.actor.moveBooking', {
            output: { status: 'awaiting_payment', refundedEur: null, clientSecret: 'cs_move_1_secret_x' },
          })
        : answer('xstate.done.actor.moveBooking', {
            output: { status: 'moved', refundedEur: difference < 0 ? -difference : null, clientSecret: null },
          }),
      ...(context.serverDifferenceEur === null
        ? [
            answer('xstate.error.actor.moveBooking', {
              error: new ApiError('price_difference_changed', 'A diferença é agora outra.', {
                priceDifferenceEur: difference + 1,
              }),
            }),
          ]
        : []),
      answer('xstate.error.actor.moveBooking', {
        error: new ApiError('slot_unavailable', 'Este horário já não está disponível.'),
      }),
      answer('xstate.error.actor.moveBooking', {
        error: new ApiError('booking_not_movable', 'Esta reserva já não pode ser mudada.'),
      }),
      answer('xstate.error.actor.moveBooking', { error: new ApiError('payment_provider_unavailable') }),
    ];
  }
  if (state.matches({ payment: 'checkout' })) return [{ type: 'payment.failed' }];
  return [];
}

const input = { bookingId: MINE.id, fallbackToday: TODAY };
const SCRIPTED = ['loadBookings', 'loadLocalTime', 'loadSlots', 'moveBooking'];
const generated = withoutPrefixes(
  generatePaths(moveMachine, {
    events,
    input,
    // The whole state: a path's next step is computed from the state this names.
    serializeState: (state) => JSON.stringify([state.value, state.context]),
    maxStatesForSimplePaths: 0,
  }),
);
/**
 * The generator leaves out an event the machine takes without any change (XState's `can` is false for it), but a
 * person can still send it: "Cancelar" in the review while the move is sent. One path takes it, made from a
 * generated one where the move is sent and answered: the press inserted before the answer, the state after it the
 * machine's own.
 */
function withCancelWhileMoving(candidates: typeof generated): typeof generated {
  const base = candidates.find((path) =>
    path.steps.some(
      (step, index) => index > 0 && path.steps[index - 1]!.state.matches({ reviewing: 'moving' }),
    ),
  );
  if (!base) return [];
  const at = base.steps.findIndex((step) => step.state.matches({ reviewing: 'moving' })) + 1;
  const event = { type: 'review.close' } as Event;
  const state = getNextSnapshot(moveMachine, base.steps[at - 1]!.state, event);
  const steps = [...base.steps.slice(0, at), { event, state }];
  // Only where the machine ignores it does the rest of the path still hold.
  if (JSON.stringify(state.value) === JSON.stringify(base.steps[at - 1]!.state.value))
    steps.push(...base.steps.slice(at));
  return [
    {
      ...base,
      steps,
      description: steps
        .slice(1)
        .map((step) =>
          (step.event.type as string).replace(/^xstate\.(done|error)\.actor\./, (_, kind: string) =>
            kind === 'done' ? '✓' : '✗',
          ),
        )
        .join(' → '),
    },
  ];
}

const paths = await covering(moveMachine, [...generated, ...withCancelWhileMoving(generated)], {
  scripted: SCRIPTED,
  input,
});

type World = { network: Network; app: App };

/** Testing Library reads text with its spaces made plain (the no-break space before '€' too). */
const plain = (text: string) => text.replace(/\s+/g, ' ').trim();
const TITLE = `Mudar reserva em ${BRANCH.name}`;
const moveDialog = () => screen.queryByRole('dialog', { name: TITLE });
const reviewDialog = () => screen.queryByRole('dialog', { name: 'Confirmar a mudança' });
const paymentDialog = () => screen.queryByRole('dialog', { name: 'Pagamento' });
const slotButtons = () =>
  within(within(moveDialog()!).getByRole('group', { name: 'Horários' })).getAllByRole<HTMLButtonElement>(
    'button',
  );
const euros = (amount: number) => formatEuros(Math.abs(amount), 'pt');
const differenceText = (amount: number) =>
  plain(
    amount > 0
      ? `Diferença a pagar: ${euros(amount)}`
      : amount < 0
        ? `Diferença a reembolsar: ${euros(amount)}`
        : 'O preço é o mesmo.',
  );
const current = timeRange(
  MINE.time_slot_data.start_time,
  MINE.time_slot_data.end_time,
  MINE.time_slot_data.branch_data.time_zone,
  'pt',
);

const driver: Driver<typeof moveMachine, World> = {
  answer(event, before) {
    const error = event.error as ApiError | undefined;
    const ok = (body: unknown) => (error ? errorAnswer(error) : { status: 200, body });
    const actor = /actor\.(.+)$/.exec(event.type)![1]!;
    if (actor === 'loadBookings') return { operations: ['listMyBookings'], answer: ok(event.output) };
    if (actor === 'loadLocalTime') return { operations: ['getBranchLocalTime'], answer: ok(event.output) };
    if (actor === 'loadSlots') return { operations: ['listSlots'], answer: ok(event.output) };
    const output = event.output as
      | { status: 'moved' | 'awaiting_payment'; refundedEur: number | null; clientSecret: string | null }
      | undefined;
    return {
      operations: ['moveBooking'],
      answer: (call: Call) => {
        // The move asks for the chosen slot at the difference the member was shown.
        expect(new URL(call.request.url).pathname).toMatch(new RegExp(`/bookings/${MINE.id}/move$`));
        expect(call.body).toEqual({
          time_slot_id: before.context.selected!.id,
          expected_price_difference_eur: shownDifferenceEur(before.context),
        });
        return ok({
          status: output?.status,
          price_difference_eur: shownDifferenceEur(before.context),
          refunded_eur: output?.refundedEur ?? null,
          checkout_session: output?.clientSecret ? { clientSecret: output.clientSecret } : null,
        });
      },
    };
  },
  act: {
    'date.select': (event) =>
      press(
        within(moveDialog()!).getByRole('button', {
          name: formatDay((event as { date: string }).date, 'pt'),
        }),
      ),
    'month.next': () => press(within(moveDialog()!).getByRole('button', { name: 'Mês seguinte' })),
    'month.previous': () => press(within(moveDialog()!).getByRole('button', { name: 'Mês anterior' })),
    'slot.select': (event, before) =>
      press(
        slotButtons()[
          before.context.slots.findIndex((item) => item.id === (event as { slot: TimeSlot }).slot.id)
        ]!,
      ),
    'review.open': () =>
      press(within(moveDialog()!).getByRole('button', { name: 'Mudar para este horário' })),
    'review.close': () => press(within(reviewDialog()!).getByRole('button', { name: 'Cancelar' })),
    'move.confirm': (_, before) =>
      press(
        within(reviewDialog()!).getByRole('button', {
          name: shownDifferenceEur(before.context)! > 0 ? 'Pagar a diferença' : 'Confirmar a mudança',
        }),
      ),
    'payment.failed': () => stripe.fail(),
  },
  check(state) {
    const { context } = state;
    const { selected, error } = context;
    // The move modal steps aside for the checkout; the review dialog is over it while reviewing.
    const modal = moveDialog();
    expect(modal !== null, 'the move modal is open except while paying').toBe(!state.matches('payment'));
    expect(reviewDialog() !== null, 'the review is open exactly while reviewing').toBe(
      state.matches('reviewing'),
    );
    expect(paymentDialog() !== null, 'the checkout is open exactly while paying').toBe(
      state.matches('payment'),
    );
    if (state.matches('payment')) {
      const alert = within(paymentDialog()!).queryByRole('alert');
      expect(alert?.textContent ?? null).toBe(
        state.matches({ payment: 'failed' }) ? 'O fornecedor de pagamentos não conseguiu iniciar.' : null,
      );
      return;
    }
    const inside = within(modal!);
    if (state.matches('loadingBooking')) {
      inside.getByText('A carregar a reserva…');
      return;
    }
    if (state.matches('unavailable')) {
      expect(inside.getByRole('alert').textContent).toBe(
        error ? feedbackText(error) : 'Esta reserva já não pode ser mudada.',
      );
      // The corner's "Fechar" and the alert's own.
      expect(inside.getAllByRole('button', { name: 'Fechar' })).toHaveLength(2);
      return;
    }
    if (state.matches('moved')) {
      const movedTo = timeRange(selected!.start_time, selected!.end_time, ZONE, 'pt');
      const refunded = context.refundedEur;
      expect(plain(inside.getByRole('status').textContent ?? '')).toBe(
        plain(
          `A sua reserva foi mudada para ${movedTo}, ${BRANCH.name}. ${
            refunded !== null && refunded > 0
              ? `Reembolsámos a diferença de ${euros(refunded)} para o cartão usado no pagamento.`
              : 'O preço é o mesmo: não há nada a pagar nem a reembolsar.'
          } Enviámos-lhe o evento de calendário atualizado por e-mail.`,
        ),
      );
      return;
    }
    // Browsing (or reviewing over it): the booking, the calendar, the day's slots.
    inside.getByText(`Reserva atual: ${current}`);
    inside.getByRole('heading', { name: formatDay(context.date, 'pt') });
    inside.getByRole('group', { name: formatMonth(context.month, 'pt') });
    const alerts = inside.queryAllByRole('alert').map((alert) => alert.textContent);
    const expected = [
      ...(error && state.matches('browsing') ? [feedbackText(error)] : []),
      ...(state.matches({ browsing: 'failed' })
        ? ['Não foi possível obter os horários. Tente novamente mais tarde.']
        : []),
    ];
    expect(alerts).toEqual(expected);
    if (state.matches('loadingToday') || state.matches({ browsing: 'loading' }))
      inside.getByText('A carregar os horários…');
    else if (!state.matches({ browsing: 'failed' })) {
      if (context.slots.length === 0) inside.getByText('Não há horários neste dia.');
      else {
        const buttons = slotButtons();
        expect(buttons).toHaveLength(context.slots.length);
        context.slots.forEach((item, index) => {
          expect(buttons[index]!.textContent).toContain(slotTimes(item, 'pt'));
          expect(buttons[index]!.getAttribute('aria-pressed')).toBe(String(selected?.id === item.id));
          expect(buttons[index]!.disabled).toBe(!state.can({ type: 'slot.select', slot: item }));
        });
      }
    }
    if (selected) inside.getByText(differenceText(priceDifferenceEur(context.booking!, selected)));
    expect(inside.getByRole('button', { name: 'Mudar para este horário' })).toHaveProperty(
      'disabled',
      !state.can({ type: 'review.open' }),
    );
    if (!state.matches('reviewing')) return;
    const review = within(reviewDialog()!);
    const difference = shownDifferenceEur(context)!;
    review.getByText(`De: ${current}`);
    review.getByText(plain(`Para: ${formatDay(context.date, 'pt')}, ${slotTimes(selected!, 'pt')}`));
    review.getByText(differenceText(difference));
    expect(review.queryByRole('alert')?.textContent ?? null).toBe(error ? feedbackText(error) : null);
    expect(
      review.getByRole('button', { name: difference > 0 ? 'Pagar a diferença' : 'Confirmar a mudança' })
        .dataset.loading,
    ).toBe(state.matches({ reviewing: 'moving' }) ? 'true' : undefined);
  },
};

const flow = recorder(moveMachine);
afterAll(() => flow.assertCovered());

describe('moving a booking, driven by its model through the booking modal', () => {
  for (const path of paths) {
    it(`follows ${path.description}`, async () => {
      const network = createNetwork({
        validateToken: () => ({ status: 200, body: { valid: true } }),
        getMe: () => ({ status: 200, body: MEMBER }),
        listBranches: () => ({ status: 200, body: [BRANCH] }),
      });
      flow.startPath();
      const app = await renderApp(() => <BookingModal hidden={false} onShown={() => {}} />, {
        search: `booking_tab=bookSessions&booking_branch_id=${BRANCH.id}&move_booking_id=${MINE.id}`,
        network,
        inspect: flow.inspect,
        token: 'member-token',
        config: { stripePublishableKey: stripe.nextKey() },
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
