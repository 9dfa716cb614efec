// @vitest-environment jsdom
import './support/mocks.ts';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema.gen.ts';
import { adminBranch, consoleNetwork, renderConsole, type Console } from './support/console.tsx';

// The money report on the owner's money page (`/pt/admin/money`) through the real console. The server lists every
// day of the period for every branch, zeros included (docs/decisions.md, "the money report lists every day"): the
// chart spaces the days as time does, the table lists the days money moved on, and "no movements" is said when
// the totals count none, though the rows are there.

type MoneyRow = components['schemas']['MoneyRow'];
const CENTRO = { id: 1, name: 'Centro', time_zone: 'Europe/Lisbon' };

const row = (period: string, payments: number, refunds: number): MoneyRow => ({
  period,
  branch: CENTRO,
  payments_eur: payments,
  refunds_eur: refunds,
  revenue_eur: payments - refunds,
  payments_count: payments > 0 ? 1 : 0,
  refunds_count: refunds > 0 ? 1 : 0,
});

let rendered: Console | null = null;
afterEach(() => rendered?.stop());

async function renderMoney(rows: MoneyRow[]) {
  const sum = (pick: (one: MoneyRow) => number) => rows.reduce((total, one) => total + pick(one), 0);
  const network = consoleNetwork({
    listAdminBranches: () => ({ status: 200, body: [adminBranch(1, 'Centro')] }),
    getMoneyReport: () => ({
      status: 200,
      body: {
        granularity: 'day',
        rows,
        totals: {
          payments_eur: sum((one) => one.payments_eur),
          refunds_eur: sum((one) => one.refunds_eur),
          revenue_eur: sum((one) => one.revenue_eur),
          payments_count: sum((one) => one.payments_count),
          refunds_count: sum((one) => one.refunds_count),
        },
      },
    }),
    getOccupancyReport: () => ({ status: 200, body: { granularity: 'day', rows: [] } }),
    getOccupancyHeatmap: () => ({
      status: 200,
      body: { from: '2026-03-01', to: '2026-03-03', branches: [] },
    }),
  });
  rendered = await renderConsole('/pt/admin/money?from=2026-03-01&to=2026-03-03', {
    network,
    inspect: () => {},
  });
  await screen.findByRole('heading', { name: 'Receitas e uso', level: 2 }, { timeout: 10_000 });
}

describe('the money report', () => {
  it('lists in its table the days money moved on, though the report has every day', async () => {
    await renderMoney([row('2026-03-01', 0, 0), row('2026-03-02', 20, 5), row('2026-03-03', 0, 0)]);
    const table = await screen.findByRole('table', { name: 'Receita por período e filial' });
    const bodyRows = within(table).getAllByRole('row').slice(1);
    expect(bodyRows).toHaveLength(1);
    expect(bodyRows[0]!.textContent).toContain('2/03');
    expect(bodyRows[0]!.textContent).toContain('Centro');
    expect(screen.queryByText('Sem movimentos neste período.')).toBeNull();
  });

  it('says there were no movements when the totals count none, every day being a row of zeros', async () => {
    await renderMoney([row('2026-03-01', 0, 0), row('2026-03-02', 0, 0), row('2026-03-03', 0, 0)]);
    expect(await screen.findByText('Sem movimentos neste período.')).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Receita por período e filial' })).toBeNull();
  });
});
