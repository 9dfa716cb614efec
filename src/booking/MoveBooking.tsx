import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import type { Branch } from '../../machines/branches.ts';
import { priceDifferenceEur, shownDifferenceEur } from '../../machines/move.machine.ts';
import { timeRange } from '../account/time.ts';
import { useFeedbackText } from '../auth/feedback.tsx';
import { useUpdateModalSearch } from '../auth/useModalSearch.ts';
import { formatEuros } from '../i18n/format.ts';
import { useLocale } from '../shell/navigation.ts';
import { MonthCalendar, Price } from './BookSessions.tsx';
import { Checkout } from './Checkout.tsx';
import { formatDay, todayIn } from './dates.ts';
import { slotTimes } from '../account/time.ts';
import { moveFlow } from './useMove.tsx';

/** '+€5.00 to pay', '€3.00 refunded', 'same price': what a move costs, in the member's words. */
function Difference({ amount }: { amount: number }) {
  const locale = useLocale();
  const euros = formatEuros(Math.abs(amount), locale);
  if (amount > 0) return <Trans>Diferença a pagar: {euros}</Trans>;
  if (amount < 0) return <Trans>Diferença a reembolsar: {euros}</Trans>;
  return <Trans>O preço é o mesmo.</Trans>;
}

/**
 * The booking modal in move mode (docs/decisions.md, "Moving a booking"): the booking's branch, one slot to
 * pick, the price difference to confirm; a dearer slot goes through the checkout for the difference.
 */
export const MoveFlow = moveFlow.withProvider(MoveSteps, ({ branch, bookingId }: MoveFlowProps) => ({
  input: { bookingId, fallbackToday: todayIn(branch.time_zone) },
}));

type MoveFlowProps = { branch: Branch; bookingId: number; hidden: boolean };

