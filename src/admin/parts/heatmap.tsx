import { Trans, useLingui } from '@lingui/react/macro';
import { Group, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { OccupancyHeatmap as Heatmap } from '../../../machines/adminConsole.actors.ts';
import { intlTag } from '../../i18n/format.ts';
import { useAdminLocale } from '../context.tsx';
import { useFigures, useWeekdayNames } from './format.ts';
import { Empty } from './layout.tsx';
import { ScrollTable } from './tables.tsx';

// Occupancy by weekday and hour of the day, one table per branch: a row a weekday, a column each hour the branch
// was open on some day, each cell its percentage written on a shade of its step.

type BranchGrid = Heatmap['branches'][number];

/**
 * The five steps of occupancy: none in a quiet grey, then four of viridis (even in lightness, told apart with
 * colour blindness), each with the text colour that reads on it (at least 5.4:1, whatever the console's theme: a
 * cell paints its own background). A step holds the whole percentages it lists, as the cell writes them.
 */
export const OCCUPANCY_STEPS = [
  { from: 0, to: 0, background: '#3a3d44', color: '#ced4da' },
  { from: 1, to: 24, background: '#3b528b', color: '#ffffff' },
  { from: 25, to: 49, background: '#21918c', color: '#000000' },
  { from: 50, to: 74, background: '#5ec962', color: '#000000' },
  { from: 75, to: 100, background: '#fde725', color: '#000000' },
] as const;

function stepOf(occupancy: number) {
  const percent = Math.round(occupancy * 100);
  return OCCUPANCY_STEPS.find((step) => percent <= step.to) ?? OCCUPANCY_STEPS[4];
}

/** Widths in pixels: a row's header ("sáb.", "07") and a cell ("100%"). */
const ROW_HEADER_WIDTH = 44;
const CELL_WIDTH = 40;

const hourText = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** Whole percentages in the console's language. */
function useWholePercent() {
  const format = new Intl.NumberFormat(intlTag(useAdminLocale()), {
    style: 'percent',
    maximumFractionDigits: 0,
  });
  return (ratio: number) => format.format(ratio);
}

/** What each shade means, and the mark of an hour never open. */
export function HeatmapLegend() {
  const { t } = useLingui();
  const percent = useWholePercent();
  return (
    <Group component="ul" gap="xs" wrap="wrap" aria-label={t`Legenda da ocupação`} p={0} m={0}>
      {OCCUPANCY_STEPS.map((step) => (
        <Group component="li" key={step.from} gap={4} wrap="nowrap" style={{ listStyle: 'none' }}>
          <Text
            span
            size="xs"
            px={6}
            style={{ background: step.background, color: step.color, borderRadius: 2 }}
          >
            {step.from === step.to
              ? percent(step.from / 100)
              : `${percent(step.from / 100)}–${percent(step.to / 100)}`}
          </Text>
        </Group>
      ))}
      <Group component="li" gap={4} wrap="nowrap" style={{ listStyle: 'none' }}>
        <Text span size="xs">
          <Trans>— nunca aberta neste período</Trans>
        </Text>
      </Group>
    </Group>
  );
}

/** A weekday's name in at most four letters ("sáb." for pt-PT's "sábado"), for a narrow header. */
function abbreviated(name: string) {
  return name.length <= 4 ? name : `${name.slice(0, 3)}.`;
}

/**
 * One branch's grid: a row a weekday (Monday first), a column each hour open on some day of the period; on a phone
 * turned a quarter (a row an hour, a column a weekday), so that the seven columns fit the screen's width.
 */
export function BranchHeatmap({ grid }: { grid: BranchGrid }) {
  const { t } = useLingui();
  const { percent, number } = useFigures();
  const wholePercent = useWholePercent();
  const longDay = useWeekdayNames('long');
  const shortDay = useWeekdayNames('short');
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const name = grid.branch.name;
  if (grid.occupancy === null)
    return (
      <Empty>
        <Trans>{name}: sem horas abertas neste período.</Trans>
      </Empty>
    );
  const hours = Array.from({ length: 24 }, (_, hour) => hour).filter((hour) =>
    grid.weekdays.some((day) => day.hours[hour]!.open_hours > 0),
  );
  const weekdays = grid.weekdays.map((day) => day.weekday);
  const dayHeader = (weekday: number) => (
    <>
      <span aria-hidden="true">{abbreviated(shortDay(weekday))}</span>
      <VisuallyHidden>{longDay(weekday)}</VisuallyHidden>
    </>
  );
  const hourHeader = (hour: number) => (
    <>
      <span aria-hidden="true">{String(hour).padStart(2, '0')}</span>
      <VisuallyHidden>{`${hourText(hour)}–${hourText((hour + 1) % 24)}`}</VisuallyHidden>
    </>
  );
  const rows = phone ? hours : weekdays;
  const columns = phone ? weekdays : hours;
  const rowHeader = phone ? hourHeader : dayHeader;
  const columnHeader = phone ? dayHeader : hourHeader;
  const cellAt = (row: number, column: number) => {
    const [weekday, hour] = phone ? [column, row] : [row, column];
    const cell = grid.weekdays[weekday - 1]!.hours[hour]!;
    const when = `${longDay(weekday)} ${hourText(hour)}`;
    if (cell.occupancy === null)
      return (
        <Table.Td key={column} title={t`${when}: fechada`}>
          —
        </Table.Td>
      );
    const step = stepOf(cell.occupancy);
    const share = wholePercent(cell.occupancy);
    const cellBooked = number(cell.booked_hours);
    const cellOpen = number(cell.open_hours);
    return (
      <Table.Td
        key={column}
        title={t`${when}: ${share} (${cellBooked} h reservadas de ${cellOpen} h abertas)`}
        style={{ background: step.background, color: step.color, whiteSpace: 'nowrap' }}
      >
        {share}
      </Table.Td>
    );
  };
  const total = percent(grid.occupancy);
  const booked = number(grid.booked_hours);
  const open = number(grid.open_hours);
  return (
    <Stack gap={4}>
      <Title order={4} size="h6">
        <Trans>
          {name}: {total} ({booked} h reservadas de {open} h abertas)
        </Trans>
      </Title>
      <ScrollTable minWidth={ROW_HEADER_WIDTH + CELL_WIDTH * columns.length}>
        <Table
          withTableBorder
          withColumnBorders
          verticalSpacing={2}
          horizontalSpacing={2}
          fz="xs"
          style={{ tableLayout: 'fixed', textAlign: 'center' }}
          aria-label={t`Ocupação de ${name} por dia da semana e hora`}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col" w={ROW_HEADER_WIDTH}>
                <VisuallyHidden>{phone ? <Trans>Hora</Trans> : <Trans>Dia</Trans>}</VisuallyHidden>
              </Table.Th>
              {columns.map((column) => (
                <Table.Th key={column} scope="col" ta="center" px={0}>
                  {columnHeader(column)}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row}>
                <Table.Th scope="row" ta="left">
                  {rowHeader(row)}
                </Table.Th>
                {columns.map((column) => cellAt(row, column))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
    </Stack>
  );
}
