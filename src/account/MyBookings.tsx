import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Badge, Button, Checkbox, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import type { EventFrom, SnapshotFrom } from 'xstate';
import {
  type BookAgainSlot,
  type myBookingsMachine,
  selectedBookings,
  visibleDoorCodes,
} from '../../machines/myBookings.machine.ts';
import {
  creditPaidEur,
  groupBookings,
  listOf,
  refundPercent,
  seriesOf,
  seriesPlace,
  statusLabel,
  sumEuros,
  type Booking,
  type BookingGroup,
  type BookingList,
  type BookingStatusLabel,
  type SeriesPlace,
} from '../../machines/myBookings.selectors.ts';
import { useFeedbackText } from '../auth/feedback.tsx';
import { useUpdateModalSearch } from '../auth/useModalSearch.ts';
import { formatEuros, formatPercent } from '../i18n/format.ts';
import type { Locale } from '../i18n/locales.ts';
import { useLocale } from '../shell/navigation.ts';
import { ArrivalKit } from './ArrivalKit.tsx';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { GuestsButton } from './Guests.tsx';
import { MoveButton } from './MoveButton.tsx';
import { bookingTimeRange, longDateTime, timeOnly, timeRange } from './time.ts';
import { myBookingsFlow } from './useMyBookings.tsx';
import { RefundDeadline } from '../ui/refund/RefundDeadline.tsx';

type Send = (event: EventFrom<typeof myBookingsMachine>) => void;

function StatusBadge({ status }: { status: BookingStatusLabel }) {
  const badges: Record<BookingStatusLabel, { label: ReactNode; color: string }> = {
    active: { label: <Trans>Ativa</Trans>, color: 'lime' },
    past: { label: <Trans>Passada</Trans>, color: 'gray' },
    canceled: { label: <Trans>Cancelada</Trans>, color: 'red' },
    expired: { label: <Trans>Expirada</Trans>, color: 'orange' },
    awaiting_payment: { label: <Trans>A aguardar pagamento</Trans>, color: 'yellow' },
  };
  const { label, color } = badges[status];
  return (
    <Badge color={color} variant="light">
      {label}
    </Badge>
  );
}

function BookingFacts({
  booking,
  series,
  locale,
}: {
  booking: Booking;
  series: SeriesPlace | null;
  locale: Locale;
}) {
  const { t } = useLingui();
  const weekOfSeries = ({ week, weeks }: SeriesPlace) => t`Semana ${week} de ${weeks}`;
  const branch = booking.time_slot_data.branch_data;
  // The moment the list was read: what cancelling refunds until when is told from it (issue 30).
  const [now] = useState(() => Date.now());
  const showLockCode = booking.lock_code !== null && booking.lock_code !== '' && !booking.is_in_past;
  const credit = creditPaidEur(booking);
  return (
    <dl className="booking-facts">
      <dt>{t`Filial`}</dt>
      <dd>{branch.name}</dd>
      <dt>{t`Horário`}</dt>
      <dd>{bookingTimeRange(booking, locale)}</dd>
      <dt>{t`Preço`}</dt>
      <dd>{formatEuros(booking.final_price_eur, locale)}</dd>
      {credit !== null && (
        <>
          <dt>{t`Pago com crédito`}</dt>
          <dd>{formatEuros(credit, locale)}</dd>
        </>
      )}
      <dt>{t`Reembolsável`}</dt>
      <dd>{formatEuros(booking.refundable_eur, locale)}</dd>
      {booking.is_cancelable && (
        <>
          <dt>{t`Cancelamento`}</dt>
          <dd>
            <RefundDeadline
              ratios={booking.refund_ratios}
              start={booking.time_slot_data.start_time}
              timeZone={branch.time_zone}
              locale={locale}
              now={now}
            />
          </dd>
        </>
      )}
      <dt>{t`Estado`}</dt>
      <dd>
        <StatusBadge status={statusLabel(booking)} />
      </dd>
      {series && (
        <>
          <dt>{t`Série semanal`}</dt>
          <dd>{weekOfSeries(series)}</dd>
        </>
      )}
      {booking.awaiting_payment?.voucher && (
        <>
          <dt>{t`Multibanco`}</dt>
          <dd>
            {t`Entidade ${booking.awaiting_payment.voucher.entity}, referência ${booking.awaiting_payment.voucher.reference}, até ${longDateTime(booking.awaiting_payment.held_until, branch.time_zone, locale)}`}
          </dd>
        </>
      )}
      <dt>{t`Criada em`}</dt>
      <dd>{longDateTime(booking.created_at, branch.time_zone, locale)}</dd>
      <dt>{t`Referência`}</dt>
      <dd>#{booking.id}</dd>
      {showLockCode && (
        <>
          <dt>{t`Código da porta`}</dt>
          <dd>
            <strong>{booking.lock_code}</strong>
          </dd>
        </>
      )}
      {booking.checked_in_at && (
        <>
          <dt>{t`Entrada`}</dt>
          <dd>
            <Trans>Entrou às {timeOnly(booking.checked_in_at, branch.time_zone, locale)}</Trans>
          </dd>
        </>
      )}
      <dt>{t`Pagamento`}</dt>
      <dd>
        {booking.paid ? (
          <Trans>Paga</Trans>
        ) : (
          <>
            <Trans>Não paga</Trans>
            {booking.pay_again_url && (
              <>
                {' '}
                <Anchor href={booking.pay_again_url} underline="always">
                  <Trans>Pode pagar aqui</Trans>
                </Anchor>
              </>
            )}
          </>
        )}
      </dd>
      {booking.refunded_eur !== null && (
        <>
          <dt>{t`Reembolsado`}</dt>
          <dd>{formatEuros(booking.refunded_eur, locale)}</dd>
        </>
      )}
    </dl>
  );
}

