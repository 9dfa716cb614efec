import { createLazyRoute, Link } from '@tanstack/react-router';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { AdminToday } from '../../../machines/adminConsole.actors.ts';
import { useAdminLocale } from '../context.tsx';
import { useSearchQuery } from '../hooks.ts';
import { BookingFlags } from '../parts/booking.tsx';
import { DoorBadges } from '../parts/doors.tsx';
import { memberName, useTimes } from '../parts/format.ts';
import { AdminLink, ConsolePage, Empty, QueryStatus } from '../parts/layout.tsx';
import { DataTable, Lines } from '../parts/tables.tsx';
import { DayField } from '../dates.tsx';

type Alert = AdminToday['alerts'][number];
type Door = AdminToday['branches'][number]['doors'][number];

function useAlertText() {
  const { t } = useLingui();
  const texts: Record<Alert['kind'], string> = {
    door_offline: t`Porta sem ligação`,
    battery_low: t`Bateria fraca`,
    code_failed: t`A porta recusou um código`,
    code_not_programmed: t`Código ainda não programado`,
    no_show: t`Cliente não compareceu`,
    overstay: t`Cliente excedeu o tempo`,
  };
  return (alert: Alert) => texts[alert.kind];
}

function DoorHealth({ door }: { door: Door }) {
  return (
    <Group gap={6}>
      <Text size="sm" fw={600}>
        {door.name}
      </Text>
      <DoorBadges online={door.online} batteryLevel={door.battery_level} />
    </Group>
  );
}

/** The day's cancelled bookings, counted, linking to them in the bookings list (issue 33). */
function CanceledLink({ branchId, date, count }: { branchId: number; date: string; count: number }) {
  const lang = useAdminLocale();
  return (
    <Anchor
      size="sm"
      underline="always"
      renderRoot={(root) => (
        <Link
          {...root}
          to="/$lang/admin/bookings"
          params={{ lang }}
          search={{ branchId, from: date, to: date, status: 'canceled' }}
        />
      )}
    >
      <Plural value={count} one="# reserva cancelada neste dia" other="# reservas canceladas neste dia" />
    </Anchor>
  );
}

/** Today (issue 18): alerts first, then each branch's doors and the day's live bookings in order. */
function Today() {
  const { t } = useLingui();
  const query = useSearchQuery('today', { date: '' });
  const alertText = useAlertText();
  const times = useTimes();
  const today = query.data;
  const branchName = (id: number) =>
    today?.branches.find((entry) => entry.branch.id === id)?.branch.name ?? `#${id}`;
  return (
    <ConsolePage
      title={<Trans>Hoje</Trans>}
      actions={
        <DayField
          label={t`Dia`}
          size="xs"
          value={query.params.date}
          onChange={(value) => query.change({ date: value })}
        />
      }
    >
      <QueryStatus query={query} hasData={today !== null} />
      {today && today.alerts.length > 0 && (
        <Alert color="red" variant="light" title={t`Alertas`} role="region" aria-label={t`Alertas`}>
          <Lines
            items={today.alerts}
            itemKey={(alert, index) =>
              `${alert.kind}-${alert.booking_id ?? ''}-${alert.door_id ?? ''}-${index}`
            }
            line={(alert) => (
              <>
                {branchName(alert.branch_id)}: {alertText(alert)}
                {alert.booking_id !== null && (
                  <>
                    {' '}
                    <AdminLink path={`bookings/${alert.booking_id}`}>#{alert.booking_id}</AdminLink>
                  </>
                )}
              </>
            )}
          />
        </Alert>
      )}
      {today && (
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          {today.branches.map(({ branch, date, closed, doors, bookings, canceled_count }) => (
            <Card
              key={branch.id}
              withBorder
              component="section"
              aria-labelledby={`today-branch-${branch.id}`}
            >
              <Stack gap="sm">
                <Group justify="space-between">
                  <Title order={3} size="h4" id={`today-branch-${branch.id}`}>
                    {branch.name}
                  </Title>
                  <Text size="xs" c="gray.4">
                    {date} · {branch.time_zone}
                  </Text>
                </Group>
                {closed && (
                  <Badge color="orange" variant="filled">
                    <Trans>Encerrada</Trans>
                  </Badge>
                )}
                {doors.length > 0 ? (
                  doors.map((door) => <DoorHealth key={door.id} door={door} />)
                ) : (
                  <Empty>
                    <Trans>Sem portas ligadas</Trans>
                  </Empty>
                )}
                {canceled_count > 0 && (
                  <CanceledLink branchId={branch.id} date={date} count={canceled_count} />
                )}
                {bookings.length === 0 ? (
                  <Empty>
                    <Trans>Sem reservas neste dia</Trans>
                  </Empty>
                ) : (
                  <DataTable
                    minWidth={320}
                    headers={[t`Hora`, t`Cliente e estado`]}
                    rows={bookings}
                    nowrap={[0]}
                    cells={(booking) => [
                      <AdminLink path={`bookings/${booking.id}`}>
                        {times.time(booking.start_time, branch.time_zone)}–
                        {times.time(booking.end_time, branch.time_zone)}
                      </AdminLink>,
                      <Stack gap={4}>
                        <Text size="sm">{memberName(booking.member)}</Text>
                        <BookingFlags booking={booking} />
                      </Stack>,
                    ]}
                  />
                )}
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </ConsolePage>
  );
}

export const Route = createLazyRoute('/$lang/admin/')({ component: Today });
