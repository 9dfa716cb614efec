import { createLazyRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { eurosToCents } from '../../../machines/adminCancel.machine.ts';
import type { RefundApproval } from '../../../machines/adminConsole.actors.ts';
import { SubmitForm } from '../../ui/SubmitForm.tsx';
import { usePendingApprovals } from '../AdminConsole.tsx';
import { useIsOwner } from '../context.tsx';
import { ErrorBox } from '../feedback.tsx';
import { useAdminQuery, useAdminTask, useDraft } from '../hooks.ts';
import { ApprovalCard, useApprovalWords } from '../parts/approvals.tsx';
import { Dialog, DialogActions, ReasonDialog } from '../parts/dialogs.tsx';
import { useMoney } from '../parts/format.ts';
import { ConsolePage, QueryStatus, Section, SectionCard } from '../parts/layout.tsx';

// Approvals (issue 32, item 2): a staff member's cancellation refunding more than the staff ceiling waits here for an
// owner, who approves it (the booking is cancelled and refunded then, the member told) or refuses it with a reason
// the staff member reads. Owners set the ceiling here; staff see their own requests and what was decided.

/** The staff refund ceiling, which owners change (whole cents); staff read it. */
function Ceiling({ euros }: { euros: number }) {
  const { t } = useLingui();
  const money = useMoney();
  const owner = useIsOwner();
  const draft = useDraft({ amount: String(euros).replace('.', ',') });
  const save = useAdminTask('setRefundCeiling');
  const cents = eurosToCents(draft.fields.amount);
  if (!owner)
    return (
      <Text size="sm">
        {t`Um reembolso acima de ${money(euros)} precisa da aprovação de um proprietário.`}
      </Text>
    );
  return (
    <SubmitForm onSubmit={() => cents !== null && save.run({ cents })}>
      <Stack gap="sm">
        <Text size="sm">
          <Trans>
            Quando a equipa cancela uma reserva com um reembolso acima deste valor, o cancelamento espera pela
            aprovação de um proprietário. Os proprietários não têm limite.
          </Trans>
        </Text>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label={t`Limite de reembolso da equipa (€)`}
            inputMode="decimal"
            w={300}
            maw="100%"
            value={draft.fields.amount}
            error={cents === null ? t`Escreva um valor em euros, por exemplo 30.` : null}
            onChange={(event) => draft.change({ amount: event.currentTarget.value })}
          />
          <Button
            type="submit"
            variant="default"
            disabled={cents === null}
            loading={save.state.matches('running')}
          >
            <Trans>Guardar o limite</Trans>
          </Button>
        </Group>
        <ErrorBox error={save.state.context.error} />
        {save.state.matches('done') && (
          <Text size="sm" role="status">
            <Trans>Guardado.</Trans>
          </Text>
        )}
      </Stack>
    </SubmitForm>
  );
}

type Decision = { approval: RefundApproval; action: 'approve' | 'refuse' };

/** An owner approves: the booking is cancelled and refunded as asked, the member told. */
function ApproveDialog({ approval, onClose }: { approval: RefundApproval; onClose: () => void }) {
  const { t } = useLingui();
  const words = useApprovalWords();
  const approve = useAdminTask('approveRefund', onClose);
  return (
    <Dialog onClose={onClose} title={t`Aprovar o pedido #${approval.id}`}>
      <Stack gap="sm">
        <Text size="sm">
          {t`A reserva #${approval.booking.id} é cancelada com um reembolso de ${words.refund(approval)} e o cliente é avisado, com o motivo: ${approval.reason}`}
        </Text>
        <DialogActions error={approve.state.context.error} onClose={onClose}>
          <Button loading={approve.state.matches('running')} onClick={() => approve.run({ id: approval.id })}>
            <Trans>Aprovar e cancelar a reserva</Trans>
          </Button>
        </DialogActions>
      </Stack>
    </Dialog>
  );
}

/** An owner refuses with a reason the staff member reads; nothing changes for the booking. */
function RefuseDialog({ approval, onClose }: { approval: RefundApproval; onClose: () => void }) {
  const { t } = useLingui();
  const refuse = useAdminTask('refuseRefund', onClose);
  return (
    <ReasonDialog
      title={t`Recusar o pedido #${approval.id}`}
      task={refuse}
      action={<Trans>Recusar</Trans>}
      color="red"
      onRun={(reason) => refuse.run({ id: approval.id, reason })}
      onClose={onClose}
    >
      <Text size="sm">
        <Trans>A reserva fica como está. Quem pediu lê o motivo.</Trans>
      </Text>
    </ReasonDialog>
  );
}

function Approvals() {
  const { t } = useLingui();
  const owner = useIsOwner();
  const query = useAdminQuery('refundApprovals');
  const pending = usePendingApprovals();
  const [deciding, setDeciding] = useState<Decision | null>(null);
  const data = query.data;
  const close = () => {
    setDeciding(null);
    // Decided or not, what the server now holds is shown (a request closed by a failed approval among it), and
    // counted in the navigation.
    query.reload();
    pending.reload();
  };
  return (
    <ConsolePage title={<Trans>Aprovações</Trans>}>
      <Text size="sm">
        {owner
          ? t`Cancelamentos da equipa com um reembolso acima do limite. Nada muda para o cliente até aprovar.`
          : t`Os seus cancelamentos com um reembolso acima do limite, e o que um proprietário decidiu.`}
      </Text>
      <QueryStatus query={query} hasData={data !== null} />
      {data && (
        <>
          <SectionCard id="approvals-ceiling" title={<Trans>Limite de reembolso da equipa</Trans>}>
            <Ceiling euros={data.staff_refund_ceiling_eur} />
          </SectionCard>
          <Section
            id="approvals-pending"
            title={<Trans>À espera de decisão</Trans>}
            empty={data.pending.length === 0 && <Trans>Nenhum pedido à espera.</Trans>}
          >
            <Stack gap="sm">
              {data.pending.map((approval) => (
                <ApprovalCard
                  key={approval.id}
                  approval={approval}
                  actions={
                    owner && (
                      <Group gap="xs" mt={4}>
                        <Button size="xs" onClick={() => setDeciding({ approval, action: 'approve' })}>
                          <Trans>Aprovar…</Trans>
                        </Button>
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => setDeciding({ approval, action: 'refuse' })}
                        >
                          <Trans>Recusar…</Trans>
                        </Button>
                      </Group>
                    )
                  }
                />
              ))}
            </Stack>
          </Section>
          <Section
            id="approvals-decided"
            title={<Trans>Decididos</Trans>}
            empty={data.decided.length === 0 && <Trans>Nenhum pedido decidido.</Trans>}
          >
            <Stack gap="sm">
              {data.decided.map((approval) => (
                <ApprovalCard key={approval.id} approval={approval} />
              ))}
            </Stack>
          </Section>
          {deciding?.action === 'approve' && <ApproveDialog approval={deciding.approval} onClose={close} />}
          {deciding?.action === 'refuse' && <RefuseDialog approval={deciding.approval} onClose={close} />}
        </>
      )}
    </ConsolePage>
  );
}

export const Route = createLazyRoute('/$lang/admin/approvals')({ component: Approvals });