function BookingCard({
  booking,
  series,
  selectable,
  selected,
  send,
  locale,
}: {
  booking: Booking;
  series: SeriesPlace | null;
  selectable: boolean;
  selected: Set<number>;
  send: Send;
  locale: Locale;
}) {
  const { t } = useLingui();
  const when = bookingTimeRange(booking, locale);
  const isSelected = selected.has(booking.id);
  // "This week and the following" (issue 31): the series' later weeks that can still be cancelled join the selection.
  const following = series?.following.filter((week) => week.is_cancelable) ?? [];
  const classes = [
    'booking-card',
    selectable ? 'booking-card--selectable' : '',
    isSelected ? 'booking-card--selected' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <li className={classes} data-testid="booking">
      {selectable && (
        <Checkbox
          checked={isSelected}
          onChange={() => send({ type: 'booking.toggle', id: booking.id })}
          label={t`Selecionar a reserva de ${when}`}
        />
      )}
      {selectable && following.length > 0 && (
        <Button
          variant="subtle"
          size="xs"
          aria-label={t`Selecionar esta semana e as seguintes da série (${when})`}
          onClick={() => {
            for (const week of [booking, ...following]) {
              if (!selected.has(week.id)) send({ type: 'booking.toggle', id: week.id });
            }
          }}
        >
          {t`Selecionar esta e as seguintes`}
        </Button>
      )}
      <BookingFacts booking={booking} series={series} locale={locale} />
      {booking.is_movable && <MoveButton booking={booking} when={when} />}
      {booking.status === 'confirmed' && listOf(booking) === 'active' && (
        <GuestsButton booking={booking} when={when} locale={locale} />
      )}
      {listOf(booking) !== 'active' && <BookAgainButton booking={booking} when={when} send={send} />}
    </li>
  );
}

/**
 * "Book again" (issue 30, item 4): the same branch and time on the next free week, opened in the booking flow
 * with that slot chosen; why not, beside the button, when no week has it free.
 */
function BookAgainButton({ booking, when, send }: { booking: Booking; when: string; send: Send }) {
  const { t } = useLingui();
  const feedbackText = useFeedbackText();
  const again = myBookingsFlow.useSelector((state) =>
    state.context.again?.bookingId === booking.id ? state.context.again : null,
  );
  const finding = myBookingsFlow.useSelector((state) => state.matches('findingAgain'));
  const canAsk = myBookingsFlow.useCan({ type: 'booking.again', id: booking.id });
  return (
    <Group gap="sm" mt="xs">
      <Button
        variant="light"
        size="xs"
        aria-label={t`Reservar de novo (${when})`}
        loading={finding && again !== null}
        disabled={!canAsk}
        onClick={() => send({ type: 'booking.again', id: booking.id })}
      >
        {t`Reservar de novo`}
      </Button>
      {again?.feedback && (
        <Text size="sm" role="status" c="red.4" className="book-again-notice">
          {feedbackText(again.feedback)}
        </Text>
      )}
    </Group>
  );
}

