import { createLazyRoute } from '@tanstack/react-router';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Text, TextInput } from '@mantine/core';
import { useBranchOptions, useCursorQuery } from '../hooks.ts';
import { BookingFlags, BranchPeriodFilters, SeriesLink, StatusFilter } from '../parts/booking.tsx';
import { memberName, useMoney, useTimes } from '../parts/format.ts';
import { AdminLink, ConsolePage, SearchForm } from '../parts/layout.tsx';
import { CursorTable } from '../parts/tables.tsx';

function BookingSearch() {
  const { t } = useLingui();
  const branches = useBranchOptions();
  const money = useMoney();
  const times = useTimes();
  const query = useCursorQuery('bookings', {
    q: '',
    branchId: null,
    from: '',
    to: '',
    status: '',
    seriesId: null,
    after: '',
    before: '',
  });
  const total = query.data?.total ?? 0;
  const seriesId = query.params.seriesId;
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
        <StatusFilter value={query.params.status} onChange={(status) => query.filter({ status })} />
      </SearchForm>
      {seriesId !== null && (
        <Group gap="sm">
          <Text size="sm">
            <Trans>Só as semanas da série semanal #{seriesId}.</Trans>
          </Text>
          <Button size="xs" variant="default" onClick={() => query.filter({ seriesId: null })}>
            <Trans>Mostrar todas as reservas</Trans>
          </Button>
        </Group>
      )}
      <CursorTable
        query={query}
        empty={<Trans>Nenhuma reserva encontrada.</Trans>}
        caption={
          <Text size="sm" c="gray.4">
            {query.data?.total_capped ? (
              <Plural value={total} one="Mais de # reserva" other="Mais de # reservas" />
            ) : (
              <Plural value={total} one="# reserva" other="# reservas" />
            )}
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
            <SeriesLink series={booking.series} />
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
      />
    </ConsolePage>
  );
}

export const Route = createLazyRoute('/$lang/admin/bookings')({ component: BookingSearch });
