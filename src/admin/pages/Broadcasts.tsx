import { createLazyRoute } from '@tanstack/react-router';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Fieldset,
  Group,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { createFlowBinding } from '../../app/binding.tsx';
import { createAdminBroadcastActors } from '../../../machines/adminBroadcast.actors.ts';
import {
  adminBroadcastMachine,
  BROADCAST_LOCALES,
  isBroadcastComplete,
  smsLength,
  type BroadcastLocale,
} from '../../../machines/adminBroadcast.machine.ts';
import type { Broadcast, BroadcastDetail } from '../../../machines/adminConsole.actors.ts';
import { LOCALE_NAMES } from '../../i18n/locales.ts';
import { SubmitForm } from '../../ui/SubmitForm.tsx';
import type { AdminRuntime } from '../runtime.ts';
import { useAdmin } from '../context.tsx';
import { ErrorBox } from '../feedback.tsx';
import { useAdminQuery } from '../hooks.ts';
import { useTimes } from '../parts/format.ts';
import { ConsolePage, Empty, QueryStatus, SectionCard } from '../parts/layout.tsx';
import { DataTable } from '../parts/tables.tsx';
import { BranchPeriodFields } from '../parts/branch-period.tsx';

/** Talking to members (issue 32): a message to everyone booked at a branch in a period, and how each went. */
const broadcastFlow = createFlowBinding(
  adminBroadcastMachine,
  (_runtime, ports: { admin: AdminRuntime; sent: () => void }) =>
    adminBroadcastMachine.provide({
      actors: createAdminBroadcastActors(ports.admin.api),
      actions: { sent: ports.sent, sessionEnded: ports.admin.sessionEnded },
    }),
);

type BroadcastList = ReturnType<typeof useBroadcastList>;

function useBroadcastList() {
  return useAdminQuery('broadcasts');
}

function Broadcasts() {
  const admin = useAdmin();
  const list = useBroadcastList();
  return (
    <broadcastFlow.Provider ports={{ admin, sent: () => list.reload() }}>
      <BroadcastsPage list={list} />
    </broadcastFlow.Provider>
  );
}

function SmsLength({ text }: { text: string }) {
  const { characters, parts } = smsLength(text);
  return (
    <Text size="xs" c="dimmed" aria-live="polite">
      <Plural value={characters} one="# carácter" other="# caracteres" />
      {' · '}
      <Plural value={parts} _0="nenhum SMS" one="# SMS" other="# SMS (mensagem longa)" />
    </Text>
  );
}

function BroadcastForm() {
  const { t } = useLingui();
  const [state, send] = broadcastFlow.useFlow();
  const { fields } = state.context;
  return (
    <SubmitForm onSubmit={() => send({ type: 'broadcast.preview' })}>
      <Stack gap="sm">
        <BranchPeriodFields
          branchId={fields.branchId}
          from={fields.from}
          to={fields.to}
          onBranch={(branchId, timeZone) => send({ type: 'branch.change', branchId, timeZone })}
          onPeriod={(field, value) => send({ type: 'field.change', field, value })}
        />
        <Fieldset legend={t`Enviar por`} variant="unstyled">
          <Group gap="lg">
            <Checkbox
              label={t`E-mail`}
              checked={fields.email}
              onChange={(event) =>
                send({ type: 'channel.toggle', channel: 'email', on: event.currentTarget.checked })
              }
            />
            <Checkbox
              label={t`SMS`}
              checked={fields.sms}
              onChange={(event) =>
                send({ type: 'channel.toggle', channel: 'sms', on: event.currentTarget.checked })
              }
            />
          </Group>
        </Fieldset>
        <Fieldset legend={t`Línguas do texto`} variant="unstyled">
          <Text size="sm" c="dimmed" mb="xs">
            <Trans>
              O texto em português é obrigatório. Quem tem outra língua sem texto escrito recebe o texto em
              português.
            </Trans>
          </Text>
          <Group gap="lg">
            {BROADCAST_LOCALES.filter((locale) => locale !== 'pt').map((locale) => (
              <Checkbox
                key={locale}
                label={LOCALE_NAMES[locale]}
                checked={fields.languages.includes(locale)}
                onChange={(event) =>
                  send({ type: 'language.toggle', locale, on: event.currentTarget.checked })
                }
              />
            ))}
          </Group>
        </Fieldset>
        {fields.languages.map((locale) => (
          <TextFields key={locale} locale={locale} />
        ))}
        <ErrorBox error={state.context.error} />
        <Group>
          <Button type="submit" loading={state.matches('previewing')} disabled={!isBroadcastComplete(fields)}>
            <Trans>Ver os destinatários</Trans>
          </Button>
        </Group>
      </Stack>
    </SubmitForm>
  );
}

