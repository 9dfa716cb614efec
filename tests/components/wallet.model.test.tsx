// @vitest-environment jsdom
import './support/mocks.ts';
import { stripe } from './support/stripe.ts';
import { screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import { walletMachine, type WalletView } from '../../machines/wallet.machine.ts';
import { covering, generatePaths, withoutPrefixes } from '../machines/model/paths.ts';
import { EMPTY, FULL, MORNINGS, TEN_HOURS } from '../machines/wallet-fixtures.ts';
import { renderApp, type App } from './support/app.tsx';
import { feedbackText } from './support/feedback.ts';
import { drivePath, press, recorder, type Driver } from './support/model.ts';
import { MEMBER } from './support/member.ts';
import { createNetwork, errorAnswer, type Network } from './support/network.ts';

const { default: AccountModal } = await import('../../src/account/AccountModal.tsx');

// The wallet's machine (machines/wallet.machine.ts, issue 31) driven through the real account modal's wallet tab
// (src/account/Wallet.tsx, with the embedded checkout of a pack): paths generated from the machine, each user event
// a click, each call answered at the network with a body the contract allows, `payment.failed` Stripe.js failing
// to load. The wallet and the packs on sale are two calls of one read: the packs are answered as the path's read
// says when they are asked for, the wallet when the path answers.

type Event = EventFrom<typeof walletMachine>;
type Snapshot = SnapshotFrom<typeof walletMachine>;

const answer = (type: string, rest: object) => ({ type, ...rest }) as unknown as Event;

function events(state: Snapshot): Event[] {
  const { context } = state;
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
  if (state.matches({ checkout: 'open' })) return [{ type: 'payment.failed' }, { type: 'checkout.close' }];
  if (state.matches({ checkout: 'failed' })) return [{ type: 'checkout.close' }];
  // Ready: a pack on sale is bought (once the error of a former purchase is said, the graph stays finite).
  return context.packs.length > 0 && context.error === null
    ? [{ type: 'pack.buy', packId: context.packs[0]!.id }]
    : [];
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
      ]),
  }),
);
const paths = await covering(walletMachine, generated, { scripted: ['loadWallet', 'purchasePack'] });

type World = { network: Network; app: App };

const tab = () => screen.getByRole('tabpanel', { name: 'Carteira' });
const checkoutDialog = () => screen.queryByRole('dialog', { name: 'Pagamento' });
const text = (element: Element) => (element.textContent ?? '').replace(/\s+/g, ' ');

const driver: Driver<typeof walletMachine, World> = {
  answer(event) {
    const error = event.error as ApiError | undefined;
    if (event.type.endsWith('loadWallet'))
      return {
        operations: ['getWallet'],
        answer: error ? errorAnswer(error) : { status: 200, body: (event.output as WalletView).wallet },
      };
    return {
      operations: ['purchaseCreditPack'],
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
  },
  check(state, { network }) {
    const { context } = state;
    const panel = within(tab());
    expect(checkoutDialog() !== null, 'the checkout is open exactly while paying for a pack').toBe(
      state.matches('checkout'),
    );
    if (state.matches({ checkout: 'failed' }))
      within(checkoutDialog()!).getByText('O fornecedor de pagamentos não conseguiu iniciar.');
    if (state.matches('purchasing'))
      expect(network.calls.at(-1)?.request.url).toMatch(
        new RegExp(`/credit-packs/${context.buying}/purchase$`),
      );
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
    // What a purchase that failed says, above the wallet.
    expect(panel.queryByRole('alert')?.textContent ?? null).toBe(
      context.error ? feedbackText(context.error) : null,
    );
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
      // The packs on sale are asked for with the wallet: each read's packs, in the path's order.
      const reads = path.steps
        .filter((step) => /^xstate\.(done|error)\.actor\.loadWallet$/.test(step.event.type as string))
        .map((step) => (step.event as unknown as { output?: WalletView }).output?.packs ?? FULL.packs);
      const network = createNetwork({
        validateToken: () => ({ status: 200, body: { valid: true } }),
        getMe: () => ({ status: 200, body: MEMBER }),
        listBranches: () => ({ status: 200, body: [] }),
        listCreditPacks: () => ({ status: 200, body: reads.shift() ?? FULL.packs }),
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
