import { createLazyRoute, useParams } from '@tanstack/react-router';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Button, Card, Checkbox, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { MemberDetail } from '../../../machines/adminConsole.actors.ts';
import { useHasAllBranches, useIsOwner } from '../context.tsx';
import { ErrorBox } from '../feedback.tsx';
import { useAdminQuery, useAdminTask, useDraft, usePagedQuery } from '../hooks.ts';
import { BookingFlags, PaymentsSection } from '../parts/booking.tsx';
import { ConfirmActions, type DialogProps, ReasonDialog, usePageDialogs } from '../parts/dialogs.tsx';
import { download, useTimes } from '../parts/format.ts';
import {
  AdminLink,
  ConsolePage,
  Empty,
  PageTitle,
  QueryStatus,
  SearchForm,
  Section,
} from '../parts/layout.tsx';
import { PagedTable } from '../parts/tables.tsx';
import { SubmitForm } from '../../ui/SubmitForm.tsx';

function MemberSearch() {
  const { t } = useLingui();
  const query = usePagedQuery('members', { q: '', page: 1 });
  return (
    <ConsolePage title={<Trans>Clientes</Trans>}>
      <SearchForm onSearch={query.reload}>
        <TextInput
          label={t`E-mail, telefone ou nome`}
          value={query.params.q}
          onChange={(event) => query.filter({ q: event.currentTarget.value })}
          miw={240}
        />
      </SearchForm>
      <PagedTable
        query={query}
        empty={<Trans>Nenhum cliente encontrado.</Trans>}
        minWidth={480}
        headers={[t`Nome`, t`Contacto`, t`Reservas`]}
        cells={(member) => [
          <>
            <AdminLink path={`members/${member.id}`}>
              {`${member.first_name} ${member.last_name}`.trim() || member.email || member.id}
            </AdminLink>{' '}
            {member.blocked && (
              <Badge color="red" variant="light">
                {t`bloqueado`}
              </Badge>
            )}
            {member.deleted && <Badge variant="light">{t`apagado`}</Badge>}
          </>,
          <>
            <Text size="sm">{member.email}</Text>
            <Text size="xs" c="gray.4">
              {member.phone_number}
            </Text>
          </>,
          member.bookings_count,
        ]}
      />
    </ConsolePage>
  );
}

function BlockDialog({ detail, onClose, onDone }: DialogProps<MemberDetail>) {
  const { t } = useLingui();
  const times = useTimes();
  const draft = useDraft({ cancelFuture: true });
  const { cancelFuture } = draft.fields;
  const block = useAdminTask('blockMember', onDone);
  // The moment the dialog opened: the bookings it offers to cancel do not change while it is open.
  const [now] = useState(() => Date.now());
  const future = detail.bookings.filter(
    (booking) =>
      (booking.status === 'confirmed' || booking.status === 'pending') &&
      Date.parse(booking.start_time) > now,
  );
  return (
    <ReasonDialog
      title={t`Bloquear o cliente`}
      task={block}
      color="red"
      action={<Trans>Bloquear</Trans>}
      onRun={(reason) =>
        block.run({ id: detail.member.id, reason, cancelFuture: cancelFuture && future.length > 0 })
      }
      onClose={onClose}
    >
      <Text size="sm">
        <Trans>
          O e-mail e o telefone do cliente ficam bloqueados: não pode reservar nem voltar a registar-se.
        </Trans>
      </Text>
      {future.length > 0 ? (
        <>
          <Text size="sm" fw={600}>
            <Plural value={future.length} one="# reserva futura:" other="# reservas futuras:" />
          </Text>
          {future.map((booking) => (
            <Text size="sm" key={booking.id}>
              #{booking.id} · {booking.branch.name} ·{' '}
              {times.range(booking.start_time, booking.end_time, booking.branch.time_zone)}
            </Text>
          ))}
          <Checkbox
            label={t`Cancelar as reservas futuras (reembolso pela política)`}
            checked={cancelFuture}
            onChange={(event) => draft.change({ cancelFuture: event.currentTarget.checked })}
          />
        </>
      ) : (
        <Empty>
          <Trans>Sem reservas futuras.</Trans>
        </Empty>
      )}
    </ReasonDialog>
  );
}

