// @vitest-environment jsdom
import './support/mocks.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
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

const NEW_ACTIONS: Entry[] = [
  {
    ...base,
    id: 10,
    action: 'door.unlock',
    entity_type: 'door',
    entity_id: 'porta-da-rua',
    reason: 'Cliente à porta, o código não abre',
    before: null,
    after: {
      branch_id: 2,
      outcome: 'opened',
      error: null,
      request_id: 'b6c1f2de-0000-4000-8000-000000000001',
    },
  },
  {
    ...base,
    id: 11,
    action: 'door.unlock',
    entity_type: 'door',
    entity_id: 'porta-da-rua',
    reason: 'Entrega de material',
    before: null,
    after: {
      branch_id: 2,
      outcome: 'failed',
      error: 'timeout',
      request_id: 'b6c1f2de-0000-4000-8000-000000000002',
    },
  },
  {
    ...base,
    id: 12,
    action: 'broadcast.send',
    entity_type: 'broadcast',
    entity_id: '4',
    before: null,
    after: {
      branch_id: 1,
      starts_at: '2026-05-04T17:00:00Z',
      ends_at: '2026-05-04T22:00:00Z',
      channels: ['email', 'sms'],
      languages: ['pt', 'en'],
      recipients: 7,
    },
  },
  {
    ...base,
    id: 13,
    action: 'operator.set_branches',
    entity_type: 'operator',
    entity_id: '3',
    before: { branch_ids: null },
    after: { branch_ids: [1, 2] },
  },
  {
    ...base,
    id: 14,
    action: 'branch.date_price',
    entity_type: 'branch',
    entity_id: '2',
    before: { date: '2026-12-25', price: null },
    after: {
      date: '2026-12-25',
      price: { day_price_cents: 2500, bands: [{ from: '18:00', to: '22:00', price_cents: 3000 }] },
      grid_default_price_cents: 1500,
    },
  },
  {
    ...base,
    id: 15,
    action: 'branch.date_price_removed',
    entity_type: 'branch',
    entity_id: '2',
    before: { date: '2026-12-25', price: { day_price_cents: 2500, bands: [] } },
    after: { date: '2026-12-25', price: null, grid_default_price_cents: 1500 },
  },
  {
    ...base,
    id: 16,
    action: 'branch.on_call',
    entity_type: 'branch',
    entity_id: '1',
    before: { email: null, phone: null },
    after: { email: 'piquete@gym.example', phone: '+351912345678' },
  },
  {
    ...base,
    id: 17,
    action: 'member.note',
    entity_type: 'member',
    entity_id: '8408ce5e-226c-4b23-a67f-4380c0f28cea',
    entity_label: 'rui@example.com',
    before: null,
    after: { note_id: 9 },
  },
];

/** The actions the contract says the server records (AuditAction; server/kernel/audit.ts takes only these). */
const recordedActions = (
  parse(readFileSync(path.resolve(import.meta.dirname, '../../openapi/openapi.yaml'), 'utf8')) as {
    components: { schemas: { AuditAction: { enum: string[] } } };
  }
).components.schemas.AuditAction.enum;

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

  it('says a remote opening of a door, a broadcast, an operator limited to branches, a note and on-call contacts', async () => {
    await renderAudit(NEW_ACTIONS);
    expect(await linesOf('ana@gym.example abriu à distância a porta porta-da-rua de Porto')).toEqual([
      'ana@gym.example abriu à distância a porta porta-da-rua de Porto',
      'Motivo: Cliente à porta, o código não abre',
    ]);
    expect(await linesOf('ana@gym.example tentou abrir à distância a porta porta-da-rua de Porto')).toEqual([
      'ana@gym.example tentou abrir à distância a porta porta-da-rua de Porto',
      'A fechadura não confirmou a abertura: timeout',
      'Motivo: Entrega de material',
    ]);
    const broadcast = (await screen.findByText(/enviou uma mensagem a quem tem reserva em Centro entre/))
      .textContent;
    expect(await linesOf(broadcast)).toEqual([
      broadcast,
      'Destinatários: 7',
      'Por: e-mail, SMS',
      'Textos em: pt, en',
    ]);
    expect(await linesOf('ana@gym.example limitou o operador #3 a Centro, Porto')).toEqual([
      'ana@gym.example limitou o operador #3 a Centro, Porto',
      'Antes: todas as filiais',
    ]);
    expect(await linesOf('ana@gym.example escreveu uma nota sobre o cliente rui@example.com')).toHaveLength(
      1,
    );
    expect(await linesOf('ana@gym.example mudou os contactos de piquete de Centro')).toEqual([
      'ana@gym.example mudou os contactos de piquete de Centro',
      'e-mail: — → piquete@gym.example',
      'telefone: — → +351912345678',
    ]);
  });

  it("says a date's own price, set and removed, in the console's date order", async () => {
    await renderAudit(NEW_ACTIONS);
    expect(await linesOf('ana@gym.example deu a 25/12/2026 um preço próprio em Porto')).toEqual([
      'ana@gym.example deu a 25/12/2026 um preço próprio em Porto',
      `18:00–22:00: 30${NBSP}€`,
      `Restantes horas: 25${NBSP}€`,
    ]);
    expect(await linesOf('ana@gym.example devolveu 25/12/2026 ao preço da grelha em Porto')).toEqual([
      'ana@gym.example devolveu 25/12/2026 ao preço da grelha em Porto',
      `Antes: Todo o dia: 25${NBSP}€`,
    ]);
  });

  it('words every action the server records: none is said by its bare code', async () => {
    expect(recordedActions.length).toBeGreaterThan(30);
    const entries = recordedActions.map((action, index): Entry => ({
      ...base,
      id: 100 + index,
      action,
      entity_type: action.split('.')[0]!,
      entity_id: String(index + 1),
      before: null,
      after: null,
    }));
    const table = await renderAudit(entries);
    await within(table).findAllByText('Dados registados');
    const sentences = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.querySelector('p')?.textContent ?? '');
    expect(sentences).toHaveLength(recordedActions.length);
    const bare = sentences.filter((sentence) => sentence.startsWith('ana@gym.example: '));
    expect(bare).toEqual([]);
  });
});
