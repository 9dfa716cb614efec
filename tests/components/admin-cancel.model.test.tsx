// @vitest-environment jsdom
import './support/mocks.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import {
  adminCancelMachine,
  cancelProblem,
  needsApproval,
  type RefundMode,
} from '../../machines/adminCancel.machine.ts';
import { ApiError } from '../../machines/api.ts';
import { formatEuros } from '../../src/i18n/format.ts';
import { covering, generatePaths } from '../machines/model/paths.ts';
import {
  consoleNetwork,
  cutAfter,
  OWNER,
  feedbackText,
  isSessionEnd,
  labelled,
  renderConsole,
  shortestThrough,
  started,
} from './support/console.tsx';
import { drivePath, press, recorder, type Driver } from './support/model.ts';
import { errorAnswer, type Network } from './support/network.ts';

// An operator's cancellation (machines/adminCancel.machine.ts) driven through the real booking page
// (`/pt/admin/bookings/41`, src/admin/pages/BookingPage.tsx) and its cancel dialog, opened before each path (the
// flow starts with it): each user event a choice, a typed amount or reason, or the dialog's submit; the
// cancellation answered at the network with a body the contract allows. The operator is staff, with a ceiling of
// 20 €: a full refund (25 €) or a typed amount above it is sent to the owners for approval (issue 32), which the
// dialog says before it is sent and the page says after.

type Event = EventFrom<typeof adminCancelMachine>;
type Snapshot = SnapshotFrom<typeof adminCancelMachine>;

const BOOKING = {
  id: 41,
  status: 'confirmed',
  series: null,
  branch: { id: 1, name: 'Centro', time_zone: 'Europe/Lisbon' },
  start_time: '2026-12-01T10:00:00Z',
  end_time: '2026-12-01T11:00:00Z',
  created_at: '2026-11-20T10:00:00Z',
  member: {
    id: '5b0c1f7e-2b8a-4a53-9d1e-0c7f1a2b3c4d',
    email: 'rita@example.pt',
    phone_number: '+351912345678',
    first_name: 'Rita',
    last_name: 'Lopes',
    locale: 'pt',
    deleted: false,
    blocked: false,
  },
  final_price_eur: 25,
  paid: true,
  paid_eur: 25,
  refunded_eur: 0,
  coupon_code: null,
  door_code_state: 'programmed',
  code_sent_at: null,
  checked_in_at: null,
  no_show: false,
  overstay: false,
  canceled_at: null,
};
const DETAIL = {
  booking: BOOKING,
  refundable_eur: 12.5,
  staff_refund_ceiling_eur: 20,
  refund_approval: null,
  history: [],
  payments: [],
  messages: [],
};
const CANCELLED = {
  ...DETAIL,
  booking: { ...BOOKING, status: 'canceled', canceled_at: '2026-11-26T12:00:00Z' },
};
const STAFF = { ...OWNER, id: 2, email: 'staff@gym.example', role: 'staff' as const };
/** The request the server answers 202 with: nothing cancelled, waiting for an owner. */
const APPROVAL = {
  id: 7,
  status: 'pending',
  booking: {
    id: BOOKING.id,
    status: 'confirmed',
    branch: BOOKING.branch,
    start_time: BOOKING.start_time,
    end_time: BOOKING.end_time,
    member_email: BOOKING.member.email,
  },
  refund_mode: 'full',
  refund_eur: 25,
  reason: 'Porta avariada',
  requested_at: '2026-11-26T12:00:00Z',
  requested_by: STAFF.email,
  decided_at: null,
  decided_by: null,
  decision_reason: null,
  refunded_eur: null,
};
const SENT = { ...DETAIL, refund_approval: APPROVAL };
const INPUT = { bookingId: BOOKING.id, paidCents: 2500, policyCents: 1250, ceilingCents: 2000 };

const answers = (state: Snapshot): Event[] =>
  state.matches('cancelling')
    ? ([
        { type: 'xstate.done.actor.cancelBooking', output: 'cancelled' },
        { type: 'xstate.done.actor.cancelBooking', output: 'sent-for-approval' },
        {
          type: 'xstate.error.actor.cancelBooking',
          error: new ApiError('booking_not_cancelable', 'A reserva já não pode ser cancelada.'),
        },
        {
          type: 'xstate.error.actor.cancelBooking',
          error: new ApiError('unauthorized', 'Sessão terminada.'),
        },
      ] as unknown as Event[])
    : [];

const MODES: RefundMode[] = ['policy', 'full', 'none', 'amount'];

/**
 * What the operator can do in the dialog: choose another refund, type an amount (while one is asked: within, above
 * what was paid, not an amount) or a reason (or blank it), and send it once it is complete (the button is off
 * otherwise).
 */
