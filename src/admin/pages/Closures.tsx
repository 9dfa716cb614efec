import { createLazyRoute } from '@tanstack/react-router';
import { createFlowBinding } from '../../app/binding.tsx';
import type { AdminRuntime } from '../runtime.ts';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Button, Card, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { createAdminClosureActors } from '../../../machines/adminClosure.actors.ts';
import { adminClosureMachine, isClosureComplete } from '../../../machines/adminClosure.machine.ts';
import { SubmitForm } from '../../ui/SubmitForm.tsx';
import { useAdmin } from '../context.tsx';
import { ErrorBox } from '../feedback.tsx';
import { useAdminQuery, useAdminTask } from '../hooks.ts';
import { ConfirmActions } from '../parts/dialogs.tsx';
import { memberName, useMoney, useTimes } from '../parts/format.ts';
import { ConsolePage, Empty, QueryStatus, SectionCard } from '../parts/layout.tsx';
import { DataTable } from '../parts/tables.tsx';
import { BranchPeriodFields } from '../parts/branch-period.tsx';

/** Closures (issue 18): close a branch for a period after seeing the bookings it cancels; reopen one. */
/** The closure form's binding (machines/adminClosure.machine.ts), over the console's own client. */
const closureFlow = createFlowBinding(
  adminClosureMachine,
  (_runtime, ports: { admin: AdminRuntime; closed: () => void }) =>
    adminClosureMachine.provide({
      actors: createAdminClosureActors(ports.admin.api),
      actions: { closed: ports.closed, sessionEnded: ports.admin.sessionEnded },
    }),
);

type ClosureList = ReturnType<typeof useClosureList>;

function useClosureList() {
  return useAdminQuery('closures', { branchId: null });
}

function Closures() {
  const admin = useAdmin();
  const list = useClosureList();
  return (
    <closureFlow.Provider ports={{ admin, closed: () => list.reload() }}>
      <ClosuresPage list={list} />
    </closureFlow.Provider>
  );
}

