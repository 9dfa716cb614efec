import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { NativeSelect, Text, TextInput } from '@mantine/core';
import type { AdminBookingStatus } from '../../../machines/adminConsole.actors.ts';
import { useBranchOptions, usePagedQuery } from '../hooks.ts';
import {
  AdminLink,
  BookingFlags,
  BranchPeriodFilters,
  ConsolePage,
  memberName,
  PagedTable,
  SearchForm,
  useMoney,
  useStatusLabels,
  useTimes,
} from '../parts.tsx';
import { BookingPage } from './BookingPage.tsx';

function BookingSearch() {
  const { t } = useLingui();
  const branches = useBranchOptions();
  const money = useMoney();
  const times = useTimes();
  const statusLabels = useStatusLabels();
  const query = usePagedQuery('bookings', {
    q: '',
    branchId: null,
    from: '',
    to: '',
    status: '',
    page: 1,
  });
  const statuses: { value: AdminBookingStatus | ''; label: string }[] = [
    { value: '', label: t`Todos os estados` },
    ...(Object.keys(statusLabels) as AdminBookingStatus[]).map((status) => ({
      value: status,
      label: statusLabels[status],
    })),
  ];
  return (
    <ConsolePage title={<Trans>Reservas</Trans>}>
      <SearchForm onSearch={query.reload}>
        <TextInput
          label={t`Cliente (e-mail, telefone ou nome)`}
          value={query.params.q}
          onChange={(event) => query.filter({ q: event.currentTarget.value })}
          miw={220}
        />
        <BranchPeriodFilters value={query.params} branches={branches.options} onChange={query.filter} />
        <NativeSelect
          label={t`Estado`}
          value={query.params.status}
          data={statuses}
          onChange={(event) => query.filter({ status: event.currentTarget.value as AdminBookingStatus | '' })}
        />
      </SearchForm>
      <PagedTable
        query={query}
        empty={<Trans>Nenhuma reserva encontrada.</Trans>}
        caption={
          <Text size="sm" c="gray.4">
            <Plural value={query.data?.total ?? 0} one="# reserva" other="# reservas" />
          </Text>
        }
        minWidth={560}
        headers={[t`Reserva`, t`Quando`, t`Cliente`, t`Pago`, t`Estado`]}
        cells={(booking) => [
          <AdminLink path={`bookings/${booking.id}`}>#{booking.id}</AdminLink>,
          <>
            <Text size="sm">{booking.branch.name}</Text>
            <Text size="xs" c="gray.4">
              {times.range(booking.start_time, booking.end_time, booking.branch.time_zone)}
            </Text>
          </>,
          <>
            <Text size="sm">{memberName(booking.member)}</Text>
            <Text size="xs" c="gray.4">
              {booking.member?.email}
            </Text>
          </>,
          money(booking.paid_eur),
          <BookingFlags booking={booking} />,
        ]}
        labelControls
      />
    </ConsolePage>
  );
}

export default function Bookings({ rest }: { rest: string[] }) {
  const id = Number(rest[0]);
  if (rest[0] && Number.isInteger(id) && id > 0) return <BookingPage key={id} id={id} />;
  return <BookingSearch />;
}