function userEvents(state: Snapshot): Event[] {
  if (!state.matches('editing')) return [];
  const { mode, amount, reason } = state.context;
  return [
    ...MODES.filter((other) => other !== mode).map((other) => ({
      type: 'mode.change' as const,
      mode: other,
    })),
    ...(mode === 'amount'
      ? ['12,5', '25.01', 'dez']
          .filter((value) => value !== amount)
          .map((value) => ({ type: 'amount.change' as const, value }))
      : []),
    ...['Porta avariada', '']
      .filter((value) => value !== reason)
      .map((value) => ({ type: 'reason.change' as const, value })),
    ...(cancelProblem(state.context) === null ? [{ type: 'cancel.submit' as const }] : []),
  ];
}

const all = generatePaths(adminCancelMachine, {
  events: (state) => [...answers(state), ...userEvents(state)],
  input: INPUT,
  serializeState: (state) =>
    JSON.stringify([
      state.value,
      state.context.mode,
      state.context.amount,
      state.context.reason,
      state.context.error,
    ]),
  maxStatesForSimplePaths: 0,
});
const generated = cutAfter(all, isSessionEnd);
const covered = await covering(adminCancelMachine, generated, { scripted: ['cancelBooking'], input: INPUT });
// The form's checks (an amount above what was paid, no amount, no reason) are shown by the page too, and both
// ends of a sent form.
const paths = [
  ...new Set([
    ...covered,
    ...(['amount-above-paid', 'amount-invalid', 'reason-missing'] as const).map((problem) =>
      shortestThrough(generated, (state) => cancelProblem(state.context) === problem),
    ),
    // Both ends of a sent form: cancelled, and sent to the owners (two outcomes of one answer, which the paths'
    // names, and so `cutAfter`, do not tell apart).
    ...(['cancelled', 'sentForApproval'] as const).map((end) =>
      shortestThrough(all, (state) => state.matches(end)),
    ),
  ]),
];

/**
 * `ended`: the session-ending answer was given; `cancelled`: the cancellation was confirmed by the server; `sent`:
 * it was sent to the owners instead.
 */
type World = { network: Network; ended: boolean; cancelled: boolean; sent: boolean };

const TITLE = 'Cancelar a reserva #41';
const RADIOS: Record<RefundMode, RegExp> = {
  policy: /^Pela política/,
  full: /^Total/,
  none: /^Nenhum$/,
  amount: /^Outro valor$/,
};
const AMOUNT = 'Valor a reembolsar (€)';
const PROBLEMS = {
  // As Testing Library reads a text: its spaces (the no-break space before the euro sign) as one plain space.
  'amount-above-paid':
    `O reembolso não pode ser maior do que o valor pago e ainda não reembolsado (${formatEuros(25, 'pt')}).`.replace(
      /\s+/g,
      ' ',
    ),
  'amount-invalid': 'Escreva um valor em euros, por exemplo 12,50.',
};
const dialog = () => screen.getByRole('dialog', { name: TITLE });
const NOTE = 'Precisa da aprovação de um proprietário';
const submitName = (state: Snapshot) =>
  needsApproval(state.context) ? 'Enviar para aprovação' : 'Cancelar a reserva';

