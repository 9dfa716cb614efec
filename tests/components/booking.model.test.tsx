// @vitest-environment jsdom
import './support/mocks.ts';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import { bookingMachine, type BookingInput } from '../../machines/booking.machine.ts';
import {
  basketKey,
  coverRequest,
  currentCover,
  isCoverSettled,
  isCoverUnread,
  isSeriesSelection,
  usesCredit,
} from '../../machines/booking.selectors.ts';
import type { TimeSlot } from '../../machines/booking.pricing.ts';
import type { CreditCover } from '../../machines/creditCover.machine.ts';
import { temporal } from '../../machines/temporal.ts';
import { formatDay, formatMonth, todayIn } from '../../src/booking/dates.ts';
import { formatEuros } from '../../src/i18n/format.ts';
import { covering, generatePaths, withoutPrefixes } from '../machines/model/paths.ts';
import { renderApp, type App } from './support/app.tsx';
import { drivePath, press, recorder, type Driver } from './support/model.ts';
import { MEMBER } from './support/member.ts';
import { createNetwork, errorAnswer, type Network } from './support/network.ts';

// Stripe.js cannot load here: each path's checkout waits for it, and `payment.failed` is Stripe.js failing to load.
const stripe = vi.hoisted(() => ({ fail: () => {} }));
vi.mock('@stripe/stripe-js', () => ({
  loadStripe: () =>
    new Promise((resolve) => {
      stripe.fail = () => resolve(null);
    }),
}));
const { default: BookingModal } = await import('../../src/booking/BookingModal.tsx');

// The booking flow's machine (machines/booking.machine.ts) driven through the real booking modal
// (src/booking/BookingModal.tsx, its summary and payment dialogs): paths generated from the machine, each user
// event a UI action, each call answered at the network with a body the contract allows, and `session.changed` a
// login or logout of the app's real session, which the flow hears through the app's bridge.

type Event = EventFrom<typeof bookingMachine>;
type Snapshot = SnapshotFrom<typeof bookingMachine>;

const ZONE = 'Europe/Lisbon';
const TODAY = todayIn(ZONE);
const NEXT_DAY = temporal().PlainDate.from(TODAY).add({ days: 1 }).toString();
const FIRST_MONTH = TODAY.slice(0, 7);
const SLOT: TimeSlot = {
  id: 11,
  start_time: `${NEXT_DAY}T09:00:00+00:00`,
  end_time: `${NEXT_DAY}T10:00:00+00:00`,
  basic_price_eur: 20,
  is_bookeable: true,
};
const TAKEN: TimeSlot = { ...SLOT, is_bookeable: false };
// The slot's weeks as the weekly series' preview answers them: the next one free, the third taken.
const WEEK_AFTER = temporal().PlainDate.from(NEXT_DAY).add({ weeks: 1 }).toString();
const NEXT_WEEK: TimeSlot = {
  ...SLOT,
  id: 12,
  start_time: `${WEEK_AFTER}T09:00:00+00:00`,
  end_time: `${WEEK_AFTER}T10:00:00+00:00`,
  basic_price_eur: 25,
};
const WEEKS = [
  { week: 1, date: NEXT_DAY, slot: SLOT, problem: null },
  { week: 2, date: WEEK_AFTER, slot: NEXT_WEEK, problem: null },
  {
    week: 3,
    date: temporal().PlainDate.from(NEXT_DAY).add({ weeks: 2 }).toString(),
    slot: null,
    problem: 'taken',
  },
];
const WELCOME = 'WELCOME5';
const UNKNOWN = 'NAOEXISTE';
const OFFERED = { id: 3, code: 'EARLYBIRD', discount: 0.1, remaining_uses: 3 };

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

const answer = (type: string, rest: object) => ({ type, ...rest }) as unknown as Event;

