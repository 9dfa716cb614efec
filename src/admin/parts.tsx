import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Modal,
  NativeSelect,
  Pagination,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
  type AnchorProps,
  type MantineSpacing,
} from '@mantine/core';
import { ErrorComponent, Link, type ErrorComponentProps } from '@tanstack/react-router';
import { OwnerOnlyError } from '../../machines/adminSearch.ts';
import { useState, type ComponentType, type ReactNode } from 'react';
import type { AdminBooking, MemberDetail } from '../../machines/adminConsole.actors.ts';
import type { Feedback } from '../../machines/feedback.ts';
import { timeOnly, timeRange } from '../account/time.ts';
import { formatEuros, intlTag } from '../i18n/format.ts';
import { useAdminLocale } from './context.tsx';
import { SubmitForm } from '../ui/SubmitForm.tsx';
import { DayField } from './dates.tsx';
import { ErrorBox } from './feedback.tsx';

/**
 * What an owner-only page's route shows when its `beforeLoad` refused the operator (src/router.tsx): the page
 * never rendered; any other error is the router's own error view.
 */
export function OwnersOnlyRefusal({ error }: ErrorComponentProps) {
  if (error instanceof OwnerOnlyError) return <Forbidden />;
  return <ErrorComponent error={error} />;
}

export function Forbidden() {
  return (
    <Alert color="yellow" variant="light" role="alert" title={<Trans>Sem acesso</Trans>}>
      <Trans>Esta página é só para responsáveis.</Trans>
    </Alert>
  );
}

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

export function PageTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <Group justify="space-between" mb="md" wrap="wrap">
      <Title order={2} size="h3">
        {children}
      </Title>
      {actions}
    </Group>
  );
}

/** A console page: its title (with `actions` beside it), then its parts one under another. */
export function ConsolePage({
  title,
  actions,
  children,
}: {
  title: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Stack>
      <PageTitle actions={actions}>{title}</PageTitle>
      {children}
    </Stack>
  );
}

type QueryLike = {
  state: {
    matches: (value: 'loading' | 'loaded' | 'failed' | 'forbidden') => boolean;
    context: { error: Feedback | null };
  };
  reload: () => void;
};

/** What every list shows around its data: a spinner on the first load, the failure with Retry, the role refusal. */
export function QueryStatus({ query, hasData }: { query: QueryLike; hasData: boolean }) {
  const { t } = useLingui();
  if (query.state.matches('forbidden')) return <Forbidden />;
  if (query.state.matches('failed'))
    return (
      <Stack gap="xs" align="flex-start">
        <ErrorBox error={query.state.context.error} />
        <Button variant="default" size="xs" onClick={query.reload}>
          <Trans>Tentar novamente</Trans>
        </Button>
      </Stack>
    );
  if (query.state.matches('loading') && !hasData) return <Loader size="sm" aria-label={t`A carregar`} />;
  return null;
}

export function useMoney() {
  const lang = useAdminLocale();
  return (euros: number) => formatEuros(euros, lang);
}