const driver: Driver<typeof adminCancelMachine, World> = {
  answer(event, before, world) {
    const error = event.error as ApiError | undefined;
    return {
      operations: ['adminCancelBooking'],
      answer: (call) => {
        // The refund chosen (an amount in euros) and the trimmed reason, for this booking.
        const { mode, amount, reason } = before.context;
        expect(new URL(call.request.url).pathname).toBe(`/api/admin/bookings/${BOOKING.id}/cancel`);
        expect(call.body).toEqual({
          refund: mode === 'amount' ? { mode, amount_eur: Number(amount.replace(',', '.')) } : { mode },
          reason: reason.trim(),
        });
        if (error && isSessionEnd({ type: event.type, error })) world.ended = true;
        if (error) return errorAnswer(error);
        if (event.output === 'sent-for-approval') {
          world.sent = true;
          return { status: 202, body: { ...APPROVAL, refund_mode: mode === 'none' ? 'full' : mode } };
        }
        world.cancelled = true;
        return { status: 200, body: CANCELLED };
      },
    };
  },
  act: {
    'mode.change': (event) =>
      press(
        within(dialog()).getByRole('radio', {
          name: RADIOS[(event as Extract<Event, { type: 'mode.change' }>).mode],
        }),
      ),
    'amount.change': (event) =>
      void fireEvent.change(labelled(AMOUNT, dialog()), {
        target: { value: (event as Extract<Event, { type: 'amount.change' }>).value },
      }),
    'reason.change': (event) =>
      void fireEvent.change(labelled('Motivo', dialog()), {
        target: { value: (event as Extract<Event, { type: 'reason.change' }>).value },
      }),
    'cancel.submit': (_event, before) =>
      press(within(dialog()).getByRole('button', { name: submitName(before) })),
  },
  check(state, world) {
    if (world.ended) {
      // The session ended: the console shows its login, said so.
      expect(screen.getByRole('heading', { name: 'Consola de operação' })).toBeTruthy();
      expect(screen.getByRole('status').textContent).toBe('A sua sessão terminou. Inicie sessão novamente.');
      return;
    }
    if (state.matches('cancelled')) {
      // Done, the dialog closes and the page shows the booking as it is now.
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(screen.getByText('cancelada')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Cancelar…' })).toHaveProperty('disabled', true);
      return;
    }
    if (state.matches('sentForApproval')) {
      // Sent to the owners: the dialog closes and the page says so; the booking is as it was.
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(screen.getByText('Enviado para aprovação')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Cancelar…' })).toHaveProperty('disabled', false);
      return;
    }
    const { mode, amount, reason, error } = state.context;
    const inside = within(dialog());
    for (const choice of MODES)
      expect(inside.getByRole('radio', { name: RADIOS[choice] })).toHaveProperty('checked', choice === mode);
    const amountField = inside.queryByLabelText(/^Valor a reembolsar/);
    expect(amountField !== null, 'an amount is asked for exactly while one is chosen').toBe(
      mode === 'amount',
    );
    if (amountField) expect(amountField).toHaveProperty('value', amount);
    expect(labelled('Motivo', dialog())).toHaveProperty('value', reason);
    // What stops the form from being sent is said next to the amount; a failure, at the foot.
    const problem = cancelProblem(state.context);
    for (const [key, text] of Object.entries(PROBLEMS))
      expect(inside.queryByText(text) !== null, `the page says "${text}" exactly when it holds`).toBe(
        problem === key && (key !== 'amount-invalid' || amount !== ''),
      );
    expect(inside.queryByRole('alert')?.textContent ?? null).toBe(error ? feedbackText(error) : null);
    // Before it is sent, the dialog says when the refund goes to the owners, and its button says so too.
    expect(inside.queryByText(NOTE) !== null, 'the approval note shows exactly above the ceiling').toBe(
      needsApproval(state.context),
    );
    const submit = inside.getByRole('button', { name: submitName(state) });
    expect(submit.dataset.loading).toBe(state.matches('cancelling') ? 'true' : undefined);
    if (state.matches('editing')) expect(submit).toHaveProperty('disabled', problem !== null);
  },
};

const flow = recorder(adminCancelMachine);
afterAll(() => flow.assertCovered());

await import('../../src/admin/pages/BookingPage.tsx');

describe("an operator's cancellation, driven by its model through the booking page's dialog", () => {
  for (const path of paths) {
    it(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      const world: World = { network: consoleNetwork(), ended: false, cancelled: false, sent: false };
      world.network = consoleNetwork({
        getOperatorMe: () => ({ status: 200, body: STAFF }),
        getAdminBooking: () => ({
          status: 200,
          body: world.cancelled ? CANCELLED : world.sent ? SENT : DETAIL,
        }),
      });
      flow.startPath();
      const app = await renderConsole(`/pt/admin/bookings/${BOOKING.id}`, {
        network: world.network,
        inspect: flow.inspect,
      });
      try {
        // The cancellation starts with its dialog.
        press(await screen.findByRole('button', { name: 'Cancelar…' }, { timeout: 5_000 }));
        await started(flow);
        await drivePath(driver, path, flow, world);
      } finally {
        app.stop();
      }
    });
  }
});

describe("an owner's cancellation", () => {
  it('is never sent for approval, however large the refund', async () => {
    const network = consoleNetwork({ getAdminBooking: () => ({ status: 200, body: DETAIL }) });
    const app = await renderConsole(`/pt/admin/bookings/${BOOKING.id}`, { network, inspect: () => {} });
    try {
      press(await screen.findByRole('button', { name: 'Cancelar…' }, { timeout: 5_000 }));
      press(within(dialog()).getByRole('radio', { name: RADIOS.full }));
      await waitFor(() =>
        expect(within(dialog()).getByRole('radio', { name: RADIOS.full })).toHaveProperty('checked', true),
      );
      expect(within(dialog()).queryByText(NOTE)).toBeNull();
      expect(within(dialog()).getByRole('button', { name: 'Cancelar a reserva' })).toBeTruthy();
    } finally {
      app.stop();
    }
  });
});
