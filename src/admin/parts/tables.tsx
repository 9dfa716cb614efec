import { Pagination, Stack, Table, Text } from '@mantine/core';
import { type ReactNode } from 'react';
import { type Feedback } from '../../../machines/feedback.ts';
import { ErrorBox } from '../feedback.tsx';
import { type QueryLike, QueryStatus, Empty } from './layout.tsx';
import { type TaskLike } from './dialogs.tsx';

// The console's tables: scrolling on a phone, a query's list, a searched list a page at a time, short lists.

/**
 * A table that scrolls sideways on a phone: its scrolling region takes the keyboard focus, so it can be scrolled
 * without a pointer (axe: scrollable-region-focusable).
 */
export function ScrollTable({ minWidth, children }: { minWidth: number; children: ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={minWidth} scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}>
      {children}
    </Table.ScrollContainer>
  );
}

type DataTableProps<Row> = {
  minWidth: number;
  label?: string;
  headers?: ReactNode[];
  rows: readonly Row[];
  /** What tells the rows apart: their `id` unless said (rows without an id must say). */
  rowKey?: (row: Row) => string | number;
  cells: (row: Row) => ReactNode[];
  /** Rows alternate in shade: the console's lists (ListTable) are, a table in a card or section is not. */
  striped?: boolean;
  /** Rows close together: a table in a card, a section or a report. */
  dense?: boolean;
  nowrap?: number[];
};

const byId = (row: unknown) => (row as { id: string | number }).id;

/**
 * A console table: an optional header row, then a row an item, a cell a value `cells` gives (the columns listed in
 * `nowrap` do not wrap); it scrolls sideways on a phone (ScrollTable).
 */
export function DataTable<Row>({
  minWidth,
  label,
  headers,
  rows,
  rowKey = byId,
  cells,
  striped = false,
  dense = false,
  nowrap = [],
}: DataTableProps<Row>) {
  return (
    <ScrollTable minWidth={minWidth}>
      <Table striped={striped} verticalSpacing={dense ? 4 : 'xs'} aria-label={label}>
        {headers && (
          <Table.Thead>
            <Table.Tr>
              {headers.map((header, index) => (
                <Table.Th key={index}>{header}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
        )}
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {cells(row).map((cell, index) => (
                <Table.Td key={index} style={nowrap.includes(index) ? { whiteSpace: 'nowrap' } : undefined}>
                  {cell}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
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
