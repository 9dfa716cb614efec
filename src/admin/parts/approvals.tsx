import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Card, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { RefundApproval } from '../../../machines/adminConsole.actors.ts';
import { useMoney, useTimes } from './format.ts';
import { AdminLink } from './layout.tsx';

// Refunds above the staff ceiling (issue 32, item 2) in the console's words: a request on the Approvals page, and
// on its booking's page what became of it.

const STATUS_COLORS: Record<RefundApproval['status'], string> = {
  pending: 'yellow',
  approved: 'green',
  refused: 'red',
  closed: 'gray',
};

/** A request's facts as sentences: the refund asked, who asked and when, and what an owner decided. */
export function useApprovalWords() {
  const { t } = useLingui();
  const money = useMoney();
  const times = useTimes();
  const modes: Record<RefundApproval['refund_mode'], string> = {
    policy: t`pela política`,
    full: t`total`,
    amount: t`valor indicado`,
  };
  const statuses: Record<RefundApproval['status'], string> = {
    pending: t`à espera`,
    approved: t`aprovado`,
    refused: t`recusado`,
    closed: t`fechado`,
  };
  return {
    status: (approval: RefundApproval) => statuses[approval.status],
    refund: (approval: RefundApproval) => `${money(approval.refund_eur)} (${modes[approval.refund_mode]})`,
    asked: (approval: RefundApproval) =>
      t`Pedido por ${approval.requested_by} em ${times.instant(approval.requested_at)}`,
    /** What an owner decided, or null while it waits. */
    decision: (approval: RefundApproval): string | null => {
      const by = approval.decided_by ?? '';
      const at = approval.decided_at ? times.instant(approval.decided_at) : '';
      switch (approval.status) {
        case 'approved':
          return t`Aprovado por ${by} em ${at}: reembolsados ${money(approval.refunded_eur ?? 0)}.`;
        case 'refused':
          return t`Recusado por ${by} em ${at}: ${approval.decision_reason ?? ''}`;
        case 'closed':
          return t`Fechado em ${at}: a reserva já tinha sido cancelada ou terminado; nada foi reembolsado por este pedido.`;
        default:
          return null;
      }
    },
  };
}

export function ApprovalStatusBadge({ approval }: { approval: RefundApproval }) {
  const words = useApprovalWords();
  return (
    <Badge color={STATUS_COLORS[approval.status]} variant="light">
      {words.status(approval)}
    </Badge>
  );
}

/**
 * A request on the Approvals page: its booking (a link), the refund asked, who asked, why, what was decided;
 * `actions` (an owner's Approve and Refuse) below.
 */
export function ApprovalCard({ approval, actions }: { approval: RefundApproval; actions?: ReactNode }) {
  const words = useApprovalWords();
  const times = useTimes();
  const { booking } = approval;
  const decision = words.decision(approval);
  const live = booking.status === 'confirmed' || booking.status === 'pending';
  return (
    <Card withBorder padding="sm" component="article" aria-labelledby={`approval-${approval.id}`}>
      <Stack gap={4}>
        <Group gap="xs" wrap="wrap">
          <Text fw={600} id={`approval-${approval.id}`}>
            <AdminLink path={`bookings/${booking.id}`}>
              <Trans>Reserva #{booking.id}</Trans>
            </AdminLink>
          </Text>
          <ApprovalStatusBadge approval={approval} />
        </Group>
        <Text size="sm">
          {booking.branch.name} ·{' '}
          {times.range(booking.start_time, booking.end_time, booking.branch.time_zone)}
          {booking.member_email ? ` · ${booking.member_email}` : ''}
        </Text>
        <Text size="sm">
          <Trans>Reembolso pedido: {words.refund(approval)}</Trans>
        </Text>
        <Text size="sm">{words.asked(approval)}</Text>
        <Text size="sm">
          <Trans>Motivo: {approval.reason}</Trans>
        </Text>
        {decision && <Text size="sm">{decision}</Text>}
        {approval.status === 'pending' && !live && (
          <Text size="sm" c="yellow.3">
            <Trans>A reserva já não está ativa: aprovar fecha o pedido sem reembolso.</Trans>
          </Text>
        )}
        {actions}
      </Stack>
    </Card>
  );
}

/** On a booking's page: its latest request for an owner's approval, and what became of it. */
export function ApprovalNotice({ approval }: { approval: RefundApproval }) {
  const words = useApprovalWords();
  const decision = words.decision(approval);
  if (approval.status === 'pending')
    return (
      <Alert color="yellow" variant="light" role="status" title={<Trans>Enviado para aprovação</Trans>}>
        <Stack gap={4}>
          <Text size="sm">
            <Trans>
              Cancelamento com reembolso de {words.refund(approval)}, acima do limite da equipa. Nada muda
              para o cliente, a porta ou o dinheiro até um proprietário aprovar.
            </Trans>
          </Text>
          <Text size="sm">{words.asked(approval)}</Text>
          <AdminLink path="approvals" size="sm">
            <Trans>Ver as aprovações</Trans>
          </AdminLink>
        </Stack>
      </Alert>
    );
  return (
    <Alert
      color={STATUS_COLORS[approval.status]}
      variant="light"
      role="status"
      title={<Trans>Pedido de aprovação #{approval.id}</Trans>}
    >
      <Text size="sm">{decision}</Text>
    </Alert>
  );
}