function EraseDialog({ detail, onClose, onDone }: DialogProps<MemberDetail>) {
  const { t } = useLingui();
  const draft = useDraft({ confirmEmail: '' });
  const { confirmEmail } = draft.fields;
  const erase = useAdminTask('eraseMember', onDone);
  return (
    <ReasonDialog
      title={t`Apagar os dados do cliente`}
      task={erase}
      color="red"
      action={<Trans>Apagar</Trans>}
      ready={confirmEmail.trim().toLowerCase() === (detail.member.email ?? '').toLowerCase()}
      onRun={(reason) => erase.run({ id: detail.member.id, reason, confirmEmail: confirmEmail.trim() })}
      onClose={onClose}
    >
      <Alert color="red" variant="light">
        <Trans>
          Como ao eliminar a conta: as reservas futuras são canceladas e reembolsadas pela política, os dados
          pessoais apagados e as sessões terminadas. Não pode ser anulado.
        </Trans>
      </Alert>
      <TextInput
        label={t`Escreva o e-mail do cliente para confirmar`}
        value={confirmEmail}
        onChange={(event) => draft.change({ confirmEmail: event.currentTarget.value })}
      />
    </ReasonDialog>
  );
}

/** Operators' notes on the member (issue 32): why blocked, an incident; the member never sees them. */
function MemberNotes({ id }: { id: string }) {
  const { t } = useLingui();
  const times = useTimes();
  const notes = useAdminQuery('memberNotes', { id });
  const draft = useDraft({ body: '' });
  const body = draft.fields.body;
  const add = useAdminTask('addMemberNote', () => {
    draft.reset({ body: '' });
    notes.reload();
  });
  return (
    <Section id="member-notes" title={<Trans>Notas internas</Trans>}>
      <Stack gap="xs">
        <Text size="xs" c="gray.4">
          <Trans>Só os operadores as leem; fazem parte dos dados exportados do cliente.</Trans>
        </Text>
        <SubmitForm onSubmit={() => add.run({ id, body: body.trim() })}>
          <Stack gap="xs" align="flex-start">
            <Textarea
              label={t`Nova nota`}
              w="100%"
              autosize
              minRows={2}
              maxLength={2000}
              value={body}
              onChange={(event) => draft.change({ body: event.currentTarget.value })}
            />
            <ErrorBox error={add.state.context.error} />
            <Button
              type="submit"
              variant="default"
              disabled={body.trim() === ''}
              loading={add.state.matches('running')}
            >
              <Trans>Guardar a nota</Trans>
            </Button>
          </Stack>
        </SubmitForm>
        <QueryStatus query={notes} hasData={notes.data !== null} />
        {notes.data?.length === 0 && (
          <Empty>
            <Trans>Sem notas.</Trans>
          </Empty>
        )}
        {notes.data?.map((note) => (
          <Card withBorder padding="xs" key={note.id}>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {note.body}
            </Text>
            <Text size="xs" c="gray.4">
              {t`${note.created_by}, ${times.instant(note.created_at)}`}
            </Text>
          </Card>
        ))}
      </Stack>
    </Section>
  );
}

