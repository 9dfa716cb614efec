// @vitest-environment jsdom
import './support/mocks.ts';
import { stripe } from './support/stripe.ts';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import { giftVoucherOf, shownGiftProblems, type GiftField } from '../../machines/wallet.gift.ts';
import { walletMachine, type WalletLot, type WalletView } from '../../machines/wallet.machine.ts';
import { covering, generatePaths, withoutPrefixes } from '../machines/model/paths.ts';
import { EMPTY, FULL, MORNINGS, REDEEMED, TEN_HOURS } from '../machines/wallet-fixtures.ts';
import { renderApp, type App } from './support/app.tsx';
import { feedbackText } from './support/feedback.ts';
import { drivePath, press, recorder, type Driver } from './support/model.ts';
import { MEMBER } from './support/member.ts';
import { createNetwork, errorAnswer, type Network } from './support/network.ts';

const { default: AccountModal } = await import('../../src/account/AccountModal.tsx');

// The wallet's machine (machines/wallet.machine.ts, issue 31) driven through the real account modal's wallet tab
// (src/account/Wallet.tsx, with the embedded checkout of a pack): paths generated from the machine, each user event
// a click, a keystroke in a field or leaving it, each call answered at the network with a body the contract allows,
// `payment.failed` Stripe.js failing to load. The wallet, the packs on sale and the gift vouchers bought are three
// calls of one read: the packs and the vouchers are answered as the path's read says when they are asked for, the
// wallet when the path answers. A voucher's code redeemed and a gift voucher bought (through the same checkout as
// a pack) are driven too, the forms filled one step at a time.

type Event = EventFrom<typeof walletMachine>;
type Snapshot = SnapshotFrom<typeof walletMachine>;

const answer = (type: string, rest: object) => ({ type, ...rest }) as unknown as Event;

/**
 * What the member types, one step at a time, in this order: a voucher's code, then a gift voucher's amount out of
 * range (left, so its problem shows beside it), a good one, the recipient's name and e-mail.
 */
const TYPING: Event[] = [
  { type: 'voucher.input', value: 'GIFT-7K2M' },
  { type: 'gift.change', field: 'amount', value: '3' },
  { type: 'gift.leave', field: 'amount' },
  { type: 'gift.change', field: 'amount', value: '25' },
  { type: 'gift.change', field: 'name', value: 'Ana Sousa' },
  { type: 'gift.change', field: 'email', value: 'ana@example.com' },
];

function typed(state: Snapshot): number {
  const { code, redeemed, redeemError, gift, giftTouched } = state.context;
  if (code === '' && redeemed === null && redeemError === null) return 0;
  if (gift.amount === '') return 1;
  if (!giftTouched.includes('amount')) return 2;
  if (gift.amount === '3') return 3;
  if (gift.name === '') return 4;
  if (gift.email === '') return 5;
  return TYPING.length;
}

function events(state: Snapshot): Event[] {
  const { context } = state;
  const stage = typed(state);
  if (state.matches('loading'))
    return [
      // The first read finds the wallet empty or full; later reads, full.
      ...(context.wallet === null ? [EMPTY, FULL] : [FULL]).map((output) =>
        answer('xstate.done.actor.loadWallet', { output }),
      ),
      answer('xstate.error.actor.loadWallet', { error: new ApiError('service_unavailable') }),
    ];
  if (state.matches('failed')) return [{ type: 'wallet.retry' }];
  if (state.matches('purchasing'))
    return [
      answer('xstate.done.actor.purchasePack', { output: 'cs_pack_secret_x' }),
      // No checkout to pay (the contract allows it): the wallet is read again.
      answer('xstate.done.actor.purchasePack', { output: null }),
      answer('xstate.error.actor.purchasePack', {
        error: new ApiError('credit_pack_not_found', 'Este pacote não existe ou já não está à venda.'),
      }),
      answer('xstate.error.actor.purchasePack', { error: new ApiError('service_unavailable') }),
    ];
  if (state.matches('redeeming'))
    return [
      answer('xstate.done.actor.redeemVoucher', { output: REDEEMED }),
      answer('xstate.error.actor.redeemVoucher', {
        error: new ApiError('voucher_redeemed', 'Este vale já foi usado.'),
      }),
      answer('xstate.error.actor.redeemVoucher', { error: new ApiError('service_unavailable') }),
    ];
  if (state.matches('buyingGift'))
    return [
      answer('xstate.done.actor.buyGiftVoucher', { output: 'cs_gift_secret_x' }),
      answer('xstate.done.actor.buyGiftVoucher', { output: null }),
      answer('xstate.error.actor.buyGiftVoucher', {
        error: new ApiError('booking_requires_verification', 'Verifique o seu e-mail e telefone.'),
      }),
    ];
  if (state.matches({ checkout: 'open' })) return [{ type: 'payment.failed' }, { type: 'checkout.close' }];
  if (state.matches({ checkout: 'failed' })) return [{ type: 'checkout.close' }];
  // Ready: a pack on sale is bought before anything is typed (once the error of a former purchase is said, the
  // graph stays finite); a voucher's code is redeemed (typed or not) until the gift voucher is begun; the gift
  // voucher is bought after; the next keystroke.
  const next = TYPING[stage];
  return [
    ...(stage === 0 && context.packs.length > 0 && context.error === null
      ? [{ type: 'pack.buy', packId: context.packs[0]!.id } as Event]
      : []),
    ...(stage <= 1 && context.redeemError === null && context.redeemed === null
      ? [{ type: 'voucher.redeem' } as Event]
      : []),
    ...(stage >= 2 && context.giftError === null ? [{ type: 'gift.buy' } as Event] : []),
    ...(next ? [next] : []),
  ];
}

