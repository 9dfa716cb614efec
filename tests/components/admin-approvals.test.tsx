// @vitest-environment jsdom
import './support/mocks.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema.gen.ts';
import { consoleNetwork, labelled, OWNER, renderConsole, type Console } from './support/console.tsx';
import { press } from './support/model.ts';
import type { Call } from './support/network.ts';

// Issue 32, item 2: the Approvals page (`/pt/admin/approvals`, src/admin/pages/Approvals.tsx) through the real
// console. An owner reads the refunds waiting (and the count beside Aprovações in the navigation), refuses one
// with a reason, is told when an approval finds the booking cancelled meanwhile, and sets the staff ceiling; a
// staff member reads their own requests and the ceiling, without an owner's buttons. Every request is answered at
// the network with a body the contract allows.

type Approval = components['schemas']['RefundApproval'];
type ApprovalList = components['schemas']['RefundApprovalList'];

const STAFF = { ...OWNER, id: 2, email: 'staff@gym.example', role: 'staff' as const };

const pendingApproval = (id: number, bookingId: number): Approval => ({
  id,
  status: 'pending',
  booking: {
    id: bookingId,
    status: 'confirmed',
    branch: { id: 1, name: 'Centro', time_zone: 'Europe/Lisbon' },
    start_time: '2026-12-01T10:00:00+00:00',
    end_time: '2026-12-01T11:00:00+00:00',
    member_email: 'rita@example.pt',
  },
  refund_mode: 'full',
  refund_eur: 45,
  reason: 'Ar condicionado avariado',
  requested_at: '2026-11-26T12:00:00+00:00',
  requested_by: STAFF.email,
  decided_at: null,
  decided_by: null,
  decision_reason: null,
  refunded_eur: null,
});

let rendered: Console | null = null;
afterEach(() => rendered?.stop());

/** The page as `operator`, the server's list being `list` (changed by the test as the server would change it). */
async function renderApprovals(list: ApprovalList, auto: Parameters<typeof consoleNetwork>[0] = {}) {
  const network = consoleNetwork({
    listRefundApprovals: () => ({ status: 200, body: list }),
    ...auto,
  });
  rendered = await renderConsole('/pt/admin/approvals', { network, inspect: () => {} });
  await screen.findByRole('heading', { name: 'Aprovações', level: 2 }, { timeout: 10_000 });
  return network;
}

const card = (bookingId: number) => screen.getByRole('article', { name: `Reserva #${bookingId}` });
const listCalls = (calls: Call[]) => calls.filter((call) => call.operationId === 'listRefundApprovals');