function TextFields({ locale }: { locale: BroadcastLocale }) {
  const { t } = useLingui();
  const [state, send] = broadcastFlow.useFlow();
  const { fields } = state.context;
  const text = fields.texts[locale];
  const language = LOCALE_NAMES[locale];
  return (
    <Fieldset legend={t`Texto em ${language}`}>
      <Stack gap="xs">
        <TextInput
          label={t`Assunto (${language})`}
          required
          maxLength={120}
          value={text.subject}
          onChange={(event) =>
            send({ type: 'text.change', locale, field: 'subject', value: event.currentTarget.value })
          }
        />
        <Textarea
          label={t`Mensagem (${language})`}
          required
          autosize
          minRows={3}
          maxLength={2000}
          value={text.body}
          onChange={(event) =>
            send({ type: 'text.change', locale, field: 'body', value: event.currentTarget.value })
          }
        />
        {fields.sms && <SmsLength text={text.body.trim()} />}
      </Stack>
    </Fieldset>
  );
}

function BroadcastReview() {
  const { t } = useLingui();
  const [state, send] = broadcastFlow.useFlow();
  const { preview, fields } = state.context;
  if (!preview) return null;
  const fallback = preview.languages.filter((language) => !fields.languages.includes(language.locale));
  return (
    <Stack gap="sm">
      <Text>
        <Plural
          value={preview.members}
          _0="Ninguém tem uma reserva paga nesse período: a mensagem não chega a ninguém."
          one="# cliente com reserva paga nesse período recebe a mensagem."
          other="# clientes com reserva paga nesse período recebem a mensagem."
        />
      </Text>
      {preview.members > 0 && (
        <Text size="sm">
          {fields.email && (
            <>
              <Plural value={preview.by_email} one="# por e-mail" other="# por e-mail" />
              {fields.sms && ' · '}
            </>
          )}
          {fields.sms && <Plural value={preview.by_sms} one="# por SMS" other="# por SMS" />}
          {' · '}
          {preview.languages
            .map((language) => `${LOCALE_NAMES[language.locale]}: ${language.members}`)
            .join(', ')}
        </Text>
      )}
      {fallback.length > 0 && (
        <Text size="sm" c="dimmed">
          {t`Recebem o texto em português: ${fallback.map((language) => LOCALE_NAMES[language.locale]).join(', ')}.`}
        </Text>
      )}
      <ErrorBox error={state.context.error} />
      <Group>
        <Button
          variant="default"
          onClick={() => send({ type: 'broadcast.back' })}
          disabled={state.matches('sending')}
        >
          <Trans>Voltar</Trans>
        </Button>
        <Button
          loading={state.matches('sending')}
          disabled={preview.members === 0}
          onClick={() => send({ type: 'broadcast.send' })}
        >
          <Trans>Enviar a mensagem</Trans>
        </Button>
      </Group>
    </Stack>
  );
}