const generated = withoutPrefixes(
  generatePaths(walletMachine, {
    events,
    serializeState: (state) =>
      JSON.stringify([
        state.value,
        state.context.wallet?.lots.length ?? null,
        state.context.packs.length,
        state.context.error,
        typed(state),
        state.context.redeemError,
        state.context.redeemed !== null,
        state.context.giftChecked,
        state.context.giftError,
      ]),
  }),
);
const paths = await covering(walletMachine, generated, {
  scripted: ['loadWallet', 'purchasePack', 'redeemVoucher', 'buyGiftVoucher'],
});

type World = { network: Network; app: App };

const tab = () => screen.getByRole('tabpanel', { name: 'Carteira' });
const checkoutDialog = () => screen.queryByRole('dialog', { name: 'Pagamento' });
const text = (element: Element) => (element.textContent ?? '').replace(/\s+/g, ' ');

/** The gift voucher's fields, by their labels. */
const GIFT_LABELS: Record<GiftField, string> = {
  amount: 'Valor (€)',
  name: 'Nome de quem recebe',
  email: 'E-mail de quem recebe',
  message: 'Mensagem (opcional)',
};

/** What the member reads beside a gift voucher's field with a problem (written out, as feedbackText). */
const PROBLEM_TEXTS: Record<GiftField, Record<string, string>> = {
  amount: {
    missing: 'Indique o valor do vale.',
    'out-of-range': 'O valor tem de ser de 5 € a 500 €.',
    'not-cents': 'O valor só pode ter cêntimos (duas casas decimais).',
    invalid: 'Escreva o valor em euros, por exemplo 25 ou 25,50.',
  },
  name: { missing: 'Indique o nome de quem recebe o vale.', 'too-long': 'O nome é demasiado longo.' },
  email: { missing: 'Indique o e-mail de quem recebe o vale.', invalid: 'Este e-mail não é válido.' },
  message: { 'too-long': 'A mensagem é demasiado longa.' },
};

const field = (label: string) => within(tab()).getByLabelText<HTMLInputElement>(label, { exact: false });

