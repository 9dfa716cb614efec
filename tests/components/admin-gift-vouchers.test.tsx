// @vitest-environment jsdom
import './support/mocks.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema.gen.ts';
import { consoleNetwork, labelled, OWNER, renderConsole, type Console } from './support/console.tsx';
import { press } from './support/model.ts';
import type { Call } from './support/network.ts';

// The owner's gift vouchers page (`/pt/admin/gift-vouchers`, src/admin/pages/GiftVouchers.tsx) through the real
// console: the list as the operator reads it with what is still to be used, the status filter in the request and
// in the address (and read back from it), staff refused, a failed load said with a retry. Every request is
// answered at the network with a body the contract allows.

/** Intl's space between an amount and its currency. */
const NBSP = '\u00a0';

type Voucher = components['schemas']['AdminGiftVoucher'];

/** Far ahead, so an issued voucher is outstanding whenever the test runs. */
const FAR = '2099-03-01T10:00:00Z';

const ISSUED: Voucher = {
  id: 3,
  code: 'GIFT-AB12-CD34',
  amount_eur: 50,
  buyer_email: 'ana@example.com',
  recipient_name: 'Rui Costa',
  recipient_email: 'rui@example.com',
  status: 'issued',
  created_at: '2026-05-01T09:00:00Z',
  issued_at: '2026-05-01T09:05:00Z',
  expires_at: FAR,
  redeemed_at: null,
  redeemed_by_email: null,
};
const SECOND_ISSUED: Voucher = {
  ...ISSUED,
  id: 4,
  code: 'GIFT-EF56-GH78',
  amount_eur: 25.5,
  buyer_email: null,
  recipient_name: 'Marta Sousa',
  recipient_email: 'marta@example.com',
};
const REDEEMED: Voucher = {
  ...ISSUED,
  id: 2,
  code: 'GIFT-JK90-LM12',
  amount_eur: 30,
  status: 'redeemed',
  recipient_name: 'Pedro Lima',
  recipient_email: 'pedro@example.com',
  redeemed_at: '2026-04-10T18:30:00Z',
  redeemed_by_email: 'pedro.lima@example.com',
};
const UNPAID: Voucher = {
  ...ISSUED,
  id: 1,
  code: null,
  amount_eur: 100,
  status: 'unpaid',
  recipient_name: 'Joana Reis',
  recipient_email: 'joana@example.com',
  issued_at: null,
  expires_at: null,
};

let rendered: Console | null = null;
afterEach(() => rendered?.stop());

/** The console at `path` with `list` answering the vouchers' list (every voucher unless said). */
async function renderVouchers(
  path = '/pt/admin/gift-vouchers',
  list: (call: Call) => { status: number; body: unknown } | undefined = () => ({
    status: 200,
    body: [ISSUED, SECOND_ISSUED, REDEEMED, UNPAID],
  }),
) {
  const network = consoleNetwork({ listAdminGiftVouchers: list });
  rendered = await renderConsole(path, { network, inspect: () => {} });
  await screen.findByRole('heading', { name: 'Vales de oferta', level: 2 }, { timeout: 10_000 });
  return network;
}

const listCalls = (calls: Call[]) => calls.filter((call) => call.operationId === 'listAdminGiftVouchers');
/** The status each list request asked for (null: all of them). */
const statusesAsked = (calls: Call[]) =>
  listCalls(calls).map((call) => new URL(call.request.url).searchParams.get('status'));
const cellsOf = (code: string) =>
  within(screen.getByRole('row', { name: new RegExp(`^${code}`) }))
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
/** The console's date format (`useTimes().instant`), as the page writes it. */
const instant = (iso: string) =>
  new Date(iso).toLocaleString('pt', { dateStyle: 'short', timeStyle: 'short' });

