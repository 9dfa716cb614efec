// @vitest-environment jsdom
import './support/mocks.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { components } from '../../openapi/schema.gen.ts';
import { adminBranch, consoleNetwork, labelled, renderConsole, type Console } from './support/console.tsx';
import type { Call } from './support/network.ts';

// The occupancy heatmap on the owner's money page (`/pt/admin/money`, src/admin/parts/heatmap.tsx) through the real
// console: a table per branch read by its headers (a row a weekday, a column each hour the branch opened on some
// day), each cell its whole percentage on the shade of its step with the hours in its title, a legend, the branch
// never open said in words; asked with the page's branch and period; turned a quarter on a phone. Every answer is
// one the contract allows.

type Heatmap = components['schemas']['OccupancyHeatmap'];
type BranchGrid = Heatmap['branches'][number];

const CENTRO = { id: 1, name: 'Centro', time_zone: 'Europe/Lisbon' };
const PORTO = { id: 2, name: 'Porto', time_zone: 'Europe/Lisbon' };

/** A branch's grid from its cells' [booked, open] hours (absent: never open), totals and ratios as the server's. */
function grid(
  branch: typeof CENTRO,
  hoursOf: (weekday: number, hour: number) => [number, number] | undefined,
) {
  const ratio = (booked: number, open: number) =>
    open > 0 ? Math.round((booked / open) * 10000) / 10000 : null;
  let booked = 0;
  let open = 0;
  const weekdays = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
    weekday,
    hours: Array.from({ length: 24 }, (_, hour) => {
      const [cellBooked, cellOpen] = hoursOf(weekday, hour) ?? [0, 0];
      booked += cellBooked;
      open += cellOpen;
      return { hour, booked_hours: cellBooked, open_hours: cellOpen, occupancy: ratio(cellBooked, cellOpen) };
    }),
  }));
  return { branch, booked_hours: booked, open_hours: open, occupancy: ratio(booked, open), weekdays };
}

/** Centro opens weekdays 09:00–12:00 and 18:00–20:00, Saturdays 10:00–12:00, four times each in the period. */
const BOOKED: Record<string, number> = { '1 18': 2, '2 9': 1, '5 19': 4, '6 10': 0.5 };
const centro = grid(CENTRO, (weekday, hour) => {
  const open = weekday <= 5 ? [9, 10, 11, 18, 19].includes(hour) : weekday === 6 && [10, 11].includes(hour);
  return open ? [BOOKED[`${weekday} ${hour}`] ?? 0, 4] : undefined;
});
const porto: BranchGrid = grid(PORTO, () => undefined);

const HEATMAP: Heatmap = { from: '2026-03-02', to: '2026-03-29', branches: [centro, porto] };

let rendered: Console | null = null;
afterEach(() => {
  rendered?.stop();
  vi.restoreAllMocks();
});

async function renderMoney(path = '/pt/admin/money') {
  const network = consoleNetwork({
    listAdminBranches: () => ({ status: 200, body: [adminBranch(1, 'Centro'), adminBranch(2, 'Porto')] }),
    getMoneyReport: (call) => ({
      status: 200,
      body: {
        granularity: new URL(call.request.url).searchParams.get('granularity') ?? 'day',
        rows: [],
        totals: { payments_eur: 0, refunds_eur: 0, revenue_eur: 0, payments_count: 0, refunds_count: 0 },
      },
    }),
    getOccupancyReport: (call) => ({
      status: 200,
      body: { granularity: new URL(call.request.url).searchParams.get('granularity') ?? 'day', rows: [] },
    }),
    getOccupancyHeatmap: () => ({ status: 200, body: HEATMAP }),
  });
  rendered = await renderConsole(path, { network, inspect: () => {} });
  await screen.findByRole('heading', { name: 'Receitas e uso', level: 2 }, { timeout: 10_000 });
  return network;
}

const heatmapCalls = (calls: Call[]) =>
  calls
    .filter((call) => call.operationId === 'getOccupancyHeatmap')
    .map((call) => Object.fromEntries(new URL(call.request.url).searchParams));

const tableOf = (branch: string) =>
  screen.findByRole('table', { name: `Ocupação de ${branch} por dia da semana e hora` });

/** A row's cells as they read, by the row's header (a weekday, or an hour on a phone). */
const cellsOf = (table: HTMLElement, header: string) =>
  within(within(table).getByRole('rowheader', { name: header }).closest('tr')!).getAllByRole('cell');