function MemberPage({ id }: { id: string }) {
  const { t } = useLingui();
  const isOwner = useIsOwner();
  // Blocking and unblocking reach every branch: not for staff limited to some (the server refuses them too).
  const allBranches = useHasAllBranches();
  const times = useTimes();
  const query = useAdminQuery('member', { id });
  const dialogs = usePageDialogs({ block: BlockDialog, erase: EraseDialog }, query.reload);
  const unblockDraft = useDraft({ reason: '' });
  const unblockReason = unblockDraft.fields.reason;
  const exporter = useAdminTask('exportMember', (data) =>
    download(`member-${id}.json`, 'application/json', JSON.stringify(data, null, 2)),
  );
  const unblock = useAdminTask('unblockMember', () => query.reload());
  const detail = query.data;
  return (
    <Stack>
      <AdminLink path={'members'} size="sm">
        ← <Trans>Clientes</Trans>
      </AdminLink>
      <QueryStatus query={query} hasData={detail !== null} />
      {detail && (
        <>
          <PageTitle>
            {`${detail.member.first_name} ${detail.member.last_name}`.trim() || detail.member.email || id}
          </PageTitle>
          <Card withBorder>
            <Stack gap={6}>
              <Text size="sm">
                {detail.member.email} · {detail.member.phone_number} · {detail.member.locale}
              </Text>
              <Text size="xs" c="gray.4">
                {t`Cliente desde ${times.instant(detail.member.created_at)}`}
              </Text>
              <Group gap={6}>
                {detail.member.blocked && (
                  <Badge color="red" variant="filled">
                    {t`bloqueado`}
                  </Badge>
                )}
                {detail.member.deleted && <Badge variant="light">{t`apagado`}</Badge>}
              </Group>
              {detail.blocks.map((block) => (
                <Text size="xs" key={block.id}>
                  {t`Bloqueado: ${block.value} · ${block.reason ?? ''}`}
                </Text>
              ))}
              <Group gap="sm" mt="xs">
                {allBranches && !detail.member.blocked && !detail.member.deleted && (
                  <Button color="red" variant="light" onClick={() => dialogs.open('block')}>
                    <Trans>Bloquear…</Trans>
                  </Button>
                )}
                {allBranches && detail.member.blocked && (
                  <Button variant="default" onClick={() => unblock.ask({ id, reason: '' })}>
                    <Trans>Desbloquear…</Trans>
                  </Button>
                )}
                {isOwner && (
                  <Button
                    variant="default"
                    loading={exporter.state.matches('running')}
                    onClick={() => exporter.run({ id })}
                  >
                    <Trans>Exportar os dados (JSON)</Trans>
                  </Button>
                )}
                {isOwner && !detail.member.deleted && (
                  <Button color="red" variant="subtle" onClick={() => dialogs.open('erase')}>
                    <Trans>Apagar os dados…</Trans>
                  </Button>
                )}
              </Group>
              {exporter.state.matches('done') && (
                <Alert color="green" variant="light" role="status">
                  <Trans>Os dados do cliente foram exportados.</Trans>
                </Alert>
              )}
              <ErrorBox error={exporter.state.context.error} />
              {unblock.state.matches('confirming') && (
                <Stack gap="xs">
                  <TextInput
                    label={t`Motivo do desbloqueio`}
                    required
                    value={unblockReason}
                    onChange={(event) => unblockDraft.change({ reason: event.currentTarget.value })}
                  />
                  <ConfirmActions
                    task={unblock}
                    disabled={unblockReason.trim() === ''}
                    onConfirm={() => unblock.run({ id, reason: unblockReason.trim() })}
                  >
                    <Trans>Desbloquear</Trans>
                  </ConfirmActions>
                </Stack>
              )}
            </Stack>
          </Card>
          <Section
            id="member-bookings"
            title={<Trans>Reservas</Trans>}
            empty={detail.bookings.length === 0 && <Trans>Sem reservas</Trans>}
          >
            <Stack gap="xs">
              {detail.bookings.map((booking) => (
                <Group key={booking.id} gap="sm" wrap="wrap">
                  <AdminLink path={`bookings/${booking.id}`}>#{booking.id}</AdminLink>
                  <Text size="sm">
                    {booking.branch.name} ·{' '}
                    {times.range(booking.start_time, booking.end_time, booking.branch.time_zone)}
                  </Text>
                  <BookingFlags booking={booking} />
                </Group>
              ))}
            </Stack>
          </Section>
          <MemberNotes id={id} />
          <PaymentsSection
            id="member-payments"
            payments={detail.payments}
            note={(movement) => movement.branch.name}
          />
          {dialogs.render(detail)}
        </>
      )}
    </Stack>
  );
}

/** `/{lang}/admin/members/<id>`: a member's page. */
function MemberRoute() {
  const { memberId } = useParams({ from: '/$lang/admin/members/$memberId' });
  return <MemberPage key={memberId} id={memberId} />;
}

export const Route = createLazyRoute('/$lang/admin/members')({ component: MemberSearch });
export const MemberPageRoute = createLazyRoute('/$lang/admin/members/$memberId')({ component: MemberRoute });