// Issue 31: what the member's credit pays of the day's slot alone (15 of its 20 €), and of any other basket
// (nothing: its answer names no credit).
const PARTLY: CreditCover = {
  slots: [{ time_slot_id: SLOT.id, price_eur: 20, credit_eur: 15, due_eur: 5 }],
  credit_eur: 15,
  due_eur: 5,
};
const noCredit = (state: Snapshot): CreditCover => ({
  slots: state.context.selected.map((slot) => ({
    time_slot_id: slot.id,
    price_eur: slot.basic_price_eur,
    credit_eur: 0,
    due_eur: slot.basic_price_eur,
  })),
  credit_eur: 0,
  due_eur: state.context.selected.reduce((sum, slot) => sum + slot.basic_price_eur, 0),
});

/**
 * While the basket's cover is asked for (its cover child waits for the basket to rest, then asks the server), the
 * member waits for it: only the calls under way are answered, the cover among them. The day's slot alone is
 * partly covered or its cover cannot be read; any other basket is covered by nothing.
 */
function events(state: Snapshot): Event[] {
  const { context } = state;
  const key = basketKey(context);
  if (key === null || isCoverSettled(context) || !(state.matches('browsing') || state.matches('summary')))
    return userAndServerEvents(state);
  const alone =
    context.selected.length === 1 && context.selected[0]!.id === SLOT.id && context.coupon === null;
  const covers = alone ? [PARTLY, null] : [noCredit(state)];
  return [
    ...userAndServerEvents(state).filter((event) => event.type.startsWith('xstate.')),
    ...covers.map((cover) => ({ type: 'cover.changed', key, cover }) as unknown as Event),
  ];
}

