import { createLazyRoute } from '@tanstack/react-router';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, NativeSelect, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Granularity, ReportFilters } from '../../../machines/adminConsole.actors.ts';
import type { ReactNode } from 'react';
import { BarChart } from '../BarChart.tsx';
import { ErrorBox } from '../feedback.tsx';
import { useAdminTask, useBranchOptions, useConsoleActors, useSearchQuery } from '../hooks.ts';
import { BranchPeriodFilters } from '../parts/booking.tsx';
import { download, useFigures, useMoney } from '../parts/format.ts';
import { BranchHeatmap, HeatmapLegend } from '../parts/heatmap.tsx';
import { ConsolePage, Empty, Figure, QueryStatus, OwnersOnlyRefusal } from '../parts/layout.tsx';
import { DataTable } from '../parts/tables.tsx';

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Sums rows of several branches per period (the chart shows the business; the table shows each branch). */
function perPeriod<T extends { period: string }>(rows: T[], value: (row: T) => number) {
  const sums = new Map<string, number>();
  for (const row of rows) sums.set(row.period, (sums.get(row.period) ?? 0) + value(row));
  return [...sums.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([label, sum]) => ({ label, value: sum }));
}

/** Occupancy per period over every branch shown: the booked hours over the open hours, as a ratio. */
function occupancyBars(rows: { period: string; booked_hours: number; open_hours: number }[]) {
  const booked = perPeriod(rows, (row) => row.booked_hours);
  const open = new Map(perPeriod(rows, (row) => row.open_hours).map((bar) => [bar.label, bar.value]));
  return booked.map((bar) => {
    const hours = open.get(bar.label) ?? 0;
    return { label: bar.label, value: hours > 0 ? bar.value / hours : 0 };
  });
}

/** A report's rows per period and branch, with the report's own columns after those two. */
function PeriodTable<Row extends { period: string; branch: { id: number; name: string } }>({
  label,
  rows,
  headers,
  cells,
  period,
}: {
  label?: string;
  rows: Row[];
  headers: string[];
  cells: (row: Row) => ReactNode[];
  period: (isoDay: string) => string;
}) {
  const { t } = useLingui();
  return (
    <DataTable
      minWidth={520}
      striped
      dense
      label={label}
      headers={[t`Período`, t`Filial`, ...headers]}
      rows={rows}
      rowKey={(row) => `${row.period}-${row.branch.id}`}
      cells={(row) => [period(row.period), row.branch.name, ...cells(row)]}
    />
  );
}

