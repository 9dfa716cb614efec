import { createLazyRoute, useParams } from '@tanstack/react-router';
import { createFlowBinding } from '../../app/binding.tsx';
import { NoSuchPage, recordNumber } from '../AdminConsole.tsx';
import type { AdminRuntime } from '../runtime.ts';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Button,
  Card,
  Group,
  NativeSelect,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { createAdminCancelActors } from '../../../machines/adminCancel.actors.ts';
import {
  adminCancelMachine,
  cancelProblem,
  needsApproval,
  refundCentsOf,
} from '../../../machines/adminCancel.machine.ts';
import type { AdminBookingDetail } from '../../../machines/adminConsole.actors.ts';
import { SubmitForm } from '../../ui/SubmitForm.tsx';
import { useAdmin, useIsOwner } from '../context.tsx';
import { ErrorBox } from '../feedback.tsx';
import { useAdminQuery, useAdminTask, useDraft } from '../hooks.ts';
import { ApprovalNotice } from '../parts/approvals.tsx';
import { BookingFlags, PaymentsSection, SeriesLink } from '../parts/booking.tsx';
import {
  Dialog,
  DialogActions,
  type DialogProps,
  ReasonDialog,
  ReasonField,
  usePageDialogs,
} from '../parts/dialogs.tsx';
import { memberName, useMinorUnits, useMoney, useMoneyPurposes, useTimes } from '../parts/format.ts';
import { AdminLink, PageTitle, QueryStatus, Section } from '../parts/layout.tsx';
import { DataTable, Lines } from '../parts/tables.tsx';
import { DayField } from '../dates.tsx';

type Detail = AdminBookingDetail;

/** The cancellation's binding (machines/adminCancel.machine.ts), over the console's own client. */
const cancelFlow = createFlowBinding(
  adminCancelMachine,
  (_runtime, ports: { admin: AdminRuntime; cancelled: () => void }) =>
    adminCancelMachine.provide({
      actors: createAdminCancelActors(ports.admin.api),
      actions: { cancelled: ports.cancelled, sessionEnded: ports.admin.sessionEnded },
    }),
);

/** What the gym still holds of what was paid (a cheaper move's refund already went back): the most to refund. */
function heldCentsOf(detail: Detail): number {
  return Math.round(detail.booking.paid_eur * 100) - Math.round(detail.booking.refunded_eur * 100);
}

function CancelDialog(props: DialogProps<Detail>) {
  const admin = useAdmin();
  const { detail } = props;
  // Staff refund up to the ceiling; above it the cancellation is sent to the owners (owners have no ceiling).
  const ceilingCents = useIsOwner() ? null : Math.round(detail.staff_refund_ceiling_eur * 100);
  return (
    <cancelFlow.Provider
      input={{
        bookingId: detail.booking.id,
        paidCents: heldCentsOf(detail),
        policyCents: Math.round(detail.refundable_eur * 100),
        ceilingCents,
      }}
      ports={{ admin, cancelled: props.onDone }}
    >
      <CancelForm {...props} />
    </cancelFlow.Provider>
  );
}

function CancelForm({ detail, onClose }: DialogProps<Detail>) {
  const { t } = useLingui();
  const money = useMoney();
  const held = heldCentsOf(detail) / 100;
  const [state, send] = cancelFlow.useFlow();
  const problem = cancelProblem(state.context);
  const toOwners = needsApproval(state.context);
  const refund = money(refundCentsOf(state.context) / 100);
  const ceiling = money(detail.staff_refund_ceiling_eur);
  const problemText =
    problem === 'amount-above-paid'
      ? t`O reembolso não pode ser maior do que o valor pago e ainda não reembolsado (${money(held)}).`
      : problem === 'amount-invalid' && state.context.amount !== ''
        ? t`Escreva um valor em euros, por exemplo 12,50.`
        : null;
  return (
    <Dialog onClose={onClose} title={t`Cancelar a reserva #${detail.booking.id}`}>
      <SubmitForm onSubmit={() => send({ type: 'cancel.submit' })}>
        <Stack gap="md">
          <Text size="sm">
            {t`Pago e ainda não reembolsado: ${money(held)}. Pela política de reembolso: ${money(detail.refundable_eur)}.`}
          </Text>
          <Radio.Group
            label={t`Reembolso`}
            value={state.context.mode}
            onChange={(value) => send({ type: 'mode.change', mode: value })}
          >
            <Stack gap={6} mt={6}>
              <Radio value="policy" label={t`Pela política (${money(detail.refundable_eur)})`} />
              <Radio value="full" label={t`Total (${money(held)})`} />
              <Radio value="none" label={t`Nenhum`} />
              <Radio value="amount" label={t`Outro valor`} />
            </Stack>
          </Radio.Group>
          {state.context.mode === 'amount' && (
            <TextInput
              label={t`Valor a reembolsar (€)`}
              inputMode="decimal"
              value={state.context.amount}
              error={problemText}
              onChange={(event) => send({ type: 'amount.change', value: event.currentTarget.value })}
            />
          )}
          <ReasonField
            description={t`Fica no registo de auditoria.`}
            value={state.context.reason}
            onChange={(value) => send({ type: 'reason.change', value })}
          />
          {toOwners && (
            <Alert
              color="yellow"
              variant="light"
              role="note"
              title={t`Precisa da aprovação de um proprietário`}
            >
              {t`O reembolso (${refund}) é maior do que o limite da equipa (${ceiling}): o cancelamento é enviado para aprovação. Nada muda para o cliente, a porta ou o dinheiro até um proprietário aprovar.`}
            </Alert>
          )}
          <DialogActions error={state.context.error} onClose={onClose}>
            <Button
              type="submit"
              color="red"
              loading={state.matches('cancelling')}
              disabled={problem !== null}
            >
              {toOwners ? <Trans>Enviar para aprovação</Trans> : <Trans>Cancelar a reserva</Trans>}
            </Button>
          </DialogActions>
        </Stack>
      </SubmitForm>
    </Dialog>
  );
}

