import { createLazyRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Group, NativeSelect, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import type { BranchDoorPage } from '../../../machines/adminConsole.actors.ts';
import { createAdminDoorUnlockActors } from '../../../machines/adminDoorUnlock.actors.ts';
import { adminDoorUnlockMachine, isUnlockReady } from '../../../machines/adminDoorUnlock.machine.ts';
import { createFlowBinding } from '../../app/binding.tsx';
import { SubmitForm } from '../../ui/SubmitForm.tsx';
import { useAdmin, useAdminLocale, useIsOwner } from '../context.tsx';
import { DayField } from '../dates.tsx';
import { ErrorBox } from '../feedback.tsx';
import { useAdminTask, useBranchOptions, useDraft, useSearchQuery } from '../hooks.ts';
import { Dialog, DialogActions, ReasonField } from '../parts/dialogs.tsx';
import { AdminLink, ConsolePage, Empty, QueryStatus, SectionCard } from '../parts/layout.tsx';
import { DataTable } from '../parts/tables.tsx';
import { DoorBadges } from '../parts/doors.tsx';
import type { AdminRuntime } from '../runtime.ts';
import { intlTag } from '../../i18n/format.ts';

/**
 * The door page of a branch (issue 32, item 1): each door's state, battery and codes, 'Open now' with a reason
 * (machines/adminDoorUnlock.machine.ts), the doors' events, the period's no-shows and overstays, and the
 * branch's on-call contacts for door alerts (owners change them).
 */

type Door = BranchDoorPage['doors'][number];
type FeedItem = BranchDoorPage['feed'][number];
type Attendance = BranchDoorPage['no_shows'][number];

const unlockFlow = createFlowBinding(
  adminDoorUnlockMachine,
  (_runtime, ports: { admin: AdminRuntime; opened: () => void }) =>
    adminDoorUnlockMachine.provide({
      actors: createAdminDoorUnlockActors(ports.admin.api),
      actions: { opened: ports.opened, sessionEnded: ports.admin.sessionEnded },
    }),
);

/** A moment in the branch's zone, in the console's language. */
function useBranchTime() {
  const tag = intlTag(useAdminLocale());
  return (iso: string, zone: string) =>
    new Date(iso).toLocaleString(tag, { dateStyle: 'short', timeStyle: 'short', timeZone: zone });
}

function UnlockDialog({
  branchId,
  door,
  onClose,
  onOpened,
}: {
  branchId: number;
  door: Door;
  onClose: () => void;
  onOpened: () => void;
}) {
  const admin = useAdmin();
  return (
    <unlockFlow.Provider input={{ branchId, deviceId: door.device_id }} ports={{ admin, opened: onOpened }}>
      <UnlockForm door={door} onClose={onClose} />
    </unlockFlow.Provider>
  );
}

function UnlockForm({ door, onClose }: { door: Door; onClose: () => void }) {
  const { t } = useLingui();
  const [state, send] = unlockFlow.useFlow();
  const name = door.name ?? door.device_id;
  if (state.matches('opened'))
    return (
      <Dialog onClose={onClose} title={t`Abrir ${name} agora`}>
        <Stack gap="md">
          <Text role="status" c="green.9">
            <Trans>A porta abriu. A abertura ficou registada com o motivo.</Trans>
          </Text>
          <Group justify="flex-end">
            <Button onClick={onClose}>
              <Trans>Fechar</Trans>
            </Button>
          </Group>
        </Stack>
      </Dialog>
    );
  return (
    <Dialog onClose={onClose} title={t`Abrir ${name} agora`}>
      <SubmitForm onSubmit={() => send({ type: 'unlock.submit' })}>
        <Stack gap="md">
          <Text size="sm">
            <Trans>
              A porta abre à distância, para um cliente que não consegue entrar. Cada tentativa fica no
              registo de auditoria, com o motivo e o resultado.
            </Trans>
          </Text>
          <ReasonField
            description={t`Por exemplo: cliente da reserva #123 à porta, código recusado.`}
            value={state.context.reason}
            onChange={(value) => send({ type: 'reason.change', value })}
          />
          <DialogActions error={state.context.error} onClose={onClose}>
            <Button
              type="submit"
              color="red"
              loading={state.matches('unlocking')}
              disabled={!isUnlockReady(state.context)}
            >
              <Trans>Abrir agora</Trans>
            </Button>
          </DialogActions>
        </Stack>
      </SubmitForm>
    </Dialog>
  );
}

function DoorCard({ door, onOpen }: { door: Door; onOpen: () => void }) {
  const { t } = useLingui();
  const codes: [string, number][] = [
    [t`programados`, door.codes.set],
    [t`a programar`, door.codes.pending + door.codes.programming],
    [t`recusados`, door.codes.failed],
    [t`a apagar`, door.codes.revoking],
  ];
  return (
    <Card withBorder component="section" aria-label={door.name ?? door.device_id}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Text fw={600}>{door.name ?? door.device_id}</Text>
          <Button color="red" size="xs" onClick={onOpen}>
            <Trans>Abrir agora…</Trans>
          </Button>
        </Group>
        <Group gap={6}>
          <DoorBadges online={door.online} batteryLevel={door.battery_level} />
        </Group>
        <Text size="sm">
          <Trans>Códigos:</Trans>{' '}
          {codes
            .filter(([, count], index) => count > 0 || index === 0)
            .map(([label, count]) => `${count} ${label}`)
            .join(' · ')}
        </Text>
        {door.provider_error && (
          <Text size="xs" c="red.9">
            {t`O fornecedor das fechaduras não respondeu; estado e bateria são os últimos conhecidos.`}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

function useFeedText() {
  const { t } = useLingui();
  const kinds: Record<FeedItem['kind'], string> = {
    entry: t`Entrada`,
    opened: t`Porta aberta sem código`,
    offline: t`Porta sem ligação`,
    online: t`Porta ligada`,
    low_battery: t`Bateria fraca`,
    tampered: t`Porta forçada`,
    code_failed: t`A porta recusou um código`,
    remote_unlock: t`Aberta à distância`,
  };
  const outcomes: Record<NonNullable<FeedItem['outcome']>, string> = {
    opening: t`a abrir`,
    opened: t`abriu`,
    offline: t`porta sem ligação`,
    failed: t`não confirmada`,
  };
  return { kind: (item: FeedItem) => kinds[item.kind], outcome: (item: FeedItem) => outcomes[item.outcome!] };
}

function FeedDetail({ item }: { item: FeedItem }) {
  const text = useFeedText();
  if (item.kind === 'remote_unlock')
    return (
      <Text size="sm">
        {item.operator} ({text.outcome(item)}): {item.reason}
      </Text>
    );
  return (
    <Text size="sm">
      {item.booking_id !== null && (
        <AdminLink path={`bookings/${item.booking_id}`}>#{item.booking_id}</AdminLink>
      )}
      {item.error && ` ${item.error}`}
    </Text>
  );
}

function AttendanceTable({ rows, zone, label }: { rows: Attendance[]; zone: string; label: string }) {
  const { t } = useLingui();
  const at = useBranchTime();
  if (rows.length === 0)
    return (
      <Empty>
        <Trans>Nenhuma neste período.</Trans>
      </Empty>
    );
  return (
    <DataTable
      minWidth={360}
      label={label}
      headers={[t`Reserva`, t`Início`, t`Cliente`, t`Registado`]}
      rows={rows}
      rowKey={(row) => row.booking_id}
      nowrap={[0, 1]}
      cells={(row) => [
        <AdminLink path={`bookings/${row.booking_id}`}>#{row.booking_id}</AdminLink>,
        at(row.start_time, zone),
        row.member ?? '—',
        at(row.at, zone),
      ]}
    />
  );
}

function OnCall({ page, onSaved }: { page: BranchDoorPage; onSaved: () => void }) {
  const { t } = useLingui();
  const owner = useIsOwner();
  const draft = useDraft({ email: page.on_call.email ?? '', phone: page.on_call.phone ?? '' });
  const save = useAdminTask('setOnCall', onSaved);
  if (!owner)
    return (
      <Text size="sm">
        {page.on_call.email ?? t`Sem e-mail próprio: os alertas vão para o e-mail do operador.`}
        {page.on_call.phone ? ` · ${page.on_call.phone}` : ''}
      </Text>
    );
  return (
    <SubmitForm onSubmit={() => save.run({ branchId: page.branch.id, ...draft.fields })}>
      <Stack gap="sm">
        <Text size="sm">
          <Trans>
            Os alertas das portas desta filial vão para este e-mail e, por SMS, para este telefone. Sem
            e-mail, vão para o e-mail do operador.
          </Trans>
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t`E-mail de piquete`}
            type="email"
            maxLength={254}
            value={draft.fields.email}
            onChange={(event) => draft.change({ email: event.currentTarget.value })}
          />
          <TextInput
            label={t`Telefone de piquete (SMS)`}
            type="tel"
            maxLength={32}
            placeholder="+351912345678"
            value={draft.fields.phone}
            onChange={(event) => draft.change({ phone: event.currentTarget.value })}
          />
        </SimpleGrid>
        <ErrorBox error={save.state.context.error} />
        <Group>
          <Button type="submit" variant="default" loading={save.state.matches('running')}>
            <Trans>Guardar contactos</Trans>
          </Button>
          {save.state.matches('done') && (
            <Text size="sm" role="status">
              <Trans>Guardado.</Trans>
            </Text>
          )}
        </Group>
      </Stack>
    </SubmitForm>
  );
}

function Doors() {
  const { t } = useLingui();
  const query = useSearchQuery('branchDoors', { branchId: null, from: '', to: '' });
  const branches = useBranchOptions();
  const at = useBranchTime();
  const feedText = useFeedText();
  const [opening, setOpening] = useState<Door | null>(null);
  const page = query.data;
  const zone = page?.branch.time_zone ?? 'UTC';
  return (
    <ConsolePage
      title={<Trans>Portas</Trans>}
      actions={
        <Group gap="xs" wrap="wrap" align="flex-end">
          <NativeSelect
            label={t`Filial`}
            size="xs"
            value={page ? String(page.branch.id) : ''}
            data={branches.options}
            onChange={(event) =>
              query.change({ ...query.params, branchId: Number(event.currentTarget.value) })
            }
          />
          <DayField
            label={t`Desde`}
            size="xs"
            value={query.params.from}
            onChange={(value) => query.change({ ...query.params, from: value })}
          />
          <DayField
            label={t`Até`}
            size="xs"
            value={query.params.to}
            onChange={(value) => query.change({ ...query.params, to: value })}
          />
        </Group>
      }
    >
      <QueryStatus query={query} hasData={page != null} />
      {page && (
        <Stack gap="lg">
          <Title order={3} size="h4">
            {page.branch.name}
          </Title>
          {page.doors.length === 0 ? (
            <Empty>
              <Trans>Sem portas ligadas</Trans>
            </Empty>
          ) : (
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              {page.doors.map((door) => (
                <DoorCard key={door.device_id} door={door} onOpen={() => setOpening(door)} />
              ))}
            </SimpleGrid>
          )}
          {opening && (
            <UnlockDialog
              branchId={page.branch.id}
              door={opening}
              onClose={() => setOpening(null)}
              onOpened={() => query.reload()}
            />
          )}
          <SectionCard id="door-events" title={<Trans>Eventos das portas</Trans>}>
            {page.feed.length === 0 ? (
              <Empty>
                <Trans>Ainda sem eventos.</Trans>
              </Empty>
            ) : (
              <DataTable
                minWidth={420}
                dense
                label={t`Eventos das portas`}
                headers={[t`Quando`, t`Evento`, t`Detalhe`]}
                rows={page.feed}
                rowKey={(item) => `${item.at}-${item.kind}-${item.device_id}-${item.reason ?? ''}`}
                nowrap={[0]}
                cells={(item) => [at(item.at, zone), feedText.kind(item), <FeedDetail item={item} />]}
              />
            )}
          </SectionCard>
          <SimpleGrid cols={{ base: 1, lg: 2 }}>
            <SectionCard id="door-no-shows" title={<Trans>Não compareceram</Trans>}>
              <AttendanceTable rows={page.no_shows} zone={zone} label={t`Não compareceram`} />
            </SectionCard>
            <SectionCard id="door-overstays" title={<Trans>Excederam o tempo</Trans>}>
              <AttendanceTable rows={page.overstays} zone={zone} label={t`Excederam o tempo`} />
            </SectionCard>
          </SimpleGrid>
          <SectionCard id="door-on-call" title={<Trans>Piquete de alertas</Trans>}>
            <OnCall key={page.branch.id} page={page} onSaved={() => query.reload()} />
          </SectionCard>
        </Stack>
      )}
    </ConsolePage>
  );
}

export const Route = createLazyRoute('/$lang/admin/doors')({ component: Doors });