const driver: Driver<typeof walletMachine, World> = {
  answer(event) {
    const error = event.error as ApiError | undefined;
    if (event.type.endsWith('loadWallet'))
      return {
        operations: ['getWallet'],
        answer: error ? errorAnswer(error) : { status: 200, body: (event.output as WalletView).wallet },
      };
    if (event.type.endsWith('redeemVoucher'))
      return {
        operations: ['redeemGiftVoucher'],
        answer: error ? errorAnswer(error) : { status: 201, body: event.output as WalletLot },
      };
    return {
      operations: [event.type.endsWith('buyGiftVoucher') ? 'buyGiftVoucher' : 'purchaseCreditPack'],
      answer: error
        ? errorAnswer(error)
        : { status: 201, body: { checkout_session: { clientSecret: event.output } } },
    };
  },
  act: {
    'wallet.retry': () => press(within(tab()).getByRole('button', { name: 'Tentar novamente' })),
    'pack.buy': (event, state) => {
      const pack = state.context.packs.find(
        (candidate) => candidate.id === (event as { packId: number }).packId,
      )!;
      press(within(tab()).getByRole('button', { name: `Comprar ${pack.name}` }));
    },
    'payment.failed': () => stripe.fail(),
    'checkout.close': () => press(within(checkoutDialog()!).getByRole('button', { name: 'Fechar' })),
    'voucher.input': (event) => {
      fireEvent.change(field('Código do vale'), { target: { value: (event as { value: string }).value } });
    },
    'voucher.redeem': () => press(within(tab()).getByRole('button', { name: 'Usar o vale' })),
    'gift.change': (event) => {
      const { field: name, value } = event as { field: GiftField; value: string };
      fireEvent.change(field(GIFT_LABELS[name]), { target: { value } });
    },
    'gift.leave': (event) => {
      fireEvent.blur(field(GIFT_LABELS[(event as { field: GiftField }).field]));
    },
    'gift.buy': () => press(within(tab()).getByRole('button', { name: 'Oferecer o vale' })),
  },
  check(state, { network }) {
    const { context } = state;
    const panel = within(tab());
    expect(
      checkoutDialog() !== null,
      'the checkout is open exactly while paying for a pack or a voucher',
    ).toBe(state.matches('checkout'));
    if (state.matches({ checkout: 'failed' }))
      within(checkoutDialog()!).getByText('O fornecedor de pagamentos não conseguiu iniciar.');
    if (state.matches('purchasing'))
      expect(network.calls.at(-1)?.request.url).toMatch(
        new RegExp(`/credit-packs/${context.buying}/purchase$`),
      );
    // The code as typed, trimmed; the gift voucher as its fields say it, as the contract takes it.
    if (state.matches('redeeming'))
      expect(network.calls.at(-1)).toMatchObject({
        operationId: 'redeemGiftVoucher',
        body: { code: context.code.trim() },
      });
    if (state.matches('buyingGift'))
      expect(network.calls.at(-1)).toMatchObject({
        operationId: 'buyGiftVoucher',
        body: giftVoucherOf(context.gift),
      });
    if (state.matches('loading') && context.wallet === null) {
      panel.getByText('A carregar a carteira…');
      return;
    }
    if (state.matches('failed')) {
      expect(panel.getByRole('alert').textContent).toBe(feedbackText(context.error!));
      panel.getByRole('button', { name: 'Tentar novamente' });
      return;
    }
    const wallet = context.wallet!;
    // Every refusal on screen: a purchase's above the wallet, a code's beside it, each gift voucher's field's
    // problem beside the field (once left, or all once bought), the gift voucher's purchase's under its form.
    const problems = shownGiftProblems(context);
    expect(
      panel
        .queryAllByRole('alert')
        .map((alert) => alert.textContent)
        .sort(),
    ).toEqual(
      [
        ...(context.error ? [feedbackText(context.error)] : []),
        ...(context.redeemError ? [feedbackText(context.redeemError)] : []),
        ...Object.entries(problems).map(([name, problem]) => PROBLEM_TEXTS[name as GiftField][problem]!),
        ...(context.giftError ? [feedbackText(context.giftError)] : []),
      ].sort(),
    );
    // A field with a problem is marked invalid; its value is the machine's.
    for (const name of Object.keys(GIFT_LABELS) as GiftField[]) {
      const input = field(GIFT_LABELS[name]);
      expect(input.value).toBe(context.gift[name]);
      expect(input.getAttribute('aria-invalid') === 'true', `${name} is invalid`).toBe(name in problems);
    }
    // "Usar um vale": the code, and once redeemed, what it added and until when.
    expect(field('Código do vale').value).toBe(context.code);
    const redeemed = panel.queryByText(/^O vale de .* está na sua carteira/);
    if (context.redeemed)
      expect(redeemed?.textContent?.replace(/\s+/g, ' ')).toBe(
        'O vale de 40 € está na sua carteira até 30 de outubro de 2027.',
      );
    else expect(redeemed).toBeNull();
    expect(panel.getByRole<HTMLButtonElement>('button', { name: 'Usar o vale' }).dataset.loading).toBe(
      state.matches('redeeming') ? 'true' : undefined,
    );
    expect(panel.getByRole<HTMLButtonElement>('button', { name: 'Oferecer o vale' }).dataset.loading).toBe(
      state.matches('buyingGift') ? 'true' : undefined,
    );
    // The message's counter.
    panel.getByText(`${context.gift.message.length} de 500 caracteres`);
    // The gift vouchers bought: recipient, amount, e-mail, where each stands, its code and expiry once sent.
    const given = panel.queryByRole('list', { name: 'Vales oferecidos' });
    if (context.vouchers.length === 0) {
      expect(given).toBeNull();
      panel.getByText('Ainda não ofereceu nenhum vale.');
    } else
      expect(
        within(given!)
          .getAllByRole('listitem')
          .map((item) => text(item)),
      ).toEqual([
        'Rita Lopes30 €rita@example.compor pagar',
        'Ana Sousa25,50 €ana@example.comenviado, por usarCódigo: GIFT-7K2M-9QXA, válido até 1 de novembro de 2027',
        'Bruno Reis50 €bruno@example.comusado',
        'Carla Dias20 €carla@example.comexpiradoExpirou a 5 de janeiro de 2026',
      ]);
    // The lots: what is left of each, until when, where and when it may be spent.
    const lots = panel.queryByRole('list', { name: 'Créditos' });
    if (wallet.lots.length === 0) {
      expect(lots).toBeNull();
      panel.getByText('Ainda não tem crédito. Compre um pacote e pague as suas reservas com ele.');
    } else {
      const items = within(lots!).getAllByRole('listitem');
      expect(items).toHaveLength(2);
      expect(text(items[0]!)).toBe(
        'Dez horasdisponívelResta 2,5 horas de 10 horasVálido até 1 de maio de 2027Em todos os espaços, todos os dias, a qualquer hora.',
      );
      expect(text(items[1]!)).toBe(
        'ManhãsexpiradoResta 0 € de 50 €Expirou a 11 de janeiro de 2026Em Avenidas Novas e Campo de Ourique, de segunda-feira a sexta-feira e domingo, das 07:00 às 12:00.',
      );
    }
    // The history, newest first: each movement's kind, lot, booking, and what it added or took.
    const movements = panel.queryByRole('list', { name: 'Movimentos' });
    if (wallet.movements.length === 0) {
      expect(movements).toBeNull();
      panel.getByText('Ainda não há movimentos.');
    } else
      expect(
        within(movements!)
          .getAllByRole('listitem')
          .map((item) => text(item).replace(/^.*?\d{2}:\d{2}/, '')),
      ).toEqual([
        'Devolvido: a reserva não foi paga a tempo · Dez horas · #42+1 hora (20 €)',
        'Devolvido por um cancelamento · Dez horas · #41+0,5 horas (10 €)',
        'Gasto numa reserva · Dez horas · #41−9 horas (180 €)',
        'Comprado · Dez horas+10 horas (90 €)',
        'Expirado · Manhãs−50 €',
      ]);
    // The packs on sale, each with its price, credit, validity and scope, and its "Comprar".
    const packs = panel.queryByRole('list', { name: 'Pacotes à venda' });
    if (context.packs.length === 0) {
      expect(packs).toBeNull();
      panel.getByText('De momento não há pacotes à venda.');
      return;
    }
    const offers = within(packs!).getAllByRole('listitem');
    expect(offers.map((offer) => text(offer))).toEqual([
      `${TEN_HOURS.name}90 €10 horas, válido 180 dias após a compraEm todos os espaços, todos os dias, a qualquer hora.Comprar`,
      `${MORNINGS.name}45 €50 €, válido 1 dia após a compraEm Avenidas Novas e Campo de Ourique, de segunda-feira a sexta-feira e domingo, das 07:00 às 12:00.Comprar`,
    ]);
    for (const pack of context.packs) {
      const buy = panel.getByRole<HTMLButtonElement>('button', { name: `Comprar ${pack.name}` });
      expect(buy.disabled).toBe(!state.can({ type: 'pack.buy', packId: pack.id }));
      expect(buy.dataset.loading).toBe(
        state.matches('purchasing') && context.buying === pack.id ? 'true' : undefined,
      );
    }
  },
};