function MoveDialog({ detail, onClose, onDone }: DialogProps<Detail>) {
  const { t } = useLingui();
  const times = useTimes();
  const { booking } = detail;
  const zone = booking.branch.time_zone;
  const money = useMoney();
  const slots = useAdminQuery('moveOptions', {
    bookingId: booking.id,
    date: booking.start_time.slice(0, 10),
  });
  const reasons = {
    current: t`o horário atual`,
    started: t`já começou`,
    closed: t`encerrado`,
    taken: t`ocupado`,
    price_differs: t`outro preço`,
  } as const;
  const movable = slots.data?.filter((slot) => slot.unavailable === null) ?? [];
  const draft = useDraft({ slotId: '' });
  const { slotId } = draft.fields;
  const move = useAdminTask('moveBooking', () => {
    onDone();
  });
  return (
    <ReasonDialog
      title={t`Mudar a reserva #${booking.id}`}
      task={move}
      gap="md"
      action={<Trans>Mudar</Trans>}
      ready={slotId !== ''}
      onRun={(reason) => move.run({ id: booking.id, slotId: Number(slotId), reason })}
      onClose={onClose}
    >
      <DayField
        label={t`Dia`}
        value={slots.params.date}
        onChange={(value) => {
          draft.change({ slotId: '' });
          slots.change({ ...slots.params, date: value });
        }}
      />
      <QueryStatus query={slots} hasData={slots.data !== null} />
      {slots.data && (
        <NativeSelect
          label={t`Novo horário`}
          description={t`Uma mudança pela consola mantém o preço da reserva: só horários livres com o mesmo preço.`}
          value={slotId}
          data={[
            {
              value: '',
              label: movable.length ? t`Escolha um horário livre` : t`Sem horários livres neste dia`,
            },
            ...slots.data.map((slot) => {
              const when = `${times.range(slot.start_time, slot.end_time, zone)} · ${money(slot.price_eur)}`;
              return {
                value: String(slot.id),
                label: slot.unavailable === null ? when : `${when} · ${reasons[slot.unavailable]}`,
                disabled: slot.unavailable !== null,
              };
            }),
          ]}
          onChange={(event) => draft.change({ slotId: event.currentTarget.value })}
        />
      )}
    </ReasonDialog>
  );
}

type HistoryEvent = Detail['history'][number];
type Message = Detail['messages'][number];

/** A history fact in the console's language: its name, then its amount, who and why when it has them. */
function useHistoryText() {
  const { t } = useLingui();
  const amount = useMinorUnits();
  const purposes = useMoneyPurposes();
  const names = {
    created: t`criada`,
    paid: t`paga`,
    code_programmed: t`código programado`,
    code_failed: t`código recusado pela porta`,
    code_sent: t`código enviado`,
    entered: t`entrou`,
    overstay: t`excedeu o tempo`,
    canceled: t`cancelada`,
    refunded: t`reembolsada`,
    expired: t`expirada`,
    moved: t`mudada`,
  } satisfies Record<HistoryEvent['kind'], string>;
  return (event: HistoryEvent) =>
    [
      names[event.kind],
      event.amount_cents !== null && event.currency ? amount(event.amount_cents, event.currency) : null,
      event.purpose ? purposes[event.purpose] : null,
      event.actor ? t`por ${event.actor}` : null,
      event.reason,
      event.error,
    ]
      .filter((part) => part)
      .join(' · ');
}

