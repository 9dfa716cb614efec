import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Badge, Group, NativeSelect } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { type AdminBooking } from '../../../machines/adminConsole.actors.ts';
import { DayField } from '../dates.tsx';
import { useAdminLocale } from '../context.tsx';
import { Section } from './layout.tsx';
import { useMoney, useTimes, useMoneyPurposes, type Movement } from './format.ts';
import { Lines } from './tables.tsx';

// A booking as the console shows it (status, door code, payments) and the filters of bookings and reports.

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

/**
 * A booking's week in its weekly series (issue 31), linking to the series' weeks in the bookings list; nothing for
 * a booking made on its own.
 */
export function SeriesLink({ series }: { series: AdminBooking['series'] }) {
  const { t } = useLingui();
  const lang = useAdminLocale();
  if (!series) return null;
  const { id, week, weeks } = series;
  return (
    <Anchor
      size="xs"
      underline="always"
      renderRoot={(root) => (
        <Link {...root} to="/$lang/admin/bookings" params={{ lang }} search={{ seriesId: id }} />
      )}
    >
      {t`Série semanal #${id}: semana ${week} de ${weeks}`}
    </Anchor>
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