/** The server's answers while the flow waits, and what the user (or the session) can do in the state. */
function userAndServerEvents(state: Snapshot): Event[] {
  const { context } = state;
  const offered: Event[] = [];
  if (state.matches('loadingToday'))
    return [
      answer('xstate.done.actor.loadLocalTime', { output: `${TODAY}T08:00:00+00:00` }),
      answer('xstate.error.actor.loadLocalTime', { error: new ApiError('service_unavailable') }),
    ];
  if (state.matches({ summary: 'creating' }))
    return [
      answer('xstate.done.actor.createBooking', { output: 'cs_local_1_secret_x' }),
      answer('xstate.done.actor.createBooking', { output: null }),
      answer('xstate.error.actor.createBooking', {
        error: new ApiError('slot_unavailable', 'Este horário já não está disponível.'),
      }),
      answer('xstate.error.actor.createBooking', { error: new ApiError('payment_provider_unavailable') }),
      // A total changed meanwhile (the credit spent elsewhere): the cover is asked for again.
      ...(usesCredit(context)
        ? [
            answer('xstate.error.actor.createBooking', {
              error: new ApiError('price_changed', 'O total mudou: é agora de 20 €.'),
            }),
          ]
        : []),
      { type: 'summary.close' },
    ];
  if (state.matches({ summary: 'reviewing' }))
    return [
      { type: 'terms.toggle' },
      { type: 'summary.close' },
      ...(state.can({ type: 'credit.toggle' }) ? [{ type: 'credit.toggle' } as const] : []),
      ...(state.can({ type: 'booking.confirm' }) ? [{ type: 'booking.confirm' } as const] : []),
      ...(context.termsAccepted ? [] : [{ type: 'session.changed', loggedIn: false } as const]),
    ];
  if (state.matches('payment')) {
    // The slots reload behind the dialog: until their answer the list still offers the slot being paid.
    if (context.slots.some((slot) => slot.is_bookeable))
      return [
        answer('xstate.done.actor.loadSlots', { output: [TAKEN] }),
        answer('xstate.error.actor.loadSlots', { error: new ApiError('internal_error') }),
      ];
    return [
      ...(state.matches({ payment: 'checkout' }) ? [{ type: 'payment.failed' } as const] : []),
      { type: 'payment.close' },
    ];
  }
  if (state.matches('confirmed')) return [{ type: 'payment.close' }];
  if (state.matches({ browsing: { slots: 'loading' } }))
    offered.push(
      answer('xstate.done.actor.loadSlots', {
        output: context.date === NEXT_DAY ? [context.slots.length > 0 ? TAKEN : SLOT] : [],
      }),
      answer('xstate.error.actor.loadSlots', { error: new ApiError('internal_error') }),
    );
  if (state.matches({ browsing: { coupon: 'offering' } }))
    offered.push(
      answer('xstate.done.actor.loadOfferedCoupon', { output: OFFERED }),
      answer('xstate.done.actor.loadOfferedCoupon', { output: null }),
      answer('xstate.error.actor.loadOfferedCoupon', { error: new ApiError('service_unavailable') }),
    );
  if (state.matches({ browsing: { series: 'previewing' } }))
    offered.push(
      answer('xstate.done.actor.previewWeeklySeries', { output: WEEKS }),
      answer('xstate.error.actor.previewWeeklySeries', { error: new ApiError('internal_error') }),
    );
  if (state.matches({ browsing: { coupon: 'checking' } }))
    offered.push(
      context.couponInput === WELCOME
        ? answer('xstate.done.actor.checkCoupon', { output: { id: 7, discount: 0.05, remaining_uses: null } })
        : answer('xstate.error.actor.checkCoupon', {
            error: new ApiError('invalid_coupon', 'Código de cupão inválido.'),
          }),
      answer('xstate.error.actor.checkCoupon', { error: new ApiError('service_unavailable') }),
    );
  if (!state.matches('browsing')) return offered;
  // The weekly series is tried apart (the graph stays small): from the day's one chosen slot with no coupon, it
  // is asked for; its second week is dropped or kept again, it is asked for over fewer weeks, stopped, or booked.
  const seriesChosen = context.series !== null || state.matches({ browsing: { series: 'previewing' } });
  if (seriesChosen) {
    if (!state.matches({ browsing: { series: 'idle' } }) || !state.matches({ browsing: { slots: 'ready' } }))
      return offered;
    offered.push({ type: 'series.stop' }, { type: 'slot.toggle', slot: NEXT_WEEK });
    if (context.seriesWeeks === 4) offered.push({ type: 'series.weeks', weeks: 3 });
    else if (context.selected.length === 2) offered.push({ type: 'series.preview' });
    if (context.selected.length > 0) offered.push({ type: 'summary.open' });
    return offered;
  }
  // The user acts in a person's order, so the graph stays small: today's (empty) day first, where the month can
  // be turned and the session change; then the next day, its slot, the coupon and the summary.
  const settled =
    !state.matches({ browsing: { slots: 'loading' } }) &&
    !state.matches({ browsing: { coupon: 'checking' } });
  const untouched = context.selected.length === 0 && context.couponInput === '' && context.coupon === null;
  if (settled && context.date === TODAY) {
    offered.push({ type: 'date.select', date: NEXT_DAY });
    // A logout while the offered coupon is looked up stops the look-up.
    if (state.matches({ browsing: { coupon: 'offering' } }))
      offered.push({ type: 'session.changed', loggedIn: false });
    else if (untouched) {
      offered.push(context.month === FIRST_MONTH ? { type: 'month.next' } : { type: 'month.previous' });
      offered.push({ type: 'session.changed', loggedIn: !context.loggedIn });
    }
  }
  if (state.matches({ browsing: { slots: 'ready' } }) && context.date === NEXT_DAY) {
    // A pick made while logged out waits for the login.
    if (context.pendingSlot) offered.push({ type: 'session.changed', loggedIn: true });
    else
      for (const slot of context.slots)
        if (state.can({ type: 'slot.toggle', slot })) offered.push({ type: 'slot.toggle', slot });
    if (context.selected.length > 0) offered.push({ type: 'selection.clear' }, { type: 'summary.open' });
    const plain = context.coupon === null && context.couponInput === '' && context.offerChecked;
    if (plain && context.seriesWeeks === 4 && !context.seriesFailed && state.can({ type: 'series.preview' }))
      offered.push({ type: 'series.preview' });
    if (context.loggedIn && !state.matches({ browsing: { coupon: 'checking' } })) {
      if (context.coupon) offered.push({ type: 'coupon.remove' });
      else if (context.couponInput === '')
        offered.push({ type: 'coupon.input', value: WELCOME }, { type: 'coupon.input', value: UNKNOWN });
      else if (context.couponError === null) offered.push({ type: 'coupon.apply' });
    }
  }
  return offered;
}