function useMessageLabels() {
  const { t } = useLingui();
  return {
    kind: {
      booking_confirmed: t`confirmação da reserva`,
      access_code: t`código da porta`,
      booking_canceled: t`cancelamento`,
      late_payment_refunded: t`pagamento tardio reembolsado`,
      booking_moved: t`mudança de horário`,
      booking_move_refunded: t`diferença da mudança reembolsada`,
    } satisfies Record<Message['kind'], string>,
    status: {
      pending: t`por enviar`,
      sent: t`enviada`,
      logged: t`só registada (sem fornecedor)`,
      failed: t`falhou`,
    } satisfies Record<Message['status'], string>,
  };
}

/** A booking's page (issue 18): its state, history, payments and messages; cancel, resend the code, move. */
export function BookingPage({ id }: { id: number }) {
  const { t } = useLingui();
  const money = useMoney();
  const times = useTimes();
  const historyText = useHistoryText();
  const messageLabels = useMessageLabels();
  const query = useAdminQuery('booking', { id });
  const dialogs = usePageDialogs({ cancel: CancelDialog, move: MoveDialog }, query.reload);
  const resend = useAdminTask('resendCode');
  const detail = query.data;
  const live =
    detail !== null && (detail.booking.status === 'confirmed' || detail.booking.status === 'pending');
  return (
    <Stack>
      <AdminLink path={'bookings'} size="sm">
        ← <Trans>Reservas</Trans>
      </AdminLink>
      <PageTitle>{t`Reserva #${id}`}</PageTitle>
      <QueryStatus query={query} hasData={detail !== null} />
      {detail && (
        <>
          <Card withBorder>
            <Stack gap="xs">
              <Text fw={600}>
                {detail.booking.branch.name} ·{' '}
                {times.range(
                  detail.booking.start_time,
                  detail.booking.end_time,
                  detail.booking.branch.time_zone,
                )}
              </Text>
              <Text size="sm">
                {detail.booking.member ? (
                  <AdminLink path={`members/${detail.booking.member.id}`}>
                    {memberName(detail.booking.member)}
                  </AdminLink>
                ) : (
                  '—'
                )}{' '}
                {detail.booking.member?.email} {detail.booking.member?.phone_number}
              </Text>
              <BookingFlags booking={detail.booking} />
              <SeriesLink series={detail.booking.series} />
              <Text size="sm">
                {t`Preço ${money(detail.booking.final_price_eur)} · pago ${money(detail.booking.paid_eur)} · reembolsado ${money(detail.booking.refunded_eur)}`}
                {detail.booking.coupon_code ? ` · ${detail.booking.coupon_code}` : ''}
              </Text>
              <Group gap="sm" mt="xs">
                <Button color="red" variant="light" disabled={!live} onClick={() => dialogs.open('cancel')}>
                  <Trans>Cancelar…</Trans>
                </Button>
                <Button variant="default" disabled={!live} onClick={() => dialogs.open('move')}>
                  <Trans>Mudar de horário…</Trans>
                </Button>
                <Button
                  variant="default"
                  disabled={!live}
                  loading={resend.state.matches('running')}
                  onClick={() => resend.run({ id })}
                >
                  <Trans>Reenviar o código da porta</Trans>
                </Button>
              </Group>
              {detail.refund_approval && <ApprovalNotice approval={detail.refund_approval} />}
              {resend.state.matches('done') && (
                <Alert color="green" variant="light" role="status">
                  <Trans>O código da porta foi enviado novamente.</Trans>
                </Alert>
              )}
              <ErrorBox error={resend.state.context.error} />
            </Stack>
          </Card>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Section id="booking-history" title={<Trans>Histórico</Trans>}>
              <Lines
                items={detail.history}
                itemKey={(event, index) => `${event.at}-${event.kind}-${index}`}
                line={(event) => `${times.instant(event.at)} · ${historyText(event)}`}
              />
            </Section>
            <PaymentsSection
              id="booking-payments"
              payments={detail.payments}
              bookingId={detail.booking.id}
              note={(movement) => movement.reason}
            />
          </SimpleGrid>
          <Section
            id="booking-messages"
            title={<Trans>Mensagens</Trans>}
            empty={detail.messages.length === 0 && <Trans>Sem mensagens</Trans>}
          >
            <DataTable
              minWidth={480}
              dense
              rows={detail.messages}
              cells={(message) => [
                times.instant(message.created_at),
                message.channel === 'sms' ? 'SMS' : t`e-mail`,
                message.to,
                messageLabels.kind[message.kind],
                message.subject,
                messageLabels.status[message.status],
              ]}
            />
          </Section>
          {dialogs.render(detail)}
        </>
      )}
    </Stack>
  );
}

/** `/{lang}/admin/bookings/<id>`: a booking's page; an address with no booking number is no page. */
function BookingRoute() {
  const { bookingId } = useParams({ from: '/$lang/admin/bookings/$bookingId' });
  const id = recordNumber(bookingId);
  return id === null ? <NoSuchPage /> : <BookingPage key={id} id={id} />;
}

export const Route = createLazyRoute('/$lang/admin/bookings/$bookingId')({ component: BookingRoute });