describe('the gift vouchers page', () => {
  it('lists each voucher: code, amount, buyer, recipient, status, dates, who used it, and what is still to use', async () => {
    await renderVouchers();
    await screen.findByRole('row', { name: /^GIFT-AB12-CD34/ });
    const table = screen.getByRole('table', { name: 'Vales de oferta' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Código', 'Valor', 'Comprador', 'Destinatário', 'Estado', 'Emitido', 'Expira', 'Usado']);
    expect(cellsOf('GIFT-AB12-CD34')).toEqual([
      'GIFT-AB12-CD34',
      `50${NBSP}€`,
      'ana@example.com',
      'Rui Costarui@example.com',
      'por usar',
      instant(ISSUED.issued_at!),
      instant(FAR),
      '—',
    ]);
    // The buyer's account erased: said so.
    expect(cellsOf('GIFT-EF56-GH78')[2]).toBe('conta eliminada');
    expect(cellsOf('GIFT-JK90-LM12')).toEqual([
      'GIFT-JK90-LM12',
      `30${NBSP}€`,
      'ana@example.com',
      'Pedro Limapedro@example.com',
      'usado',
      instant(ISSUED.issued_at!),
      instant(FAR),
      `${instant(REDEEMED.redeemed_at!)}por pedro.lima@example.com`,
    ]);
    // Not paid yet: no code, no dates.
    expect(cellsOf('—')).toEqual([
      '—',
      `100${NBSP}€`,
      'ana@example.com',
      'Joana Reisjoana@example.com',
      'por pagar',
      '—',
      '—',
      '—',
    ]);
    // Outstanding: the two issued ones, neither redeemed nor expired.
    expect(screen.getByText(/^4 vales/).textContent).toBe(`4 vales · 2 por usar, no valor de 75,50${NBSP}€`);
    expect(screen.getByRole('link', { name: 'Vales' }).getAttribute('aria-current')).toBe('page');
  });

  it('counts an expired voucher as shown but not as still to use', async () => {
    const lapsed: Voucher = { ...ISSUED, status: 'expired', expires_at: '2026-06-01T00:00:00Z' };
    await renderVouchers('/pt/admin/gift-vouchers', () => ({ status: 200, body: [lapsed] }));
    await screen.findByRole('row', { name: /^GIFT-AB12-CD34/ });
    expect(cellsOf('GIFT-AB12-CD34')[4]).toBe('expirado');
    expect(screen.getByText(/^1 vale/).textContent).toBe('1 vale · nenhum por usar');
  });

  it('asks for the chosen status and keeps it in the address; all of them again leaves the address bare', async () => {
    const network = await renderVouchers();
    await screen.findByRole('row', { name: /^GIFT-AB12-CD34/ });
    const filter = labelled('Estado');
    expect([...(filter as unknown as HTMLSelectElement).options].map((option) => option.textContent)).toEqual(
      ['Todos', 'Por usar', 'A expirar em 30 dias', 'Usados', 'Expirados', 'Por pagar'],
    );
    fireEvent.change(filter, { target: { value: 'expiring' } });
    await waitFor(() => expect(statusesAsked(network.calls)).toEqual([null, 'expiring']));
    await waitFor(() => expect(rendered!.location()).toBe('/pt/admin/gift-vouchers?status=expiring'));
    fireEvent.change(filter, { target: { value: 'unpaid' } });
    await waitFor(() => expect(rendered!.location()).toBe('/pt/admin/gift-vouchers?status=unpaid'));
    fireEvent.change(filter, { target: { value: '' } });
    await waitFor(() => expect(rendered!.location()).toBe('/pt/admin/gift-vouchers'));
    await waitFor(() => expect(statusesAsked(network.calls)).toEqual([null, 'expiring', 'unpaid', null]));
  });

  it('opens with the status of the address, and drops one it does not know', async () => {
    const network = await renderVouchers('/pt/admin/gift-vouchers?status=redeemed', () => ({
      status: 200,
      body: [REDEEMED],
    }));
    await screen.findByRole('row', { name: /^GIFT-JK90-LM12/ });
    expect(labelled('Estado').value).toBe('redeemed');
    expect(statusesAsked(network.calls)).toEqual(['redeemed']);
    rendered?.stop();
    const again = await renderVouchers('/pt/admin/gift-vouchers?status=lost');
    await screen.findByRole('row', { name: /^GIFT-AB12-CD34/ });
    expect(labelled('Estado').value).toBe('');
    expect(statusesAsked(again.calls)).toEqual([null]);
  });

  it('says so when no voucher matches', async () => {
    await renderVouchers('/pt/admin/gift-vouchers?status=expired', () => ({ status: 200, body: [] }));
    expect(await screen.findByText('Nenhum vale.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('refuses staff before the page asks for anything, and shows no link to it', async () => {
    const network = consoleNetwork({
      getOperatorMe: () => ({ status: 200, body: { ...OWNER, role: 'staff' } }),
      listAdminGiftVouchers: () => ({ status: 200, body: [] }),
    });
    rendered = await renderConsole('/pt/admin/gift-vouchers', { network, inspect: () => {} });
    expect((await screen.findByRole('alert', {}, { timeout: 10_000 })).textContent).toContain(
      'Esta página é só para responsáveis.',
    );
    expect(screen.queryByRole('link', { name: 'Vales' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Reservas' })).toBeTruthy();
    expect(listCalls(network.calls)).toEqual([]);
  });

  it('says the page is for owners when the server refuses the list', async () => {
    await renderVouchers('/pt/admin/gift-vouchers', () => ({
      status: 403,
      body: { code: 'operator_forbidden', detail: 'Só para responsáveis.' },
    }));
    expect((await screen.findByRole('alert')).textContent).toContain('Esta página é só para responsáveis.');
  });

  it('says a failed load went wrong, and loads again on Tentar novamente', async () => {
    let fail = true;
    const network = await renderVouchers('/pt/admin/gift-vouchers', () =>
      fail
        ? {
            status: 500,
            body: { code: 'internal_error', detail: 'Ocorreu um erro inesperado. Tente novamente.' },
          }
        : { status: 200, body: [ISSUED] },
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Ocorreu um erro inesperado. Tente novamente.',
    );
    expect(screen.queryByRole('table')).toBeNull();
    fail = false;
    press(screen.getByRole('button', { name: 'Tentar novamente' }));
    await screen.findByRole('row', { name: /^GIFT-AB12-CD34/ });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(listCalls(network.calls)).toHaveLength(2);
  });
});