/** Money and use (owners): payments, refunds, revenue and occupancy per period and branch; charts and CSV. */
function Money() {
  const { t } = useLingui();
  const actors = useConsoleActors();
  const branches = useBranchOptions();
  const money = useMoney();
  const { percent, number, period } = useFigures();
  const today = new Date();
  const initial: ReportFilters = {
    branchId: null,
    // The last 30 days and the next 14: occupancy is mostly about bookings ahead (a booking counts on the day it
    // takes place), money about the days behind.
    from: isoDate(new Date(today.getTime() - 29 * 86_400_000)),
    to: isoDate(new Date(today.getTime() + 14 * 86_400_000)),
    granularity: 'day',
  };
  // Both reports read the one set of filters in the address.
  const report = useSearchQuery('money', initial);
  const occupancy = useSearchQuery('occupancy', initial);
  // The heatmap has no granularity: grouping otherwise does not load it again.
  const heatmap = useSearchQuery('occupancyHeatmap', {
    branchId: initial.branchId,
    from: initial.from,
    to: initial.to,
  });
  const filters = report.params;
  const set = (patch: Partial<ReportFilters>) => {
    const next = { ...filters, ...patch };
    report.change(next);
    occupancy.change(next);
    if (patch.granularity === undefined)
      heatmap.change({ branchId: next.branchId, from: next.from, to: next.to });
  };
  const csv = useAdminTask(async (input: { kind: 'money' | 'occupancy'; filters: ReportFilters }) => {
    const text =
      input.kind === 'money'
        ? await actors.moneyCsv(input.filters)
        : await actors.occupancyCsv(input.filters);
    download(`${input.kind}-${input.filters.from}-${input.filters.to}.csv`, 'text/csv', String(text));
  });
  const granularities: { value: Granularity; label: string }[] = [
    { value: 'day', label: t`Por dia` },
    { value: 'week', label: t`Por semana` },
    { value: 'month', label: t`Por mês` },
  ];
  const data = report.data;
  // Every day of the period is a row (zeros when nothing moved): the period is empty when the totals count nothing.
  const moved = data !== null && data.totals.payments_count + data.totals.refunds_count > 0;
  const use = occupancy.data;
  return (
    <ConsolePage title={<Trans>Receitas e uso</Trans>}>
      <Group align="flex-end" wrap="wrap">
        <BranchPeriodFilters value={filters} branches={branches.options} onChange={set} />
        <NativeSelect
          label={t`Agrupar`}
          value={filters.granularity}
          data={granularities}
          onChange={(event) => set({ granularity: event.currentTarget.value as Granularity })}
        />
        <Button variant="default" onClick={() => csv.run({ kind: 'money', filters })}>
          <Trans>Exportar receitas (CSV)</Trans>
        </Button>
        <Button variant="default" onClick={() => csv.run({ kind: 'occupancy', filters })}>
          <Trans>Exportar ocupação (CSV)</Trans>
        </Button>
      </Group>
      <ErrorBox error={csv.state.context.error} />
      <QueryStatus query={report} hasData={data !== null} />
      {data && (
        <>
          <SimpleGrid cols={{ base: 2, sm: 3 }}>
            <Figure
              label={<Trans>Pagamentos</Trans>}
              value={money(data.totals.payments_eur)}
              note={<Plural value={data.totals.payments_count} one="# pagamento" other="# pagamentos" />}
            />
            <Figure
              label={<Trans>Reembolsos</Trans>}
              value={money(data.totals.refunds_eur)}
              note={<Plural value={data.totals.refunds_count} one="# reembolso" other="# reembolsos" />}
            />
            <Figure label={<Trans>Receita</Trans>} value={money(data.totals.revenue_eur)} />
          </SimpleGrid>
          <Title order={3} size="h5">
            <Trans>Receita por período</Trans>
          </Title>
          {!moved ? (
            <Empty>
              <Trans>Sem movimentos neste período.</Trans>
            </Empty>
          ) : (
            <BarChart
              bars={perPeriod(data.rows, (row) => row.revenue_eur)}
              title={t`Receita por período`}
              format={money}
              label={period}
            />
          )}
          {moved && (
            <PeriodTable
              label={t`Receita por período e filial`}
              // The chart spaces the periods as time does; the table lists those money moved in (the CSV has all).
              rows={data.rows.filter((row) => row.payments_count + row.refunds_count > 0)}
              headers={[t`Pagamentos`, t`Reembolsos`, t`Receita`]}
              cells={(row) => [money(row.payments_eur), money(row.refunds_eur), money(row.revenue_eur)]}
              period={period}
            />
          )}
        </>
      )}
      <Title order={3} size="h5">
        <Trans>Ocupação (horas reservadas sobre horas abertas)</Trans>
      </Title>
      <QueryStatus query={occupancy} hasData={use !== null} />
      {use && use.rows.length > 0 && (
        <>
          <BarChart
            bars={occupancyBars(use.rows)}
            title={t`Ocupação por período (%)`}
            format={(value) => percent(value)}
            label={period}
          />
          <PeriodTable
            label={t`Ocupação por período e filial`}
            rows={use.rows}
            headers={[t`Horas reservadas`, t`Horas abertas`, t`Ocupação`]}
            cells={(row) => [
              number(row.booked_hours),
              number(row.open_hours),
              row.occupancy === null ? '—' : percent(row.occupancy),
            ]}
            period={period}
          />
        </>
      )}
      {use && use.rows.length === 0 && (
        <Empty>
          <Trans>Sem horas abertas neste período.</Trans>
        </Empty>
      )}
      <Title order={3} size="h5">
        <Trans>Ocupação por dia da semana e hora</Trans>
      </Title>
      <Text size="sm">
        <Trans>
          Cada quadrado é a percentagem das horas abertas dessa hora do dia (na hora local da filial) que
          foram reservadas no período. Só contam as horas em que a filial aceitava reservas, dentro do horário
          e fora de encerramentos; só se mostram as horas em que abriu em algum dia.
        </Trans>
      </Text>
      <QueryStatus query={heatmap} hasData={heatmap.data !== null} />
      {heatmap.data && (
        <Stack gap="md">
          <HeatmapLegend />
          {heatmap.data.branches.map((grid) => (
            <BranchHeatmap key={grid.branch.id} grid={grid} />
          ))}
        </Stack>
      )}
    </ConsolePage>
  );
}

export const Route = createLazyRoute('/$lang/admin/money')({
  component: Money,
  errorComponent: OwnersOnlyRefusal,
});