const serialize = (state: Snapshot) =>
  JSON.stringify([
    state.value,
    Object.keys(state.children).sort(),
    state.context.loggedIn,
    state.context.date,
    state.context.month,
    state.context.slots,
    state.context.selected.map((slot) => slot.id),
    state.context.couponInput,
    state.context.coupon?.code ?? null,
    state.context.couponError?.kind ?? null,
    state.context.offerChecked,
    state.context.termsAccepted,
    state.context.summaryError,
    state.context.pendingSlot?.id ?? null,
    state.context.clientSecret,
    state.context.series !== null,
    state.context.seriesWeeks,
    state.context.seriesFailed,
    isCoverSettled(state.context),
    currentCover(state.context)?.credit_eur ?? null,
    usesCredit(state.context),
  ]);

const SCRIPTED = [
  'loadLocalTime',
  'loadSlots',
  'checkCoupon',
  'loadOfferedCoupon',
  'createBooking',
  'previewWeeklySeries',
];
const STARTS: [string, boolean][] = [
  ['logged in', true],
  ['logged out', false],
];

type World = { network: Network; app: App };

const DIALOG = () => screen.getByRole('dialog', { name: BRANCH.name });
const TERMS = 'Concordo com as regras, termos e condições';
const summaryDialog = () => screen.queryByRole('dialog', { name: 'Resumo da reserva' });
const seriesWeeks = () => screen.queryByRole('group', { name: 'Semanas da série' });
const slotButtons = () =>
  within(screen.getByRole('group', { name: 'Horários' })).getAllByRole<HTMLButtonElement>('button');