const flow = recorder(walletMachine);
afterAll(() => flow.assertCovered());

describe('the wallet, driven by its model through the account modal', () => {
  for (const path of paths) {
    it(`follows ${path.description}`, async () => {
      // The packs on sale and the vouchers bought are asked for with the wallet: each read's, in the path's order.
      const reads = path.steps
        .filter((step) => /^xstate\.(done|error)\.actor\.loadWallet$/.test(step.event.type as string))
        .map((step) => (step.event as unknown as { output?: WalletView }).output ?? FULL);
      const vouchers = reads.map((read) => read.vouchers);
      const network = createNetwork({
        validateToken: () => ({ status: 200, body: { valid: true } }),
        getMe: () => ({ status: 200, body: MEMBER }),
        listBranches: () => ({ status: 200, body: [] }),
        listCreditPacks: () => ({ status: 200, body: reads.shift()?.packs ?? FULL.packs }),
        listMyGiftVouchers: () => ({ status: 200, body: vouchers.shift() ?? FULL.vouchers }),
      });
      flow.startPath();
      const app = await renderApp(() => <AccountModal hidden={false} />, {
        search: 'account_tab=wallet',
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

describe('a recipient’s link to the wallet', () => {
  it('prefills the voucher’s code, which is redeemed into the wallet, read again', async () => {
    const network = createNetwork({
      validateToken: () => ({ status: 200, body: { valid: true } }),
      getMe: () => ({ status: 200, body: MEMBER }),
      listBranches: () => ({ status: 200, body: [] }),
      listCreditPacks: () => ({ status: 200, body: FULL.packs }),
      listMyGiftVouchers: () => ({ status: 200, body: [] }),
    });
    const app = await renderApp(() => <AccountModal hidden={false} />, {
      search: 'account_tab=wallet&voucher=GIFT-7K2M-9QXA',
      network,
      inspect: () => {},
      token: 'member-token',
    });
    try {
      await act(async () => {
        await network.answer(['getWallet'], { status: 200, body: FULL.wallet });
      });
      const code = await screen.findByLabelText<HTMLInputElement>('Código do vale', { exact: false });
      expect(code.value).toBe('GIFT-7K2M-9QXA');
      await act(async () => press(within(tab()).getByRole('button', { name: 'Usar o vale' })));
      const redeem = await act(() => network.answer(['redeemGiftVoucher'], { status: 201, body: REDEEMED }));
      expect(redeem.body).toEqual({ code: 'GIFT-7K2M-9QXA' });
      await act(async () => {
        await network.answer(['getWallet'], { status: 200, body: FULL.wallet });
      });
      await within(tab()).findByText('O vale de 40 € está na sua carteira até 30 de outubro de 2027.', {
        normalizer: (value) => value.replace(/\s+/g, ' '),
      });
      expect(code.value).toBe('');
      expect(network.calls.filter((call) => call.operationId === 'getWallet')).toHaveLength(2);
    } finally {
      app.runtime.session.stop();
      app.runtime.startup.stop();
    }
  });

  it('says beside the code why it was refused, in the server’s words', async () => {
    const network = createNetwork({
      validateToken: () => ({ status: 200, body: { valid: true } }),
      getMe: () => ({ status: 200, body: MEMBER }),
      listBranches: () => ({ status: 200, body: [] }),
      listCreditPacks: () => ({ status: 200, body: [] }),
      listMyGiftVouchers: () => ({ status: 200, body: [] }),
      getWallet: () => ({ status: 200, body: EMPTY.wallet }),
    });
    const app = await renderApp(() => <AccountModal hidden={false} />, {
      search: 'account_tab=wallet',
      network,
      inspect: () => {},
      token: 'member-token',
    });
    try {
      const code = await screen.findByLabelText<HTMLInputElement>('Código do vale', { exact: false });
      expect(code.value).toBe('');
      fireEvent.change(code, { target: { value: 'GIFT-NOPE' } });
      await act(async () => press(within(tab()).getByRole('button', { name: 'Usar o vale' })));
      await act(async () => {
        await network.answer(
          ['redeemGiftVoucher'],
          errorAnswer(new ApiError('voucher_expired', 'Este vale já expirou.')),
        );
      });
      const alert = await within(tab()).findByRole('alert');
      expect(alert.textContent).toBe('Este vale já expirou.');
      expect(code.getAttribute('aria-invalid')).toBe('true');
      expect(code.getAttribute('aria-describedby')).toContain(alert.id);
      expect(code.value).toBe('GIFT-NOPE');
    } finally {
      app.runtime.session.stop();
      app.runtime.startup.stop();
    }
  });
});