function MoveSteps({ branch, hidden }: MoveFlowProps) {
  const { t } = useLingui();
  const locale = useLocale();
  const updateSearch = useUpdateModalSearch();
  const feedbackText = useFeedbackText();
  const [state, send] = moveFlow.useFlow();
  const { booking, slots, selected, date, error, clientSecret, refundedEur } = state.context;
  const close = () =>
    updateSearch((previous) => ({
      ...previous,
      booking_tab: undefined,
      booking_branch_id: undefined,
      move_booking_id: undefined,
      account_tab: 'myBookings',
    }));
  const difference = shownDifferenceEur(state.context);
  const current = booking
    ? timeRange(
        booking.time_slot_data.start_time,
        booking.time_slot_data.end_time,
        booking.time_slot_data.branch_data.time_zone,
        locale,
      )
    : '';
  const branchName = branch.name;
  const movedTo = selected ? timeRange(selected.start_time, selected.end_time, branch.time_zone, locale) : '';

  return (
    <>
      <Modal
        opened={!hidden && !state.matches('payment')}
        onClose={() => void close()}
        closeButtonProps={{ 'aria-label': t`Fechar` }}
        closeOnEscape={!state.matches('reviewing')}
        title={<span className="booking-title">{t`Mudar reserva em ${branchName}`}</span>}
        size="xl"
        zIndex={200}
      >
        {state.matches('loadingBooking') && (
          <Text c="dimmed" role="status">
            <Trans>A carregar a reserva…</Trans>
          </Text>
        )}
        {state.matches('unavailable') && (
          <Stack>
            <Alert color="red" role="alert">
              {error ? feedbackText(error) : <Trans>Esta reserva já não pode ser mudada.</Trans>}
            </Alert>
            <Button onClick={() => void close()}>
              <Trans>Fechar</Trans>
            </Button>
          </Stack>
        )}
        {state.matches('moved') && (
          <Stack>
            <Alert color="green" role="status">
              <Trans>
                A sua reserva foi mudada para {movedTo}, {branchName}.
              </Trans>{' '}
              {refundedEur !== null && refundedEur > 0 ? (
                <Trans>
                  Reembolsámos a diferença de {formatEuros(refundedEur, locale)} para o cartão usado no
                  pagamento.
                </Trans>
              ) : (
                <Trans>O preço é o mesmo: não há nada a pagar nem a reembolsar.</Trans>
              )}{' '}
              <Trans>Enviámos-lhe o evento de calendário atualizado por e-mail.</Trans>
            </Alert>
            <Button onClick={() => void close()}>
              <Trans>Fechar</Trans>
            </Button>
          </Stack>
        )}
        {(state.matches('loadingToday') || state.matches('browsing') || state.matches('reviewing')) &&
          booking && (
            <div className="booking-layout">
              <Stack gap="md">
                <Text>
                  <Trans>Reserva atual: {current}</Trans>
                </Text>
                <MonthCalendar
                  month={state.context.month}
                  date={date}
                  canSelect={(cell) => state.can({ type: 'date.select', date: cell })}
                  send={send}
                  locale={locale}
                />
              </Stack>
              <Stack gap="md">
                <Title order={3} size="h4" className="summary-date">
                  {formatDay(date, locale)}
                </Title>
                {error && state.matches('browsing') && (
                  <Alert color="red" role="alert">
                    {feedbackText(error)}
                  </Alert>
                )}
                {state.matches({ browsing: 'failed' }) ? (
                  <Alert color="red" role="alert">
                    <Trans>Não foi possível obter os horários. Tente novamente mais tarde.</Trans>
                  </Alert>
                ) : state.matches({ browsing: 'loading' }) || state.matches('loadingToday') ? (
                  <Text c="dimmed" role="status">
                    <Trans>A carregar os horários…</Trans>
                  </Text>
                ) : slots.length === 0 ? (
                  <Text c="dimmed">
                    <Trans>Não há horários neste dia.</Trans>
                  </Text>
                ) : (
                  <div className="slot-grid" role="group" aria-label={t`Horários`}>
                    {slots.map((slot) => (
                      <button
                        key={slot.id}
                        type="button"
                        className="slot"
                        aria-pressed={selected?.id === slot.id}
                        disabled={!state.can({ type: 'slot.select', slot })}
                        onClick={() => send({ type: 'slot.select', slot })}
                      >
                        <span className="slot__time">{slotTimes(slot, locale)}</span>
                        <Price slot={slot} discount={booking.coupon_discount} locale={locale} />
                      </button>
                    ))}
                  </div>
                )}
                {selected && (
                  <Text>
                    <Difference amount={priceDifferenceEur(booking, selected)} />
                  </Text>
                )}
                <Button
                  disabled={!state.can({ type: 'review.open' })}
                  onClick={() => send({ type: 'review.open' })}
                >
                  <Trans>Mudar para este horário</Trans>
                </Button>
              </Stack>
            </div>
          )}
      </Modal>
      <Modal
        opened={!hidden && state.matches('reviewing')}
        onClose={() => send({ type: 'review.close' })}
        closeButtonProps={{ 'aria-label': t`Fechar` }}
        title={<span className="booking-title">{t`Confirmar a mudança`}</span>}
        zIndex={300}
        centered
      >
        {selected && difference !== null && (
          <Stack>
            <Text>
              <Trans>De: {current}</Trans>
            </Text>
            <Text>
              <Trans>
                Para: {formatDay(date, locale)}, {slotTimes(selected, locale)}
              </Trans>
            </Text>
            <Text fw={600}>
              <Difference amount={difference} />
            </Text>
            {error && (
              <Alert color="red" role="alert">
                {feedbackText(error)}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => send({ type: 'review.close' })}>
                <Trans>Cancelar</Trans>
              </Button>
              <Button
                loading={state.matches({ reviewing: 'moving' })}
                onClick={() => send({ type: 'move.confirm' })}
              >
                {difference > 0 ? <Trans>Pagar a diferença</Trans> : <Trans>Confirmar a mudança</Trans>}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
      <Modal
        opened={!hidden && state.matches('payment')}
        onClose={() => void close()}
        closeButtonProps={{ 'aria-label': t`Fechar` }}
        title={<span className="booking-title">{t`Pagamento`}</span>}
        zIndex={300}
        size="lg"
        centered
      >
        {clientSecret && (
          <Checkout
            clientSecret={clientSecret}
            failed={state.matches({ payment: 'failed' })}
            onFailed={() => send({ type: 'payment.failed' })}
          />
        )}
      </Modal>
    </>
  );
}
