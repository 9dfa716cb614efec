// @vitest-environment jsdom
import './support/mocks.ts';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema.gen.ts';
import { adminBranch, consoleNetwork, renderConsole, type Console } from './support/console.tsx';

// The audit log (`/pt/admin/audit`, src/admin/pages/Audit.tsx) through the real console (issue 32, item 6): each
// entry a sentence in the console's language with the branch's name, a price grid's change as the bands it moved,
// the reason, and the action's code with the raw before and after one click away. Answers are the contract's.

type Entry = components['schemas']['AuditEntry'];

/** Intl's space between an amount and its currency. */
const NBSP = '\u00a0';

const base = {
  at: '2026-05-04T09:30:00Z',
  operator_id: 2,
  operator_email: 'ana@gym.example',
  entity_label: null,
  reason: null,
} satisfies Partial<Entry>;

const PRICES: Entry = {
  ...base,
  id: 3,
  action: 'branch.prices',
  entity_type: 'branch',
  entity_id: '2',
  before: {
    from: '2026-05-05',
    default_price_cents: 1500,
    bands: [
      { weekday: 1, from: '00:00', to: '07:00', price_cents: 900 },
      { weekday: 6, from: '08:00', to: '12:00', price_cents: 2000 },
    ],
  },
  after: {
    from: '2026-05-05',
    default_price_cents: 1800,
    bands: [
      { weekday: 1, from: '00:00', to: '07:00', price_cents: 600 },
      { weekday: 2, from: '00:00', to: '07:00', price_cents: 600 },
    ],
  },
};

const CANCEL: Entry = {
  ...base,
  id: 2,
  action: 'booking.cancel',
  entity_type: 'booking',
  entity_id: '41',
  reason: 'Avaria no ar condicionado',
  before: { status: 'confirmed' },
  after: { status: 'canceled', refund_mode: 'amount', refunded_eur: 12.5 },
};

const COUPON_BY_CLI: Entry = {
  ...base,
  id: 1,
  operator_id: null,
  operator_email: null,
  action: 'coupon.update',
  entity_type: 'coupon',
  entity_id: 'VERAO',
  before: { code: 'VERAO', discount: 0.1, active: true, max_uses: null },
  after: { code: 'VERAO', discount: 0.2, active: false, max_uses: null },
};

const UNKNOWN: Entry = {
  ...base,
  id: 4,
  action: 'lamp.dim',
  entity_type: 'lamp',
  entity_id: '7',
  before: null,
  after: null,
};

const BLOCK: Entry = {
  ...base,
  id: 5,
  action: 'member.block',
  entity_type: 'member',
  entity_id: '8408ce5e-226c-4b23-a67f-4380c0f28cea',
  entity_label: 'rui@example.com',
  reason: 'Danos no equipamento',
  before: { blocked: false },
  after: { blocked: true, blocks_added: 1, canceled_booking_ids: [] },
};

let rendered: Console | null = null;
afterEach(() => rendered?.stop());

async function renderAudit(items: Entry[]) {
  const network = consoleNetwork({
    listAdminBranches: () => ({ status: 200, body: [adminBranch(1, 'Centro'), adminBranch(2, 'Porto')] }),
    listAuditLog: () => ({ status: 200, body: { items, total: items.length, page: 1, page_size: 50 } }),
  });
  rendered = await renderConsole('/pt/admin/audit', { network, inspect: () => {} });
  await screen.findByRole('heading', { name: 'Registo de auditoria', level: 2 }, { timeout: 10_000 });
  return screen.findByRole('table', { name: 'Registo de auditoria' });
}

/** The visible lines of the entry whose sentence is `sentence` (its raw data folded away). */
async function linesOf(sentence: string): Promise<string[]> {
  const heading = await screen.findByText(sentence);
  const stack = heading.parentElement!;
  return [...stack.children]
    .filter((child) => child.tagName !== 'DETAILS')
    .map((child) => child.textContent ?? '');
}

describe('the audit log in words', () => {
  it("says a price grid's change band by band, at the branch it named, from its date", async () => {
    await renderAudit([PRICES]);
    expect(await linesOf('ana@gym.example mudou os preços de Porto a partir de 2026-05-05')).toEqual([
      'ana@gym.example mudou os preços de Porto a partir de 2026-05-05',
      `segunda-feira 00:00–07:00: de 9${NBSP}€ para 6${NBSP}€`,
      `terça-feira 00:00–07:00: novo, 6${NBSP}€`,
      `sábado 08:00–12:00: retirado (era 20${NBSP}€)`,
      `Restantes horas: de 15${NBSP}€ para 18${NBSP}€`,
    ]);
  });

  it('says a cancellation with its refund and reason, and who changed a coupon from the command line', async () => {
    await renderAudit([CANCEL, COUPON_BY_CLI]);
    expect(await linesOf('ana@gym.example cancelou a reserva #41')).toEqual([
      'ana@gym.example cancelou a reserva #41',
      `Reembolso: 12,50${NBSP}€`,
      'Motivo: Avaria no ar condicionado',
    ]);
    expect(await linesOf('A linha de comandos alterou o cupão VERAO')).toEqual([
      'A linha de comandos alterou o cupão VERAO',
      'desconto: 0.1 → 0.2',
      'ativo: sim → não',
    ]);
  });

  it('names a member by their e-mail, and by their id once the account holds none', async () => {
    await renderAudit([
      BLOCK,
      { ...BLOCK, id: 6, action: 'member.export', entity_label: null, reason: null },
    ]);
    expect(await linesOf('ana@gym.example bloqueou o cliente rui@example.com')).toEqual([
      'ana@gym.example bloqueou o cliente rui@example.com',
      'Motivo: Danos no equipamento',
    ]);
    expect(
      await linesOf('ana@gym.example exportou os dados do cliente 8408ce5e-226c-4b23-a67f-4380c0f28cea'),
    ).toHaveLength(1);
  });

  it('says an action it does not know by its code, and keeps the raw data one click away', async () => {
    const table = await renderAudit([UNKNOWN, CANCEL]);
    expect(await linesOf('ana@gym.example: lamp.dim (lamp 7)')).toEqual([
      'ana@gym.example: lamp.dim (lamp 7)',
    ]);
    const row = within(table).getByRole('row', { name: /cancelou a reserva #41/ });
    const raw = row.querySelector('details')!;
    expect(raw.open).toBe(false);
    fireEvent.click(within(row).getByText('Dados registados'));
    expect(raw.open).toBe(true);
    expect(raw.textContent).toContain('booking.cancel · booking 41');
    expect(raw.textContent).toContain(
      '{"status":"confirmed"} → {"status":"canceled","refund_mode":"amount","refunded_eur":12.5}',
    );
  });
});