/** Ratios as percentages, hours, and report periods (a day, or the first day of a week or month) in the console's language. */
export function useFigures() {
  const tag = intlTag(useAdminLocale());
  const percentFormat = new Intl.NumberFormat(tag, { style: 'percent', maximumFractionDigits: 1 });
  const numberFormat = new Intl.NumberFormat(tag, { maximumFractionDigits: 2 });
  const dayFormat = new Intl.DateTimeFormat(tag, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return {
    percent: (ratio: number) => percentFormat.format(ratio),
    number: (value: number) => numberFormat.format(value),
    period: (isoDay: string) => dayFormat.format(new Date(`${isoDay}T00:00:00Z`)),
  };
}

/** An amount in a currency's minor unit, in the console's language (the currency's own decimals). */
export function useMinorUnits() {
  const lang = useAdminLocale();
  return (cents: number, currency: string) => {
    const format = new Intl.NumberFormat(intlTag(lang), { style: 'currency', currency });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(cents / 10 ** digits);
  };
}

export function useTimes() {
  const lang = useAdminLocale();
  return {
    range: (start: string, end: string, zone: string) => timeRange(start, end, zone, lang),
    time: (iso: string, zone: string) => timeOnly(iso, zone, lang),
    instant: (iso: string) =>
      new Date(iso).toLocaleString(lang === 'en' ? 'en-GB' : lang, {
        dateStyle: 'short',
        timeStyle: 'short',
      }),
  };
}

/** A booking's status in words, in the order the console lists the statuses. */
function useStatusLabels(): Record<AdminBooking['status'], string> {
  const { t } = useLingui();
  return { pending: t`pendente`, confirmed: t`confirmada`, canceled: t`cancelada`, expired: t`expirada` };
}

const statusColors: Record<AdminBooking['status'], string> = {
  pending: 'yellow',
  confirmed: 'lime',
  canceled: 'gray',
  expired: 'gray',
};

export function StatusBadge({ status }: { status: AdminBooking['status'] }) {
  const labels = useStatusLabels();
  return (
    <Badge color={statusColors[status]} variant="light">
      {labels[status]}
    </Badge>
  );
}

function DoorCodeBadge({ state }: { state: AdminBooking['door_code_state'] }) {
  const { t } = useLingui();
  const labels: Record<AdminBooking['door_code_state'], string> = {
    none: t`sem código`,
    pending: t`código por programar`,
    programmed: t`código programado`,
    failed: t`código recusado pela porta`,
    sent: t`código enviado`,
    revoked: t`código removido`,
  };
  return (
    <Badge
      color={state === 'failed' ? 'red' : state === 'sent' || state === 'programmed' ? 'lime' : 'gray'}
      variant="outline"
    >
      {labels[state]}
    </Badge>
  );
}

/** The flags of a booking an operator acts on: paid, entered, no-show, overstay. */
export function BookingFlags({ booking }: { booking: AdminBooking }) {
  const { t } = useLingui();
  const times = useTimes();
  return (
    <Group gap={6} wrap="wrap">
      <StatusBadge status={booking.status} />
      <Badge color={booking.paid ? 'lime' : 'orange'} variant="light">
        {booking.paid ? t`paga` : t`não paga`}
      </Badge>
      <DoorCodeBadge state={booking.door_code_state} />
      {booking.checked_in_at && (
        <Badge color="blue" variant="light">
          {t`entrou às ${times.time(booking.checked_in_at, booking.branch.time_zone)}`}
        </Badge>
      )}
      {booking.no_show && (
        <Badge color="red" variant="filled">
          {t`não compareceu`}
        </Badge>
      )}
      {booking.overstay && (
        <Badge color="red" variant="filled">
          {t`excedeu o tempo`}
        </Badge>
      )}
    </Group>
  );
}

export function memberName(member: AdminBooking['member']): string {
  if (!member) return '—';
  const name = `${member.first_name} ${member.last_name}`.trim();
  return name || member.email || member.phone_number || '—';
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <Text c="gray.4" size="sm">
      {children}
    </Text>
  );
}