function BroadcastsPage({ list }: { list: BroadcastList }) {
  const [state, send] = broadcastFlow.useFlow();
  const editing = state.matches('editing') || state.matches('previewing');
  const sent = state.context.sent;
  return (
    <ConsolePage title={<Trans>Mensagens aos clientes</Trans>}>
      <SectionCard id="broadcast-new" title={<Trans>Escrever a quem tem reserva</Trans>}>
        {editing && <BroadcastForm />}
        {(state.matches('reviewing') || state.matches('sending')) && <BroadcastReview />}
        {state.matches('sent') && sent && (
          <Stack gap="sm" align="flex-start">
            <Alert color="green" variant="light" role="status">
              <Plural
                value={sent.recipients}
                one="Mensagem enviada a # cliente. O estado de cada envio aparece na lista abaixo."
                other="Mensagem enviada a # clientes. O estado de cada envio aparece na lista abaixo."
              />
            </Alert>
            <Button variant="default" onClick={() => send({ type: 'broadcast.again' })}>
              <Trans>Escrever outra mensagem</Trans>
            </Button>
          </Stack>
        )}
      </SectionCard>
      <section aria-labelledby="broadcast-list">
        <Title order={3} size="h5" id="broadcast-list" mb="sm">
          <Trans>Mensagens enviadas</Trans>
        </Title>
        <QueryStatus query={list} hasData={list.data !== null} />
        {list.data?.length === 0 && (
          <Empty>
            <Trans>Nenhuma mensagem enviada.</Trans>
          </Empty>
        )}
        <Stack gap="sm">
          {list.data?.map((broadcast) => (
            <BroadcastCard key={broadcast.id} broadcast={broadcast} />
          ))}
        </Stack>
      </section>
    </ConsolePage>
  );
}

function DeliveryCounts({ counts }: { counts: Broadcast['counts'] }) {
  const { t } = useLingui();
  return (
    <Group gap={6}>
      <Badge variant="light" color="gray">{t`${counts.queued} na fila`}</Badge>
      <Badge variant="light" color="green">{t`${counts.sent} enviadas`}</Badge>
      <Badge variant="light" color={counts.failed > 0 ? 'red' : 'gray'}>{t`${counts.failed} falharam`}</Badge>
    </Group>
  );
}

function BroadcastCard({ broadcast }: { broadcast: Broadcast }) {
  const { t } = useLingui();
  const times = useTimes();
  // Which card shows its deliveries is the view's own: it changes no flow.
  const [open, setOpen] = useState(false);
  return (
    <Card withBorder padding="sm">
      <Group justify="space-between" wrap="wrap" align="flex-start">
        <Stack gap={2}>
          <Text fw={600}>{broadcast.subject}</Text>
          <Text size="sm">
            {broadcast.branch.name} ·{' '}
            {times.range(broadcast.starts_at, broadcast.ends_at, broadcast.branch.time_zone)}
          </Text>
          <Text size="xs" c="dimmed">
            <Plural value={broadcast.recipients} one="# cliente" other="# clientes" />
            {' · '}
            {broadcast.channels.map((channel) => (channel === 'email' ? t`e-mail` : t`SMS`)).join(' + ')}
            {' · '}
            {t`por ${broadcast.created_by}, ${times.instant(broadcast.created_at)}`}
          </Text>
          <DeliveryCounts counts={broadcast.counts} />
        </Stack>
        <Button variant="default" size="xs" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? <Trans>Esconder os envios</Trans> : <Trans>Ver os envios</Trans>}
        </Button>
      </Group>
      {open && <Deliveries id={broadcast.id} subject={broadcast.subject} />}
    </Card>
  );
}

function Deliveries({ id, subject }: { id: number; subject: string }) {
  const { t } = useLingui();
  const detail = useAdminQuery('broadcast', { id });
  const data = detail.data;
  const status = (delivery: BroadcastDetail['deliveries'][number]) =>
    ({
      queued: delivery.error ? t`na fila (a tentar de novo)` : t`na fila`,
      sent: t`enviada`,
      logged: t`só no registo (sem fornecedor)`,
      failed: t`falhou`,
    })[delivery.status];
  return (
    <Stack gap="xs" mt="sm">
      <QueryStatus query={detail} hasData={data !== null} />
      {data && (
        <DataTable
          minWidth={560}
          dense
          label={t`Envios de «${subject}»`}
          headers={[t`Cliente`, t`Canal`, t`Para`, t`Língua`, t`Estado`]}
          rows={data.deliveries}
          rowKey={(delivery) => `${delivery.member.id}-${delivery.channel}`}
          cells={(delivery) => [
            `${delivery.member.first_name} ${delivery.member.last_name}`.trim() || '—',
            delivery.channel === 'email' ? t`e-mail` : t`SMS`,
            delivery.recipient,
            delivery.locale,
            delivery.error ? `${status(delivery)}: ${delivery.error}` : status(delivery),
          ]}
        />
      )}
    </Stack>
  );
}

export const Route = createLazyRoute('/$lang/admin/broadcasts')({ component: Broadcasts });
