import { Trans } from '@lingui/react/macro';
import { Button, Group, Pagination, Stack, Table, Text, type TableProps } from '@mantine/core';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { type Feedback } from '../../../machines/feedback.ts';
import { ErrorBox } from '../feedback.tsx';
import { type QueryLike, QueryStatus, Empty } from './layout.tsx';
import { type TaskLike } from './dialogs.tsx';

// The console's tables: cards on a phone, a query's list, a searched list a page at a time, short lists.

/**
 * A table that scrolls sideways when it does not fit: its scrolling region takes the keyboard focus, so it can be
 * scrolled without a pointer (axe: scrollable-region-focusable).
 */
export function ScrollTable({ minWidth, children }: { minWidth: number; children: ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={minWidth} scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}>
      {children}
    </Table.ScrollContainer>
  );
}

/**
 * Whether the element `ref` is given is narrower than `width`: measured before the first paint and again whenever
 * it is resized. Unknown (no layout, as in a test's DOM) counts as wide enough.
 */
function useNarrowerThan(width: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [narrower, setNarrower] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setNarrower(element.clientWidth > 0 && element.clientWidth < width);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [width]);
  return [ref, narrower] as const;
}

type DataTableProps<Row> = {
  /** The width the columns need side by side; where the table has less, each row becomes a card. */
  minWidth: number;
  label?: string;
  /** The columns' names, which label each value on a row's card too. */
  headers?: string[];
  rows: readonly Row[];
  /** What tells the rows apart: their `id` unless said (rows without an id must say). */
  rowKey?: (row: Row) => string | number;
  cells: (row: Row) => ReactNode[];
  /** The first cell names its row (a row header, `th scope="row"`), as the grid of prices' hours do. */
  rowHeader?: boolean;
  /** Rows alternate in shade: the console's lists (ListTable) are, a table in a card or section is not. */
  striped?: boolean;
  /** Rows close together: a table in a card, a section or a report. */
  dense?: boolean;
  nowrap?: number[];
  /** Columns whose values are long (a sentence): on a card, under their name rather than beside it. */
  long?: number[];
  /** Mantine's table props for the table's own frame (borders). */
  frame?: Pick<TableProps, 'withTableBorder' | 'withColumnBorders'>;
};

const byId = (row: unknown) => (row as { id: string | number }).id;

/**
 * A console table: an optional header row, then a row an item, a cell a value `cells` gives (the columns listed in
 * `nowrap` do not wrap).
 *
 * Where it has less room than `minWidth` (a phone), the same table shows each row as a card, one value a line under
 * its column's name, the first value as the card's title: nothing to scroll sideways, a booking's status and
 * payment on screen. It stays a table for assistive technology (explicit roles, the header row kept for screen
 * readers only, the names on the cards drawn by CSS and not read twice) and for the keyboard (the same elements in
 * the same order).
 */