function ClosuresPage({ list }: { list: ClosureList }) {
  const { t } = useLingui();
  const money = useMoney();
  const times = useTimes();
  const [state, send] = closureFlow.useFlow();
  const reopen = useAdminTask('reopenClosure', () => list.reload());
  const { fields, preview } = state.context;
  const editing = state.matches('editing') || state.matches('previewing');
  const refundTotal = preview ? money(preview.refund_total_eur) : '';
  return (
    <ConsolePage title={<Trans>Encerramentos</Trans>}>
      <SectionCard id="closure-new" title={<Trans>Encerrar uma filial</Trans>}>
        {editing && (
          <SubmitForm onSubmit={() => send({ type: 'closure.preview' })}>
            <Stack gap="sm">
              <BranchPeriodFields
                branchId={fields.branchId}
                from={fields.from}
                to={fields.to}
                onBranch={(branchId, timeZone) => send({ type: 'branch.change', branchId, timeZone })}
                onPeriod={(field, value) => send({ type: 'field.change', field, value })}
              />
              <Textarea
                label={t`Motivo (dito aos clientes)`}
                required
                maxLength={500}
                value={fields.reason}
                onChange={(event) =>
                  send({ type: 'field.change', field: 'reason', value: event.currentTarget.value })
                }
              />
              <ErrorBox error={state.context.error} />
              <Group>
                <Button
                  type="submit"
                  loading={state.matches('previewing')}
                  disabled={!isClosureComplete(fields)}
                >
                  <Trans>Ver as reservas afetadas</Trans>
                </Button>
              </Group>
            </Stack>
          </SubmitForm>
        )}
        {(state.matches('reviewing') || state.matches('closing')) && preview && (
          <Stack gap="sm">
            <Text>
              <Plural
                value={preview.bookings.length}
                _0="Nenhuma reserva é cancelada."
                one={`# reserva será cancelada e reembolsada por inteiro (${refundTotal}).`}
                other={`# reservas serão canceladas e reembolsadas por inteiro (${refundTotal}).`}
              />{' '}
              <Plural
                value={preview.slots}
                one="# horário fica fechado."
                other="# horários ficam fechados."
              />{' '}
              <Trans>Cada cliente recebe uma mensagem na sua língua.</Trans>
            </Text>
            {preview.bookings.length > 0 && (
              <DataTable
                minWidth={420}
                dense
                rows={preview.bookings}
                cells={(booking) => [
                  `#${booking.id}`,
                  times.range(booking.start_time, booking.end_time, booking.branch.time_zone),
                  memberName(booking.member),
                  // What the closure refunds: all the gym still holds of what was paid.
                  money((Math.round(booking.paid_eur * 100) - Math.round(booking.refunded_eur * 100)) / 100),
                ]}
              />
            )}
            <ErrorBox error={state.context.error} />
            <Group>
              <Button
                variant="default"
                onClick={() => send({ type: 'closure.back' })}
                disabled={state.matches('closing')}
              >
                <Trans>Voltar</Trans>
              </Button>
              <Button
                color="red"
                loading={state.matches('closing')}
                onClick={() => send({ type: 'closure.confirm' })}
              >
                <Trans>Encerrar e reembolsar</Trans>
              </Button>
            </Group>
          </Stack>
        )}
        {state.matches('closed') && (
          <Stack gap="sm" align="flex-start">
            <Alert color="green" variant="light" role="status">
              <Trans>
                A filial está encerrada nesse período. As reservas foram canceladas e os clientes avisados.
              </Trans>
            </Alert>
            <Button variant="default" onClick={() => send({ type: 'closure.again' })}>
              <Trans>Encerrar outro período</Trans>
            </Button>
          </Stack>
        )}
      </SectionCard>
      <section aria-labelledby="closure-list">
        <Title order={3} size="h5" id="closure-list" mb="sm">
          <Trans>Encerramentos registados</Trans>
        </Title>
        <QueryStatus query={list} hasData={list.data !== null} />
        {list.data?.length === 0 && (
          <Empty>
            <Trans>Nenhum encerramento.</Trans>
          </Empty>
        )}
        <Stack gap="sm">
          {list.data?.map((closure) => (
            <Card withBorder key={closure.id} padding="sm">
              <Group justify="space-between" wrap="wrap">
                <Stack gap={2}>
                  <Text fw={600}>
                    {closure.branch.name} ·{' '}
                    {times.range(closure.starts_at, closure.ends_at, closure.branch.time_zone)}
                  </Text>
                  <Text size="sm">{closure.reason}</Text>
                  <Text size="xs" c="gray.4">
                    <Plural
                      value={closure.canceled_booking_ids.length}
                      one="# reserva cancelada"
                      other="# reservas canceladas"
                    />
                    {' · '}
                    {t`por ${closure.created_by}`}
                  </Text>
                </Stack>
                {closure.reopened_at ? (
                  <Badge variant="light">{t`reaberta ${times.instant(closure.reopened_at)}`}</Badge>
                ) : (
                  <Button variant="default" size="xs" onClick={() => reopen.ask({ id: closure.id })}>
                    <Trans>Reabrir…</Trans>
                  </Button>
                )}
              </Group>
              {reopen.input?.id === closure.id &&
                (reopen.state.matches('confirming') || reopen.state.matches('running')) && (
                  <Stack gap="xs" mt="sm">
                    <Text size="sm">
                      <Trans>
                        Os horários deste período voltam a aceitar reservas. As reservas canceladas não
                        voltam.
                      </Trans>
                    </Text>
                    <ConfirmActions task={reopen} onConfirm={reopen.confirm}>
                      <Trans>Reabrir os horários</Trans>
                    </ConfirmActions>
                  </Stack>
                )}
            </Card>
          ))}
        </Stack>
      </section>
    </ConsolePage>
  );
}

export const Route = createLazyRoute('/$lang/admin/closures')({ component: Closures });
