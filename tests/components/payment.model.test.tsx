// @vitest-environment jsdom
import './support/mocks.ts';
import { stripe } from './support/stripe.ts';
import { screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import { paymentMachine, type SessionStatus } from '../../machines/payment.machine.ts';
import {
  bookedSlots,
  giftOutcome,
  packOutcome,
  paymentOutcome,
  refundedSlots,
  type PaymentOutcome,
} from '../../machines/payment.selectors.ts';
import { formatEuros } from '../../src/i18n/format.ts';
import { covering, generatePaths, withoutPrefixes } from '../machines/model/paths.ts';
import { renderApp, type App } from './support/app.tsx';
import { drivePath, press, recorder, type Driver } from './support/model.ts';
import { MEMBER } from './support/member.ts';
import { createNetwork, errorAnswer, type Network } from './support/network.ts';

const { default: PaymentResult } = await import('../../src/booking/PaymentResult.tsx');

// The payment result's machine (machines/payment.machine.ts) driven through the real dialog that a return from
// the checkout opens (src/booking/PaymentResult.tsx, with its embedded checkout): paths generated from the
// machine, each user event a click in the dialog, the status check answered at the network with a body the
// contract allows, `payment.failed` Stripe.js failing to load, and `session.changed` a login of the app's real
// session (the member logs in elsewhere on the page, as the dialog asked), which the flow hears through the
// app's bridge. Every transition of the machine has its control.

type Event = EventFrom<typeof paymentMachine>;
type Snapshot = SnapshotFrom<typeof paymentMachine>;

const SESSION_ID = 'cs_test_1';
const SECRET = 'cs_test_1_secret_x';

const slot = (
  id: number,
  status: SessionStatus['bookings'][number]['status'],
  refunded_eur = 0,
): SessionStatus['bookings'][number] => ({
  id,
  start_time: `2026-12-1${id}T09:00:00+00:00`,
  end_time: `2026-12-1${id}T10:00:00+00:00`,
  branch_name: 'Avenidas Novas',
  time_zone: 'Europe/Lisbon',
  status,
  refunded_eur,
});

const PACK = { name: 'Dez horas', unit: 'hours', credit: 10, expires_at: null } as const;
const PACK_EXPIRY = '2027-05-31T12:00:00Z';
const GIFT = {
  amount_eur: 25.5,
  recipient_name: 'Ana Sousa',
  recipient_email: 'ana@example.com',
  code: null,
  expires_at: null,
} as const;

/** The status check's answers: each outcome the dialog words differently. */
const STATUSES: SessionStatus[] = [
  // Paid, one slot booked, one paid too late and refunded.
  { status: 'complete', clientSecret: null, bookings: [slot(1, 'confirmed'), slot(2, 'expired', 20)] },
  // A move's difference, paid: the booking stands at its new time.
  { status: 'complete', clientSecret: null, bookings: [slot(3, 'confirmed')], move_price_difference_eur: 5 },
  { status: 'complete', clientSecret: null, bookings: [slot(4, 'expired', 15)] },
  { status: 'complete', clientSecret: null, bookings: [slot(5, 'pending')] },
  { status: 'complete', clientSecret: null, bookings: [slot(6, 'canceled')] },
  { status: 'expired', clientSecret: null, bookings: [slot(7, 'expired')] },
  { status: 'open', clientSecret: SECRET, bookings: [slot(8, 'pending')] },
  // Issue 31: a prepaid pack, paid (its credit in the wallet until its expiry) or its Multibanco voucher unpaid.
  { status: 'complete', clientSecret: null, bookings: [], credit_pack: { ...PACK, expires_at: PACK_EXPIRY } },
  {
    status: 'complete',
    clientSecret: null,
    bookings: [],
    credit_pack: PACK,
    awaiting_payment: {
      method: 'multibanco',
      amount_eur: 90,
      held_until: '2026-12-03T23:59:00Z',
      voucher: {
        entity: '12345',
        reference: '123 456 789',
        expires_at: '2026-12-03T23:59:00Z',
        voucher_url: null,
      },
    },
  },
  // A gift voucher, paid (sent to its recipient with its code) or its MB WAY request not yet approved.
  {
    status: 'complete',
    clientSecret: null,
    bookings: [],
    gift_voucher: { ...GIFT, code: 'GIFT-7K2M-9QXA', expires_at: '2027-11-01T10:00:00Z' },
  },
  {
    status: 'complete',
    clientSecret: null,
    bookings: [],
    gift_voucher: GIFT,
    awaiting_payment: {
      method: 'mb_way',
      amount_eur: 25.5,
      held_until: '2026-12-03T23:59:00Z',
      voucher: null,
    },
  },
];

/** A result that closes onto the wallet: a pack's (its credit is there) or a gift voucher's (listed there). */
const ontoWallet = (state: Snapshot) =>
  packOutcome(state.context) !== null || giftOutcome(state.context) !== null;

function events(state: Snapshot): Event[] {
  if (state.matches('checking'))
    return [
      ...STATUSES.map((output) => ({ type: 'xstate.done.actor.checkStatus', output })),
      // Refused for this caller (not logged in): the dialog asks for a login.
      { type: 'xstate.error.actor.checkStatus', error: new ApiError('unauthorized', 'Sessão necessária.') },
      { type: 'xstate.error.actor.checkStatus', error: new ApiError('service_unavailable') },
    ] as unknown as Event[];
  if (state.matches('awaitingLogin'))
    return [{ type: 'session.changed', loggedIn: true }, { type: 'result.close' }];
  if (state.matches('result'))
    return [
      ...(state.can({ type: 'payment.retry' }) ? [{ type: 'payment.retry' } as const] : []),
      { type: 'result.close' },
    ];
  if (state.matches('checkout')) return [{ type: 'payment.failed' }, { type: 'result.close' }];
  if (state.matches('checkoutFailed') || state.matches('failed')) return [{ type: 'result.close' }];
  return [];
}

const outcomeOf = (state: Snapshot): string =>
  packOutcome(state.context) !== null
    ? `pack ${packOutcome(state.context)}`
    : giftOutcome(state.context) !== null
      ? `gift ${giftOutcome(state.context)}`
      : state.context.status === null
        ? 'no status'
        : state.context.status === 'complete'
          ? `${paymentOutcome(state.context)}${state.context.moveDifferenceEur === null ? '' : ' (move)'}`
          : String(state.context.status);

const input = { sessionId: SESSION_ID };
const generated = withoutPrefixes(
  generatePaths(paymentMachine, {
    events,
    input,
    // The whole state (each outcome is its own): a path's next step is computed from the state this names.
    serializeState: (state) => JSON.stringify([state.value, state.context]),
  }),
);
// `covering` keeps the fewest paths that take every transition; the outcomes it would leave out (they take the
// same transitions) are driven too: each is a view of its own.
const chosen = await covering(paymentMachine, generated, { scripted: ['checkStatus'], input });
const outcomes = new Set(chosen.map((path) => outcomeOf(path.steps[1]?.state ?? path.state)));
const paths = [
  ...chosen,
  ...generated.filter((path) => {
    const first = path.steps[1]?.state;
    if (!first?.matches('result') || outcomes.has(outcomeOf(first))) return false;
    outcomes.add(outcomeOf(first));
    return true;
  }),
];

type World = { network: Network; app: App };

const dialog = () => screen.queryByRole('dialog');
const TITLES: Record<PaymentOutcome | 'move', string> = {
  booked: 'Pagamento concluído',
  move: 'Reserva mudada',
  refunded: 'Pagamento reembolsado',
  processing: 'Pagamento em processamento',
  ended: 'Pagamento',
};

/** The dialog's title in the state. */
function titleOf(state: Snapshot): string {
  const { status, moveDifferenceEur } = state.context;
  if (state.matches('checking')) return 'A verificar o pagamento';
  if (state.matches('awaitingLogin')) return 'Inicie sessão';
  if (state.matches('failed')) return 'Não foi possível verificar o pagamento';
  if (state.matches('checkout') || state.matches('checkoutFailed')) return 'Pagamento';
  if (status === 'expired') return 'Sessão de pagamento expirada';
  if (status === 'open') return 'Pagamento pendente';
  if (packOutcome(state.context) === 'credited') return 'Pacote comprado';
  if (packOutcome(state.context) === 'awaiting') return 'A aguardar pagamento';
  if (giftOutcome(state.context) === 'sent') return 'Vale enviado';
  if (giftOutcome(state.context) === 'awaiting') return 'A aguardar pagamento';
  const outcome = paymentOutcome(state.context);
  return TITLES[outcome === 'booked' && moveDifferenceEur !== null ? 'move' : outcome];
}

/** The slots a list of the dialog shows (its items), or null without that list. */
const listed = (name: string) => {
  const list = screen.queryByRole('list', { name });
  return list ? within(list).getAllByRole('listitem').length : null;
};

const driver: Driver<typeof paymentMachine, World> = {
  answer(event) {
    const error = event.error as ApiError | undefined;
    return {
      operations: ['getCheckoutSessionStatus'],
      answer: error ? errorAnswer(error) : { status: 200, body: event.output },
    };
  },
  act: {
    'result.close': (_, before) => {
      // A pack's or a gift voucher's result closes onto the wallet, where its credit or the voucher is.
      if (before.matches('result') && ontoWallet(before)) {
        press(within(dialog()!).getByRole('button', { name: 'Ver a carteira' }));
        return;
      }
      // The dialog's own "Fechar" where it has one, its corner's otherwise (the checkout shows no buttons).
      const buttons = within(dialog()!).getAllByRole('button', { name: 'Fechar' });
      press(buttons.at(-1)!);
    },
    'payment.retry': () => press(within(dialog()!).getByRole('button', { name: 'Tentar novamente' })),
    'payment.failed': () => stripe.fail(),
    // The member logs in elsewhere on the page (the auth modal hands the session a token).
    'session.changed': (_, __, { app }) =>
      app.runtime.session.send({ type: 'token.set', token: 'member-token' }),
  },
  check(state, { app }) {
    const shown = dialog();
    if (state.matches('closed')) {
      expect(shown, 'a closed result shows no dialog').toBeNull();
      expect(app.search()).not.toMatch(/stripe_session_id/);
      expect(app.search().includes('account_tab=wallet'), 'a pack’s result closes onto the wallet').toBe(
        ontoWallet(state),
      );
      return;
    }
    expect(shown).not.toBeNull();
    expect(app.search()).toMatch(/stripe_session_id=/);
    const inside = within(shown!);
    inside.getByRole('heading', { name: titleOf(state) });
    const retry = inside.queryByRole('button', { name: 'Tentar novamente' });
    expect(retry !== null, '"Tentar novamente" is offered exactly while the checkout can be re-opened').toBe(
      state.can({ type: 'payment.retry' }),
    );
    // Only the corner's "Fechar" while checking or paying; the dialog's own button besides otherwise.
    expect(inside.getAllByRole('button', { name: 'Fechar' })).toHaveLength(
      state.matches('checking') || state.matches('checkout') ? 1 : 2,
    );
    if (state.matches('checking')) inside.getByLabelText('A verificar o pagamento');
    if (state.matches('awaitingLogin')) {
      // The flow asked for the login, and offers it again.
      expect(app.search()).toMatch(/auth_tab=login/);
      inside.getByRole('button', { name: 'Iniciar sessão' });
    } else expect(inside.queryByRole('button', { name: 'Iniciar sessão' })).toBeNull();
    if (state.matches('failed')) inside.getByText('Ocorreu um erro inesperado. Tente novamente.');
    if (state.matches('checkout')) {
      // The embedded checkout waits for Stripe.js.
      expect(inside.queryByRole('alert')).toBeNull();
      expect(state.context.clientSecret).toBe(SECRET);
    }
    if (state.matches('checkoutFailed'))
      expect(inside.getByRole('alert').textContent).toBe('O fornecedor de pagamentos não conseguiu iniciar.');
    if (!state.matches('result')) return;
    expect(inside.queryByRole('button', { name: 'Ver a carteira' }) !== null).toBe(ontoWallet(state));
    // A gift voucher's result says to whom it went, with its code and expiry; or that it waits for its money.
    const gift = giftOutcome(state.context);
    if (gift === 'sent')
      inside.getByText(
        'Enviámos a Ana Sousa (ana@example.com) o vale de 25,50 €. Código: GIFT-7K2M-9QXA, válido até 1 de novembro de 2027.',
      );
    if (gift === 'awaiting') {
      inside.getByText(
        'O vale de 25,50 € para Ana Sousa está à espera do pagamento: enviamo-lo a ana@example.com assim que o pagamento chegar.',
      );
      inside.getByText('Aprove o pedido MB WAY de 25,50 € no seu telemóvel.');
    }
    // A pack's result names it and its credit, or waits for its money with the reference to pay.
    const pack = packOutcome(state.context);
    if (pack === 'credited')
      inside.getByText('O pacote «Dez horas» está na sua carteira: 10 horas até 31 de maio de 2027.');
    if (pack === 'awaiting') {
      inside.getByText(
        'O pacote «Dez horas» está à espera do pagamento: o crédito fica na sua carteira assim que o pagamento chegar.',
      );
      within(inside.getByLabelText('Referência Multibanco')).getByText('123 456 789');
    }
    // What the result lists: the slots booked (at their new time for a move) and those refunded.
    const outcome = state.context.status === 'complete' ? paymentOutcome(state.context) : null;
    const booked = outcome === 'booked' ? bookedSlots(state.context).length : null;
    expect(listed('Horas reservadas')).toBe(state.context.moveDifferenceEur === null ? booked : null);
    expect(listed('Nova hora da reserva')).toBe(state.context.moveDifferenceEur === null ? null : booked);
    const refunded = refundedSlots(state.context).length;
    expect(listed('Horas reembolsadas')).toBe(
      outcome === 'booked' || outcome === 'refunded' ? refunded || null : null,
    );
    if (state.context.moveDifferenceEur !== null)
      inside.getByText(
        // Testing Library's default normaliser makes the no-break space before '€' a plain one.
        `Pagou a diferença de ${formatEuros(state.context.moveDifferenceEur, 'pt')}. Enviámos-lhe o evento de calendário atualizado por e-mail.`.replace(
          /\s+/g,
          ' ',
        ),
      );
    if (state.context.status === 'expired')
      inside.getByText('A sua sessão de pagamento expirou. Tente novamente.');
    if (state.context.status === 'open')
      inside.getByText('O seu pagamento ainda está pendente. Conclua o processo.');
  },
};

const flow = recorder(paymentMachine);
afterAll(() => flow.assertCovered());

describe('the payment result, driven by its model', () => {
  for (const path of paths) {
    const first = path.steps[1]?.state;
    it(`follows ${path.description}${first ? ` (${outcomeOf(first)})` : ''}`, async () => {
      // The visitor returns from the checkout logged out: the session settles at once and changes only when
      // the path logs in.
      const network = createNetwork({
        validateToken: () => ({ status: 200, body: { valid: true } }),
        getMe: () => ({ status: 200, body: MEMBER }),
        listBranches: () => ({ status: 200, body: [] }),
      });
      flow.startPath();
      const app = await renderApp(() => <PaymentResult sessionId={SESSION_ID} hidden={false} />, {
        search: `stripe_session_id=${SESSION_ID}`,
        network,
        inspect: flow.inspect,
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