const driver: Driver<typeof bookingMachine, World> = {
  answer(event, before) {
    const actor = /actor\.(.+)$/.exec(event.type)![1]!;
    const error = event.error as ApiError | undefined;
    const ok = (status: number, body: unknown) => (error ? errorAnswer(error) : { status, body });
    switch (actor) {
      case 'loadLocalTime':
        return { operations: ['getBranchLocalTime'], answer: ok(200, event.output) };
      case 'loadSlots':
        return { operations: ['listSlots'], answer: ok(200, event.output) };
      case 'checkCoupon':
        return { operations: ['getCoupon'], answer: ok(200, event.output) };
      case 'loadOfferedCoupon':
        return { operations: ['getMe'], answer: ok(200, { ...MEMBER, offered_coupon: event.output }) };
      case 'previewWeeklySeries':
        return {
          operations: ['previewWeeklySeries'],
          answer: ok(200, {
            branch_id: BRANCH.id,
            iso_weekday: 1,
            local_time: '09:00',
            occurrences: event.output,
          }),
        };
      default:
        return {
          operations: ['createBooking'],
          // With credit in use the booking spends it and expects to pay what its cover left; else the total.
          answer: (call) => {
            const body = call.body as { use_credit?: boolean; expected_total_final_price_eur: number };
            if (usesCredit(before.context)) {
              expect(body.use_credit).toBe(true);
              expect(body.expected_total_final_price_eur).toBe(currentCover(before.context)!.due_eur);
            } else expect(body).not.toHaveProperty('use_credit');
            return ok(201, { checkout_session: { clientSecret: event.output ?? null } });
          },
        };
    }
  },
  act: {
    'date.select': (event) =>
      press(
        within(DIALOG()).getByRole('button', { name: formatDay((event as { date: string }).date, 'pt') }),
      ),
    'month.next': () => press(within(DIALOG()).getByRole('button', { name: 'Mês seguinte' })),
    'month.previous': () => press(within(DIALOG()).getByRole('button', { name: 'Mês anterior' })),
    // The day's slot in the grid; a later week of the series by its checkbox in the basket.
    'slot.toggle': (event) =>
      (event as { slot: TimeSlot }).slot.id === SLOT.id
        ? press(slotButtons()[0]!)
        : press(within(seriesWeeks()!).getByRole('checkbox', { name: /^Semana 2:/ })),
    'series.weeks': (event) => {
      fireEvent.change(within(DIALOG()).getByLabelText('Repetir todas as semanas, durante (semanas)'), {
        target: { value: String((event as { weeks: number }).weeks) },
      });
    },
    'series.preview': () =>
      press(within(DIALOG()).getByRole('button', { name: /^(Ver|Atualizar) as semanas$/ })),
    'series.stop': () => press(within(DIALOG()).getByRole('button', { name: 'Não repetir' })),
    'selection.clear': () => press(within(DIALOG()).getByRole('button', { name: 'Desmarcar tudo' })),
    'summary.open': () => press(within(DIALOG()).getByRole('button', { name: 'Confirmar reserva' })),
    'coupon.input': (event) => {
      fireEvent.change(within(DIALOG()).getByLabelText('Código de cupão'), {
        target: { value: (event as { value: string }).value },
      });
    },
    'coupon.apply': () => press(within(DIALOG()).getByRole('button', { name: 'Aplicar' })),
    'coupon.remove': () => press(within(DIALOG()).getByRole('button', { name: 'Remover cupão' })),
    'terms.toggle': () => press(within(summaryDialog()!).getByRole('checkbox', { name: TERMS })),
    'credit.toggle': () =>
      press(within(summaryDialog()!).getByRole('checkbox', { name: 'Usar o meu crédito' })),
    // The cover child asks the server about the basket once it rests: the answer is the path's.
    'cover.changed': async (event, before, { network }) => {
      const { cover } = event as unknown as { cover: CreditCover | null };
      await network.answer(['previewCreditCover'], (call) => {
        expect(call.body).toEqual(coverRequest(before.context));
        return cover ? { status: 200, body: cover } : errorAnswer(new ApiError('service_unavailable'));
      });
    },
    'summary.close': () => press(within(summaryDialog()!).getByRole('button', { name: 'Fechar' })),
    'booking.confirm': () => press(within(summaryDialog()!).getByRole('button', { name: 'Confirmar' })),
    'payment.failed': () => stripe.fail(),
    'payment.close': () => {
      const dialog =
        screen.queryByRole('dialog', { name: 'Pagamento' }) ??
        screen.getByRole('dialog', { name: 'Pagamento concluído' });
      press(within(dialog).getAllByRole('button', { name: 'Fechar' })[0]!);
    },
    // The member logs in (the auth modal hands the session a token) or out, elsewhere on the page.
    'session.changed': (event, _, { app }) => {
      if ((event as { loggedIn: boolean }).loggedIn)
        app.runtime.session.send({ type: 'token.set', token: 'member-token' });
      else app.runtime.session.send({ type: 'logout' });
    },
  },
  check(state, { app }) {
    const { context } = state;
    const dialog = DIALOG();
    const inside = within(dialog);
    inside.getByRole('heading', { name: formatDay(context.date, 'pt') });
    expect(inside.getAllByText(formatMonth(context.month, 'pt')).length).toBeGreaterThan(0);
    if (state.matches('loadingToday') || state.matches({ browsing: { slots: 'loading' } }))
      inside.getByText('A carregar os horários…');
    else if (state.matches({ browsing: { slots: 'failed' } }))
      inside.getByText('Não foi possível obter os horários. Tente novamente mais tarde.');
    else if (context.slots.length === 0) inside.getByText('Não há horários neste dia.');
    else {
      const buttons = slotButtons();
      expect(buttons).toHaveLength(context.slots.length);
      context.slots.forEach((slot, index) => {
        expect(buttons[index]!.getAttribute('aria-pressed')).toBe(
          String(context.selected.some((chosen) => chosen.id === slot.id)),
        );
        expect(buttons[index]!.disabled).toBe(!state.can({ type: 'slot.toggle', slot }));
      });
    }
    // A pick made while logged out asks for the login.
    if (context.pendingSlot) expect(app.search()).toMatch(/auth_tab=login/);
    const slotsFailed = state.matches({ browsing: { slots: 'failed' } });
    if (!context.loggedIn) {
      if (!slotsFailed)
        inside.getByRole('button', { name: `Iniciar sessão para reservar em ${BRANCH.name}` });
      expect(inside.queryByLabelText('Código de cupão')).toBeNull();
    } else if (!slotsFailed) {
      if (context.coupon) inside.getByText(new RegExp(`${context.coupon.code} aplicado`));
      else {
        expect(inside.getByLabelText<HTMLInputElement>('Código de cupão').value).toBe(context.couponInput);
        const apply = inside.getByRole('button', { name: 'Aplicar' });
        expect(apply.dataset.loading).toBe(
          state.matches({ browsing: { coupon: 'checking' } }) ? 'true' : undefined,
        );
        if (context.couponError?.kind === 'invalid') inside.getByText(context.couponError.detail);
      }
      expect(inside.getByRole('button', { name: 'Confirmar reserva' })).toHaveProperty(
        'disabled',
        !state.can({ type: 'summary.open' }),
      );
    }
    // The series' weeks: each bookable one a checkbox, ticked while it is in the basket; the others say why not.
    const weeks = seriesWeeks();
    expect(weeks !== null, 'the weeks show while a series is chosen').toBe(context.series !== null);
    if (weeks && context.series) {
      const boxes = within(weeks).getAllByRole<HTMLInputElement>('checkbox');
      const bookable = context.series.occurrences.filter((week) => week.slot && !week.problem);
      expect(boxes.map((box) => box.checked)).toEqual(
        bookable.map((week) => context.selected.some((chosen) => chosen.id === week.slot!.id)),
      );
      within(weeks).getByText(/^Semana 3: .*, já reservado$/);
    }
    if (context.loggedIn && !slotsFailed && (context.series || state.can({ type: 'series.preview' })))
      expect(
        inside.getByLabelText<HTMLInputElement>('Repetir todas as semanas, durante (semanas)').value,
      ).toBe(String(context.seriesWeeks));
    expect(
      inside.queryByText('Não foi possível obter as semanas. Tente novamente mais tarde.') !== null,
      'the failed look-up of the weeks is told until the basket changes',
    ).toBe(state.matches('browsing') && context.seriesFailed);
    const summary = summaryDialog();
    expect(summary !== null, 'the summary is open exactly in the summary').toBe(state.matches('summary'));
    if (summary) {
      expect(within(summary).getByRole('checkbox', { name: TERMS })).toHaveProperty(
        'checked',
        context.termsAccepted,
      );
      // The credit: asked for, unreadable, or what it pays and what is left, with the choice to use it.
      const inSummary = within(summary);
      expect(inSummary.queryByText('A verificar o seu crédito…') !== null).toBe(!isCoverSettled(context));
      expect(
        inSummary.queryByText(
          'Não foi possível verificar o seu crédito: esta reserva é paga por inteiro.',
        ) !== null,
      ).toBe(isCoverUnread(context));
      const cover = currentCover(context);
      const useCredit = inSummary.queryByRole('checkbox', { name: 'Usar o meu crédito' });
      expect(useCredit !== null, 'the credit switch shows where credit pays something').toBe(
        (cover?.credit_eur ?? 0) > 0,
      );
      if (useCredit) expect(useCredit).toHaveProperty('checked', context.useCredit);
      const paidLine = inSummary.queryByText('Pago com crédito')?.parentElement?.textContent ?? null;
      const dueLine = inSummary.queryByText('A pagar')?.parentElement?.textContent ?? null;
      if (usesCredit(context)) {
        expect(paidLine?.replace(/\s+/g, ' ')).toBe(
          `Pago com crédito${formatEuros(cover!.credit_eur, 'pt')}`.replace(/\s+/g, ' '),
        );
        expect(dueLine?.replace(/\s+/g, ' ')).toBe(
          `A pagar${formatEuros(cover!.due_eur, 'pt')}`.replace(/\s+/g, ' '),
        );
      } else {
        expect(paidLine).toBeNull();
        expect(dueLine).toBeNull();
      }
      expect(inSummary.getByRole('button', { name: 'Confirmar' })).toHaveProperty(
        'disabled',
        !state.can({ type: 'booking.confirm' }),
      );
      expect(
        within(summary).queryByText(/^Uma série semanal de \d+ semanas, paga de uma vez\.$/) !== null,
      ).toBe(isSeriesSelection(context));
      expect(within(summary).getByRole('button', { name: 'Confirmar' }).dataset.loading).toBe(
        state.matches({ summary: 'creating' }) ? 'true' : undefined,
      );
      const alert = within(summary).getByRole('alert');
      if (context.summaryError?.kind === 'server')
        expect(alert.textContent).toBe(context.summaryError.detail);
      else if (context.summaryError) expect(alert.textContent).not.toBe('');
      else expect(alert.textContent).toBe('');
    }
    const payment = screen.queryByRole('dialog', { name: 'Pagamento' });
    expect(payment !== null, 'the payment dialog is open exactly while paying').toBe(
      state.matches('payment'),
    );
    if (payment && state.matches({ payment: 'failed' }))
      within(payment).getByText('O fornecedor de pagamentos não conseguiu iniciar.');
    expect(screen.queryByRole('dialog', { name: 'Pagamento concluído' }) !== null).toBe(
      state.matches('confirmed'),
    );
  },
};