export function DataTable<Row>({
  minWidth,
  label,
  headers,
  rows,
  rowKey = byId,
  cells,
  rowHeader = false,
  striped = false,
  dense = false,
  nowrap = [],
  long = [],
  frame,
}: DataTableProps<Row>) {
  const [ref, cards] = useNarrowerThan(minWidth);
  // Native table semantics are lost by some browsers once a table is not displayed as one: the roles keep them.
  const role = (name: string) => (cards ? { role: name } : {});
  const table = (
    <Table
      striped={striped}
      verticalSpacing={dense ? 4 : 'xs'}
      aria-label={label}
      className={cards ? 'console-cards' : undefined}
      {...(cards ? {} : frame)}
      {...role('table')}
    >
      {headers && (
        <Table.Thead {...role('rowgroup')}>
          <Table.Tr {...role('row')}>
            {headers.map((header, index) => (
              <Table.Th key={index} {...role('columnheader')}>
                {header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
      )}
      <Table.Tbody {...role('rowgroup')}>
        {rows.map((row) => (
          <Table.Tr key={rowKey(row)} {...role('row')}>
            {cells(row).map((cell, index) => {
              const Cell = rowHeader && index === 0 ? Table.Th : Table.Td;
              const kept = !cards && nowrap.includes(index);
              return (
                <Cell
                  key={index}
                  {...(rowHeader && index === 0 && { scope: 'row' })}
                  {...role(rowHeader && index === 0 ? 'rowheader' : 'cell')}
                  data-label={cards && index > 0 ? (headers?.[index] ?? '') : undefined}
                  data-long={cards && long.includes(index) ? true : undefined}
                  style={kept ? { whiteSpace: 'nowrap' } : undefined}
                >
                  {cards ? <div>{cell}</div> : cell}
                </Cell>
              );
            })}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  return (
    <div ref={ref} className="console-table">
      {cards ? table : <ScrollTable minWidth={minWidth}>{table}</ScrollTable>}
    </div>
  );
}

type ListTableProps<Row> = {
  query: QueryLike;
  rows: readonly Row[] | null | undefined;
  empty?: ReactNode;
  error?: Feedback | null;
  caption?: ReactNode;
} & Omit<DataTableProps<Row>, 'rows'>;

/**
 * A list a query loads, as a table: the load's status, `empty` said when it has no rows (without `empty`, an empty
 * table), the failure of the last action on the list, then `caption` and the rows.
 */
function ListTable<Row>({ query, rows, empty, error = null, caption, ...table }: ListTableProps<Row>) {
  const hasRows = rows != null && (rows.length > 0 || !empty);
  return (
    <>
      <QueryStatus query={query} hasData={rows != null} />
      {rows?.length === 0 && empty && <Empty>{empty}</Empty>}
      <ErrorBox error={error} />
      {hasRows && caption}
      {hasRows && <DataTable striped rows={rows} {...table} />}
    </>
  );
}

/** A list a query loads (its rows), as a table (ListTable), with the failure of the last change `task` made on it. */
export function QueryTable<Row>({
  query,
  task,
  ...table
}: {
  query: QueryLike & { data: readonly Row[] | null };
  task?: TaskLike;
} & Omit<ListTableProps<Row>, 'query' | 'rows' | 'error'>) {
  return <ListTable query={query} rows={query.data} error={task?.state.context.error} {...table} />;
}

type ListPage<Row> = { items: readonly Row[]; total: number; page_size: number };

/** A searched list, a page at a time (`usePagedQuery`): its table (ListTable), then its pages. */
export function PagedTable<Row>({
  query,
  labelControls,
  ...table
}: {
  query: QueryLike & { data: ListPage<Row> | null; params: { page: number }; goTo: (page: number) => void };
  labelControls?: boolean;
} & Omit<ListTableProps<Row>, 'query' | 'rows' | 'error'>) {
  const page = query.data;
  return (
    <>
      <ListTable query={query} rows={page?.items} {...table} />
      {page && (
        <Pager list={page} value={query.params.page} onChange={query.goTo} labelControls={labelControls} />
      )}
    </>
  );
}

type CursorPage<Row> = { items: readonly Row[]; next: string | null; previous: string | null };

/**
 * A searched list read by cursor (`useCursorQuery`): its table (ListTable), then the way to the newer and the
 * older bookings, when there are any.
 */
export function CursorTable<Row>({
  query,
  ...table
}: {
  query: QueryLike & {
    data: CursorPage<Row> | null;
    goTo: (place: { after: string } | { before: string }) => void;
  };
} & Omit<ListTableProps<Row>, 'query' | 'rows' | 'error'>) {
  const page = query.data;
  return (
    <>
      <ListTable query={query} rows={page?.items} {...table} />
      {page && (page.previous !== null || page.next !== null) && (
        <Group gap="sm">
          <Button
            variant="default"
            disabled={page.previous === null}
            onClick={() => page.previous !== null && query.goTo({ before: page.previous })}
          >
            <Trans>Mais recentes</Trans>
          </Button>
          <Button
            variant="default"
            disabled={page.next === null}
            onClick={() => page.next !== null && query.goTo({ after: page.next })}
          >
            <Trans>Mais antigas</Trans>
          </Button>
        </Group>
      )}
    </>
  );
}

/** The pages of a long list, when it has more than one. */
function Pager({
  list,
  value,
  onChange,
  labelControls = false,
}: {
  list: { total: number; page_size: number };
  value: number;
  onChange: (page: number) => void;
  labelControls?: boolean;
}) {
  if (list.total <= list.page_size) return null;
  return (
    <Pagination
      total={Math.ceil(list.total / list.page_size)}
      value={value}
      onChange={onChange}
      getControlProps={labelControls ? (control) => ({ 'aria-label': control }) : undefined}
    />
  );
}

/** Items as short lines of text, one under another (a history, payments, alerts). */
export function Lines<Item>({
  items,
  itemKey,
  line,
}: {
  items: readonly Item[];
  itemKey: (item: Item, index: number) => string | number;
  line: (item: Item) => ReactNode;
}) {
  return (
    <Stack gap={4}>
      {items.map((item, index) => (
        <Text size="sm" key={itemKey(item, index)}>
          {line(item)}
        </Text>
      ))}
    </Stack>
  );
}