describe('the Approvals page', () => {
  it('lets an owner refuse a refund with a reason, then shows it decided and the navigation’s count gone', async () => {
    const list: ApprovalList = {
      staff_refund_ceiling_eur: 30,
      pending: [pendingApproval(7, 41)],
      decided: [],
    };
    const network = await renderApprovals(list, { refuseRefund: () => undefined });
    await screen.findByRole('article', { name: 'Reserva #41' });
    const navigation = screen.getByRole('navigation', { name: 'Secções da consola' });
    await waitFor(() =>
      expect(within(navigation).getByRole('link', { name: /^Aprovações/ }).textContent).toBe(
        'Aprovações1à espera',
      ),
    );
    expect(card(41).textContent).toContain('Reembolso pedido: 45');
    expect(card(41).textContent).toContain('Ar condicionado avariado');
    press(within(card(41)).getByRole('button', { name: 'Recusar…' }));
    const dialog = screen.getByRole('dialog', { name: 'Recusar o pedido #7' });
    const refuse = within(dialog).getByRole('button', { name: 'Recusar' });
    // A refusal says why.
    expect(refuse).toHaveProperty('disabled', true);
    fireEvent.change(labelled('Motivo', dialog), { target: { value: '  O cliente já foi compensado  ' } });
    press(refuse);
    const decided: Approval = {
      ...list.pending[0]!,
      status: 'refused',
      decided_at: '2026-11-26T13:00:00+00:00',
      decided_by: OWNER.email,
      decision_reason: 'O cliente já foi compensado',
    };
    const call = await network.answer(['refuseRefund'], () => {
      list.pending = [];
      list.decided = [decided];
      return { status: 200, body: decided };
    });
    expect(new URL(call.request.url).pathname).toBe('/api/admin/refund-approvals/7/refuse');
    expect(call.body).toEqual({ reason: 'O cliente já foi compensado' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await screen.findByText('Nenhum pedido à espera.');
    const region = screen.getByRole('region', { name: 'Decididos' });
    expect(within(region).getByRole('article', { name: 'Reserva #41' }).textContent).toContain(
      'O cliente já foi compensado',
    );
    await waitFor(() =>
      expect(within(navigation).getByRole('link', { name: /^Aprovações/ }).textContent).toBe('Aprovações'),
    );
  });

  it('says so when an approval finds the booking cancelled meanwhile, and shows the request closed', async () => {
    const list: ApprovalList = {
      staff_refund_ceiling_eur: 30,
      pending: [pendingApproval(8, 42)],
      decided: [],
    };
    const network = await renderApprovals(list, { approveRefund: () => undefined });
    await screen.findByRole('article', { name: 'Reserva #42' });
    press(within(card(42)).getByRole('button', { name: 'Aprovar…' }));
    const dialog = screen.getByRole('dialog', { name: 'Aprovar o pedido #8' });
    expect(dialog.textContent).toContain('A reserva #42 é cancelada com um reembolso de 45');
    press(within(dialog).getByRole('button', { name: 'Aprovar e cancelar a reserva' }));
    const before = listCalls(network.calls).length;
    await network.answer(['approveRefund'], () => {
      list.pending = [];
      list.decided = [
        {
          ...pendingApproval(8, 42),
          status: 'closed',
          booking: { ...pendingApproval(8, 42).booking, status: 'canceled' },
          decided_at: '2026-11-26T13:00:00+00:00',
          decided_by: OWNER.email,
        },
      ];
      return {
        status: 409,
        body: {
          code: 'refund_approval_closed',
          detail:
            'A reserva já foi cancelada ou já terminou: o pedido foi fechado e nada foi reembolsado por ele.',
        },
      };
    });
    await waitFor(() =>
      expect(within(dialog).getByRole('alert').textContent).toContain('o pedido foi fechado'),
    );
    press(within(dialog).getByRole('button', { name: 'Voltar' }));
    await waitFor(() => expect(listCalls(network.calls).length).toBeGreaterThan(before));
    const region = screen.getByRole('region', { name: 'Decididos' });
    await waitFor(() =>
      expect(within(region).getByRole('article', { name: 'Reserva #42' }).textContent).toContain('fechado'),
    );
  });

  it('lets an owner set the staff ceiling, refusing what is not an amount', async () => {
    const network = await renderApprovals(
      { staff_refund_ceiling_eur: 30, pending: [], decided: [] },
      { setStaffRefundCeiling: () => undefined },
    );
    const ceiling = await screen.findByLabelText('Limite de reembolso da equipa (€)');
    expect(ceiling).toHaveProperty('value', '30');
    fireEvent.change(ceiling, { target: { value: 'trinta' } });
    expect(screen.getByText('Escreva um valor em euros, por exemplo 30.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Guardar o limite' })).toHaveProperty('disabled', true);
    fireEvent.change(ceiling, { target: { value: '42,50' } });
    press(screen.getByRole('button', { name: 'Guardar o limite' }));
    const call = await network.answer(['setStaffRefundCeiling'], {
      status: 200,
      body: { staff_refund_ceiling_eur: 42.5 },
    });
    expect(call.body).toEqual({ staff_refund_ceiling_eur: 42.5 });
    await screen.findByText('Guardado.');
  });

  it('shows a staff member their own requests and the ceiling, without an owner’s buttons or count', async () => {
    await renderApprovals(
      { staff_refund_ceiling_eur: 30, pending: [pendingApproval(9, 43)], decided: [] },
      { getOperatorMe: () => ({ status: 200, body: STAFF }) },
    );
    await screen.findByRole('article', { name: 'Reserva #43' });
    expect(screen.getByText(/^Um reembolso acima de 30/)).toBeTruthy();
    expect(screen.queryByLabelText('Limite de reembolso da equipa (€)')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Aprovar…' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Recusar…' })).toBeNull();
    const navigation = screen.getByRole('navigation', { name: 'Secções da consola' });
    expect(within(navigation).getByRole('link', { name: /^Aprovações/ }).textContent).toBe('Aprovações');
  });
});