const flow = recorder(bookingMachine);
afterAll(() => flow.assertCovered());

let stripeKeys = 0;

describe.each(STARTS)('the booking modal, %s, driven by its model', async (_label, loggedIn) => {
  const input: BookingInput = { branchId: BRANCH.id, loggedIn, fallbackToday: TODAY };
  const generated = withoutPrefixes(
    generatePaths(bookingMachine, { events, input, serializeState: serialize, maxStatesForSimplePaths: 0 }),
  );
  const paths = await covering(bookingMachine, generated, { scripted: SCRIPTED, input });
  for (const path of paths) {
    it(`follows ${path.description}`, async () => {
      let runtime: App['runtime'] | null = null;
      const sessionLookUps = new Set<string>();
      // The session's own calls are answered at once; the booking's look-up of the member (the offered coupon)
      // waits for the path.
      const network = createNetwork({
        validateToken: () => ({ status: 200, body: { valid: true } }),
        // The session asks for the member as it enters logged in, before the flow hears of it: the first call
        // while the session's own look-up runs is the session's.
        getMe: () => {
          const lookUp = runtime?.session.getSnapshot().children.fetchUser;
          if (!lookUp || sessionLookUps.has(lookUp.sessionId)) return undefined;
          if (lookUp) sessionLookUps.add(lookUp.sessionId);
          return { status: 200, body: MEMBER };
        },
        logout: () => ({ status: 204 }),
        listBranches: () => ({ status: 200, body: [BRANCH] }),
      });
      flow.startPath();
      stripeKeys += 1;
      const app = await renderApp(() => <BookingModal hidden={false} onShown={() => {}} />, {
        search: `booking_tab=bookSessions&booking_branch_id=${BRANCH.id}`,
        network,
        inspect: flow.inspect,
        config: { stripePublishableKey: `pk_test_${stripeKeys}` },
        onRuntime: (created) => (runtime = created),
        ...(loggedIn ? { token: 'member-token' } : {}),
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