function GroupItem({
  group,
  list,
  series,
  selected,
  send,
  locale,
}: {
  group: BookingGroup;
  list: BookingList;
  series: Map<number, Booking[]>;
  selected: Set<number>;
  send: Send;
  locale: Locale;
}) {
  const render = (booking: Booking) => (
    <BookingCard
      key={booking.id}
      booking={booking}
      series={seriesPlace(series, booking)}
      selectable={list === 'active' && booking.is_cancelable}
      selected={selected}
      send={send}
      locale={locale}
    />
  );
  const [first] = group.bookings;
  if (group.bookings.length === 1 && first) return render(first);
  const timeZone = first?.time_slot_data.branch_data.time_zone ?? 'UTC';
  const count = group.bookings.length;
  return (
    <li className="booking-group">
      <details>
        <summary className="booking-group__summary">
          {timeRange(group.start, group.end, timeZone, locale)}{' '}
          <Text span size="sm" c="gray.4">
            (<Plural value={count} one="# reserva" other="# reservas" />)
          </Text>
        </summary>
        <ul className="booking-list">{group.bookings.map(render)}</ul>
      </details>
    </li>
  );
}

type MachineState = SnapshotFrom<typeof myBookingsMachine>;

/**
 * The door codes that open a door now or soon, first and large: never inside a collapsed group. Each with the
 * window it opens the door in, in the branch's own zone, and "Send my code again".
 */
function DoorCodes({ state, send, locale }: { state: MachineState; send: Send; locale: Locale }) {
  const { t } = useLingui();
  const feedbackText = useFeedbackText();
  const codes = visibleDoorCodes(state.context.bookings);
  if (codes.length === 0) return null;
  const notice = state.context.codeNotice;
  return (
    <section className="door-codes" aria-label={t`Códigos da porta`}>
      {codes.map(({ bookingId, code, validFrom, validUntil, booking }) => {
        const zone = booking.time_slot_data.branch_data.time_zone;
        const sameDay = validFrom.slice(0, 10) === validUntil.slice(0, 10);
        const from = sameDay ? timeOnly(validFrom, zone, locale) : longDateTime(validFrom, zone, locale);
        const until = timeOnly(validUntil, zone, locale);
        const branchName = booking.time_slot_data.branch_data.name;
        const sending = state.matches('resendingCode') && notice?.bookingId === bookingId;
        return (
          <div key={`${bookingId}-${code}`} className="door-code" data-testid="door-code">
            <Text size="sm" c="gray.4">
              <Trans>Código da porta · {branchName}</Trans>
            </Text>
            <Text className="door-code__digits" aria-label={t`Código da porta ${code}`}>
              {code}
            </Text>
            <Text size="sm">
              <Trans>
                válido {from}–{until}, {zone}
              </Trans>
            </Text>
            <Group gap="sm" mt="xs">
              <Button
                size="xs"
                variant="default"
                loading={sending}
                disabled={!state.can({ type: 'code.resend', id: bookingId })}
                onClick={() => send({ type: 'code.resend', id: bookingId })}
              >
                <Trans>Enviar o código novamente</Trans>
              </Button>
              {notice?.bookingId === bookingId && !sending && (
                <Text size="sm" role="status" c={notice.sent ? 'lime.4' : 'red.4'}>
                  {feedbackText(notice.feedback)}
                </Text>
              )}
            </Group>
            {booking.arrival && <ArrivalKit kit={booking.arrival} branchName={branchName} />}
          </div>
        );
      })}
    </section>
  );
}