/** Saves text as a file the operator downloads (CSV reports, a member's data export). */
export function download(name: string, type: string, content: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * A link to a console page (`path` after `/{lang}/admin/`), styled as Mantine's Anchor; underlined, so that it
 * stands out from the text around it by more than its colour.
 */
export function AdminLink({ path, children, ...props }: { path: string; children: ReactNode } & AnchorProps) {
  const lang = useAdminLocale();
  return (
    <Anchor
      underline="always"
      {...props}
      renderRoot={(root) => <Link {...root} to="/$lang/admin/$" params={{ lang, _splat: path }} />}
    >
      {children}
    </Anchor>
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

/**
 * A part of a page under its own heading (`id` names the heading, which labels the part); `empty`, when given,
 * is said instead of the content (a list with nothing in it).
 */
export function Section({
  id,
  title,
  empty,
  children,
}: {
  id: string;
  title: ReactNode;
  empty?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <Title order={3} size="h5" id={id} mb="xs">
        {title}
      </Title>
      {empty ? <Empty>{empty}</Empty> : children}
    </section>
  );
}

/** A list's search form: its fields in a row, then Search; submitting it (Enter or the button) runs `onSearch`. */
export function SearchForm({ onSearch, children }: { onSearch: () => void; children: ReactNode }) {
  return (
    <SubmitForm role="search" onSubmit={onSearch}>
      <Group align="flex-end" wrap="wrap" gap="sm">
        {children}
        <Button type="submit" variant="default">
          <Trans>Procurar</Trans>
        </Button>
      </Group>
    </SubmitForm>
  );
}

/** A form or panel on a page, in a card under its own heading (`id` names the heading, which labels the card). */
export function SectionCard({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <Card withBorder component="section" aria-labelledby={id}>
      <Title order={3} size="h5" id={id} mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** A figure with its label above and an optional note below (the money report's totals). */
export function Figure({ label, value, note }: { label: ReactNode; value: ReactNode; note?: ReactNode }) {
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="gray.4">
        {label}
      </Text>
      <Text fw={700}>{value}</Text>
      {note !== undefined && <Text size="xs">{note}</Text>}
    </Card>
  );
}

/** The reason an operator gives for a change; it goes to the audit log. */
export function ReasonField({
  value,
  onChange,
  description,
}: {
  value: string;
  onChange: (value: string) => void;
  description?: string;
}) {
  const { t } = useLingui();
  return (
    <Textarea
      label={t`Motivo`}
      description={description}
      required
      maxLength={500}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

/** What a page gives the dialog it opens: the record it acts on, closing it, and what to do once it is done. */
export type DialogProps<Detail> = { detail: Detail; onClose: () => void; onDone: () => void };

/**
 * The dialogs a record's page opens (by name, one at a time) on its record: `open` one, `render` the one open.
 * Done, it closes and the page reloads (`reload`).
 */
export function usePageDialogs<Detail, Name extends string>(
  dialogs: Record<Name, ComponentType<DialogProps<Detail>>>,
  reload: () => void,
) {
  const [open, setOpen] = useState<Name | null>(null);
  const Shown: ComponentType<DialogProps<Detail>> | null = open === null ? null : dialogs[open];
  return {
    open: (name: Name) => setOpen(name),
    render: (detail: Detail) =>
      Shown && (
        <Shown
          detail={detail}
          onClose={() => setOpen(null)}
          onDone={() => {
            setOpen(null);
            reload();
          }}
        />
      ),
  };
}

/** A console dialog: open while it is shown, centred, its close button named in the console's language. */
export function Dialog({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useLingui();
  return (
    <Modal opened onClose={onClose} title={title} centered closeButtonProps={{ 'aria-label': t`Fechar` }}>
      {children}
    </Modal>
  );
}

/** The foot of a dialog: its failure, if any, then Back and the dialog's own action. */
export function DialogActions({
  error,
  onClose,
  children,
}: {
  error: Feedback | null;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <>
      <ErrorBox error={error} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          <Trans>Voltar</Trans>
        </Button>
        {children}
      </Group>
    </>
  );
}

/**
 * A dialog that runs one change with the reason the operator gives for it (ReasonField): what `children` ask
 * first, then the reason, Back and the change's button (`action`), which runs `onRun` with the reason once the
 * dialog is `ready` and the reason given.
 */
export function ReasonDialog({
  title,
  task,
  action,
  color,
  gap = 'sm',
  ready = true,
  onRun,
  onClose,
  children,
}: {
  title: string;
  task: TaskLike;
  action: ReactNode;
  color?: string;
  gap?: MantineSpacing;
  ready?: boolean;
  onRun: (reason: string) => void;
  onClose: () => void;
  children?: ReactNode;
}) {
  const [reason, setReason] = useState('');
  return (
    <Dialog onClose={onClose} title={title}>
      <Stack gap={gap}>
        {children}
        <ReasonField value={reason} onChange={setReason} />
        <DialogActions error={task.state.context.error} onClose={onClose}>
          <Button
            color={color}
            disabled={!ready || reason.trim() === ''}
            loading={task.state.matches('running')}
            onClick={() => onRun(reason.trim())}
          >
            {action}
          </Button>
        </DialogActions>
      </Stack>
    </Dialog>
  );
}

type TaskLike = {
  state: { matches: (value: 'running') => boolean; context: { error: Feedback | null } };
  dismiss: () => void;
};

/** The answer to a change asked inline (remove, reopen, unblock): its failure, then Back and the confirmation. */
export function ConfirmActions({
  task,
  disabled,
  onConfirm,
  children,
}: {
  task: TaskLike;
  disabled?: boolean;
  onConfirm: () => void;
  children: ReactNode;
}) {
  return (
    <>
      <ErrorBox error={task.state.context.error} />
      <Group>
        <Button variant="default" size="xs" onClick={task.dismiss}>
          <Trans>Voltar</Trans>
        </Button>
        <Button size="xs" disabled={disabled} loading={task.state.matches('running')} onClick={onConfirm}>
          {children}
        </Button>
      </Group>
    </>
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

type Movement = MemberDetail['payments'][number];

/** What each movement of money was for, in the console's language. */
export function useMoneyPurposes(): Record<Movement['purpose'], string> {
  const { t } = useLingui();
  return {
    booking: t`reserva`,
    move_difference: t`diferença de uma mudança`,
    cancellation: t`cancelamento pelo cliente`,
    move_to_cheaper_slot: t`mudança para um horário mais barato`,
    closure: t`encerramento`,
    operator: t`decisão de um operador`,
    account_deletion: t`conta eliminada`,
    late_payment: t`pagamento tardio`,
    move_late_payment: t`pagamento tardio de uma mudança`,
  };
}

/**
 * The payments and refunds (rows of the money ledger) of a booking or a member, each with what it was for and
 * its `note` (if any) after its amount. On a booking's page (`bookingId`), a payment of several bookings also
 * says this booking's share of it.
 */
export function PaymentsSection({
  id,
  payments,
  note,
  bookingId,
}: {
  id: string;
  payments: readonly Movement[];
  note: (movement: Movement) => string | null;
  bookingId?: number;
}) {
  const { t } = useLingui();
  const money = useMoney();
  const times = useTimes();
  const purposes = useMoneyPurposes();
  const shareOf = (movement: Movement) => {
    const share = movement.shares.find((part) => part.booking_id === bookingId);
    return share && share.amount_eur !== movement.amount_eur
      ? t`desta reserva: ${money(share.amount_eur)}`
      : null;
  };
  return (
    <Section
      id={id}
      title={<Trans>Pagamentos</Trans>}
      empty={payments.length === 0 && <Trans>Sem pagamentos</Trans>}
    >
      <Lines
        items={payments}
        itemKey={(movement) => movement.id}
        line={(movement) =>
          [
            `${times.instant(movement.at)} · ${movement.kind === 'refund' ? t`reembolso` : t`pagamento`} ${money(movement.amount_eur)}`,
            shareOf(movement),
            purposes[movement.purpose],
            note(movement),
          ]
            .filter((part) => part)
            .join(' · ')
        }
      />
    </Section>
  );
}

/** A period's first and last day, as a list's filters. */
export function PeriodFields({
  from,
  to,
  onChange,
}: {
  from: string;
  to: string;
  onChange: (patch: { from?: string; to?: string }) => void;
}) {
  const { t } = useLingui();
  return (
    <>
      <DayField label={t`De`} value={from} onChange={(value) => onChange({ from: value })} />
      <DayField label={t`Até`} value={to} onChange={(value) => onChange({ to: value })} />
    </>
  );
}

type BranchPeriod = { branchId: number | null; from: string; to: string };

/** The filters a report or list of bookings shares: one branch or all, and the period. */
export function BranchPeriodFilters({
  value,
  branches,
  onChange,
}: {
  value: BranchPeriod;
  branches: { value: string; label: string }[];
  onChange: (patch: Partial<BranchPeriod>) => void;
}) {
  const { t } = useLingui();
  return (
    <>
      <NativeSelect
        label={t`Filial`}
        value={value.branchId === null ? '' : String(value.branchId)}
        data={[{ value: '', label: t`Todas as filiais` }, ...branches]}
        onChange={(event) =>
          onChange({ branchId: event.currentTarget.value === '' ? null : Number(event.currentTarget.value) })
        }
      />
      <PeriodFields from={value.from} to={value.to} onChange={onChange} />
    </>
  );
}

/** A list of bookings' filter on their status: one status or all. */
export function StatusFilter({
  value,
  onChange,
}: {
  value: AdminBooking['status'] | '';
  onChange: (status: AdminBooking['status'] | '') => void;
}) {
  const { t } = useLingui();
  const labels = useStatusLabels();
  const statuses = Object.keys(labels) as AdminBooking['status'][];
  return (
    <NativeSelect
      label={t`Estado`}
      value={value}
      data={[
        { value: '', label: t`Todos os estados` },
        ...statuses.map((status) => ({ value: status, label: labels[status] })),
      ]}
      onChange={(event) => onChange(event.currentTarget.value as AdminBooking['status'] | '')}
    />
  );
}