describe('the occupancy heatmap', () => {
  it('shows each branch as a table: a row a weekday, a column each hour it opened, each cell its percentage on its shade', async () => {
    await renderMoney();
    const table = await tableOf('Centro');
    expect(
      screen.getByRole('heading', { level: 4, name: 'Centro: 6,9% (7,5 h reservadas de 108 h abertas)' }),
    ).toBeTruthy();
    const hours = ['09:00–10:00', '10:00–11:00', '11:00–12:00', '18:00–19:00', '19:00–20:00'];
    expect(within(table).getAllByRole('columnheader')).toHaveLength(1 + hours.length);
    for (const hour of hours) within(table).getByRole('columnheader', { name: hour });
    const text = (cells: HTMLElement[]) => cells.map((cell) => cell.textContent);
    expect(text(cellsOf(table, 'segunda-feira'))).toEqual(['0%', '0%', '0%', '50%', '0%']);
    expect(text(cellsOf(table, 'terça-feira'))).toEqual(['25%', '0%', '0%', '0%', '0%']);
    expect(text(cellsOf(table, 'sexta-feira'))).toEqual(['0%', '0%', '0%', '0%', '100%']);
    expect(text(cellsOf(table, 'sábado'))).toEqual(['—', '13%', '0%', '—', '—']);
    expect(text(cellsOf(table, 'domingo'))).toEqual(['—', '—', '—', '—', '—']);
    const bodyRows = within(table).getAllByRole('row').slice(1);
    expect(bodyRows.map((row) => within(row).getAllByRole('cell').length)).toEqual([5, 5, 5, 5, 5, 5, 5]);
    // The hours behind each percentage, with the weekday and the hour, for the pointer.
    const [monday9, , , monday18] = cellsOf(table, 'segunda-feira');
    expect(monday18!.title).toBe('segunda-feira 18:00: 50% (2 h reservadas de 4 h abertas)');
    expect(monday9!.title).toBe('segunda-feira 09:00: 0% (0 h reservadas de 4 h abertas)');
    expect(cellsOf(table, 'domingo')[0]!.title).toBe('domingo 09:00: fechada');
    // Each step its own shade and a text colour that reads on it.
    const shade = (cell: HTMLElement) => [cell.style.backgroundColor, cell.style.color];
    expect(shade(monday9!)).toEqual(['rgb(58, 61, 68)', 'rgb(206, 212, 218)']);
    expect(shade(cellsOf(table, 'sábado')[1]!)).toEqual(['rgb(59, 82, 139)', 'rgb(255, 255, 255)']);
    expect(shade(cellsOf(table, 'terça-feira')[0]!)).toEqual(['rgb(33, 145, 140)', 'rgb(0, 0, 0)']);
    expect(shade(monday18!)).toEqual(['rgb(94, 201, 98)', 'rgb(0, 0, 0)']);
    expect(shade(cellsOf(table, 'sexta-feira')[4]!)).toEqual(['rgb(253, 231, 37)', 'rgb(0, 0, 0)']);
    expect(shade(cellsOf(table, 'domingo')[0]!)).toEqual(['', '']);
    // The legend says what each shade holds; the branch never open is said, not drawn.
    const legend = screen.getByRole('list', { name: 'Legenda da ocupação' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['0%', '1%–24%', '25%–49%', '50%–74%', '75%–100%', '— nunca aberta neste período']);
    expect(screen.getByText('Porto: sem horas abertas neste período.')).toBeTruthy();
    expect(screen.queryByRole('table', { name: /^Ocupação de Porto/ })).toBeNull();
  });

  it('asks with the page’s branch and period, again when they change, not when only the grouping does', async () => {
    const network = await renderMoney('/pt/admin/money?from=2026-03-02&to=2026-03-29');
    await tableOf('Centro');
    expect(heatmapCalls(network.calls)).toEqual([{ from: '2026-03-02', to: '2026-03-29' }]);
    fireEvent.change(labelled('Agrupar'), { target: { value: 'week' } });
    await waitFor(() =>
      expect(
        network.calls.filter(
          (call) =>
            call.operationId === 'getOccupancyReport' &&
            new URL(call.request.url).searchParams.get('granularity') === 'week',
        ),
      ).toHaveLength(1),
    );
    fireEvent.change(labelled('Filial'), { target: { value: '1' } });
    await waitFor(() =>
      expect(heatmapCalls(network.calls)).toEqual([
        { from: '2026-03-02', to: '2026-03-29' },
        { from: '2026-03-02', to: '2026-03-29', branch_id: '1' },
      ]),
    );
  });

  it('turns the grid a quarter on a phone: a row an hour, a column a weekday', async () => {
    const matchMedia = window.matchMedia.bind(window);
    vi.spyOn(window, 'matchMedia').mockImplementation((query) => ({
      ...matchMedia(query),
      matches: query === '(max-width: 36em)' || matchMedia(query).matches,
    }));
    await renderMoney();
    const table = await tableOf('Centro');
    await waitFor(() => expect(within(table).getAllByRole('rowheader')).toHaveLength(5));
    expect(within(table).getAllByRole('columnheader')).toHaveLength(8);
    within(table).getByRole('columnheader', { name: 'domingo' });
    expect(cellsOf(table, '18:00–19:00').map((cell) => cell.textContent)).toEqual([
      '50%',
      '0%',
      '0%',
      '0%',
      '0%',
      '—',
      '—',
    ]);
  });
});