/** My bookings (docs/decisions.md, 'Client'): per branch, Active (open, selectable), Past and Canceled (closed). */
function MyBookingsLists(_: { openBooking: (slot: BookAgainSlot) => void }) {
  const { t } = useLingui();
  const locale = useLocale();
  const [state, send] = myBookingsFlow.useFlow();
  const { context } = state;

  if (state.matches('loading')) return null;

  const selected = new Set(context.selected);
  const hasSelection = context.selected.length > 0;
  const branches = groupBookings(context.bookings);
  const series = seriesOf(context.bookings);
  const titles: Record<BookingList, string> = {
    active: t`Reservas ativas`,
    past: t`Reservas passadas`,
    canceled: t`Reservas canceladas`,
  };
  const chosen = selectedBookings(context);
  const total = sumEuros(chosen.map((booking) => booking.refundable_eur));
  const totalText = formatEuros(total, locale);
  const dialogOpen = state.matches('dialog');

  return (
    <Stack gap="md">
      {context.cancelled && <CancelledNotice {...context.cancelled} locale={locale} />}
      <DoorCodes state={state} send={send} locale={locale} />
      <Group gap="sm">
        <Button disabled={!state.can({ type: 'dialog.open' })} onClick={() => send({ type: 'dialog.open' })}>
          <Trans>Cancelar as reservas selecionadas</Trans>
        </Button>
        <Button variant="default" disabled={!hasSelection} onClick={() => send({ type: 'selection.clear' })}>
          <Trans>Desmarcar todas</Trans>
        </Button>
      </Group>

      {branches.length === 0 && (
        <Text c="gray.4">
          <Trans>Não foram encontradas reservas</Trans>
        </Text>
      )}

      {branches.map(({ branch, lists }) => (
        <section
          key={branch.id}
          className="account-branch"
          aria-label={`${branch.name} - ${branch.location}`}
        >
          <Title order={3} size="h4" mb="xs">
            {branch.name} - {branch.location}
          </Title>
          {(['active', 'past', 'canceled'] as const).map((list) => (
            <details key={list} open={list === 'active'} className="booking-section">
              <summary className="booking-section__summary">
                {titles[list]} ({lists[list].reduce((count, group) => count + group.bookings.length, 0)})
              </summary>
              {lists[list].length === 0 ? (
                <Text size="sm" c="gray.4">
                  <Trans>Não foram encontradas reservas</Trans>
                </Text>
              ) : (
                <ul className="booking-list">
                  {lists[list].map((group) => (
                    <GroupItem
                      key={group.key}
                      group={group}
                      list={list}
                      series={series}
                      selected={selected}
                      send={send}
                      locale={locale}
                    />
                  ))}
                </ul>
              )}
            </details>
          ))}
        </section>
      ))}

      {(context.olderHistory !== null || state.matches('loadingHistory')) && (
        <Group>
          <Button
            variant="default"
            loading={state.matches('loadingHistory')}
            onClick={() => send({ type: 'history.more' })}
          >
            <Trans>Mostrar reservas mais antigas</Trans>
          </Button>
        </Group>
      )}

      <ConfirmDialog
        opened={dialogOpen}
        title={t`Cancelar reservas`}
        size="lg"
        error={context.error}
        // Named for what they do: "Cancelar" / "Confirmar" read both ways in a dialog about cancelling (issue 30).
        confirm={<Plural value={chosen.length} one="Cancelar a reserva" other="Cancelar as reservas" />}
        dismiss={<Plural value={chosen.length} one="Manter a reserva" other="Manter as reservas" />}
        confirming={!state.matches({ dialog: 'idle' }) && dialogOpen}
        disabled={!hasSelection}
        onCancel={() => send({ type: 'dialog.cancel' })}
        onConfirm={() => send({ type: 'cancellation.confirm' })}
      >
        <div className="cancel-table-wrap" tabIndex={0} role="region" aria-label={t`Reservas a cancelar`}>
          <Table className="cancel-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t`Filial`}</Table.Th>
                <Table.Th>{t`Horário`}</Table.Th>
                <Table.Th>{t`Reembolsável`}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {chosen.map((booking) => {
                const branch = booking.time_slot_data.branch_data;
                const percent = Math.round(refundPercent(booking));
                return (
                  <Table.Tr key={booking.id}>
                    <Table.Td>{branch.name}</Table.Td>
                    <Table.Td>{bookingTimeRange(booking, locale)}</Table.Td>
                    <Table.Td>
                      {formatEuros(booking.refundable_eur, locale)} ({formatPercent(percent, locale)})
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </div>
        <Text fw={700}>
          <Trans>Total a reembolsar: {totalText}</Trans>
        </Text>
      </ConfirmDialog>
    </Stack>
  );
}

const MyBookingsFlow = myBookingsFlow.withProvider(MyBookingsLists, ({ openBooking }) => ({
  ports: { openBooking },
}));

/** My bookings (docs/decisions.md, 'Client'); "Book again" opens the booking modal on the slot it found. */
export function MyBookings() {
  const updateSearch = useUpdateModalSearch();
  return (
    <MyBookingsFlow
      openBooking={(slot) =>
        void updateSearch((previous) => ({
          ...previous,
          account_tab: undefined,
          move_booking_id: undefined,
          booking_tab: 'bookSessions',
          booking_branch_id: slot.branch_id,
          booking_date: slot.date,
          booking_slot_id: slot.time_slot_id,
        }))
      }
    />
  );
}

/** Said once a cancellation is done (issue 30: nothing said it): how many bookings ended, and the refund on its way. */
function CancelledNotice({ count, refundEur, locale }: { count: number; refundEur: number; locale: Locale }) {
  const amount = formatEuros(refundEur, locale);
  return (
    <Alert color="green" variant="light" role="status" className="cancelled-notice">
      <Plural value={count} one="# reserva cancelada." other="# reservas canceladas." />{' '}
      {refundEur > 0 ? (
        <Trans>O reembolso de {amount} chega ao meio de pagamento usado em 5 a 10 dias úteis.</Trans>
      ) : (
        <Trans>Sem reembolso, segundo a política de cancelamento.</Trans>
      )}
    </Alert>
  );
}
