import { createLazyRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import type { PolicyRow } from '../../../machines/adminRefundPolicy.machine.ts';
import { ErrorBox } from '../feedback.tsx';
import { useAdminQuery } from '../hooks.ts';
import {
  RefundPolicyProvider,
  useRefundPolicyCan,
  useRefundPolicySelector,
  useRefundPolicySend,
} from '../useRefundPolicy.tsx';
import { ConsolePage, QueryStatus, OwnersOnlyRefusal } from '../parts/layout.tsx';

function PolicyEditor() {
  const { t } = useLingui();
  const rows = useRefundPolicySelector((state) => state.context.rows);
  const error = useRefundPolicySelector((state) => state.context.error);
  const saving = useRefundPolicySelector((state) => state.matches('saving'));
  const saved = useRefundPolicySelector((state) => state.matches({ editing: 'saved' }));
  const canSave = useRefundPolicyCan({ type: 'policy.save' });
  const send = useRefundPolicySend();
  const change = (index: number, patch: Partial<PolicyRow>) => send({ type: 'row.change', index, patch });
  return (
    <Stack>
      <Text size="sm">
        <Trans>
          Cada linha: a partir de quantas horas antes do início, que parte do preço é reembolsada. A linha de
          0 horas é obrigatória.
        </Trans>
      </Text>
      <Table maw={420} verticalSpacing={4}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Trans>Horas antes</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Reembolso (%)</Trans>
            </Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            <Table.Tr key={index}>
              <Table.Td>
                <TextInput
                  size="xs"
                  aria-label={t`Horas antes`}
                  inputMode="numeric"
                  value={row.hours}
                  onChange={(event) => change(index, { hours: event.currentTarget.value })}
                />
              </Table.Td>
              <Table.Td>
                <TextInput
                  size="xs"
                  aria-label={t`Reembolso (%)`}
                  inputMode="numeric"
                  value={row.percent}
                  onChange={(event) => change(index, { percent: event.currentTarget.value })}
                />
              </Table.Td>
              <Table.Td>
                <Button size="xs" variant="subtle" onClick={() => send({ type: 'row.remove', index })}>
                  <Trans>Remover</Trans>
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group>
        <Button variant="default" onClick={() => send({ type: 'row.add' })}>
          <Trans>Acrescentar linha</Trans>
        </Button>
        <Button disabled={!canSave && !saving} loading={saving} onClick={() => send({ type: 'policy.save' })}>
          <Trans>Guardar a política</Trans>
        </Button>
      </Group>
      {!canSave && !saving && (
        <Text size="sm" c="red.4">
          <Trans>Horas e percentagens inteiras (0 a 100), com uma linha de 0 horas.</Trans>
        </Text>
      )}
      <ErrorBox error={error} />
      {saved && (
        <Alert color="green" variant="light" role="status">
          <Trans>Política de reembolso guardada.</Trans>
        </Alert>
      )}
    </Stack>
  );
}

/** Refund policy (owners): hour thresholds and the part refunded. */
function RefundPolicy() {
  const query = useAdminQuery('refundPolicy');
  return (
    <ConsolePage title={<Trans>Política de reembolso</Trans>}>
      <QueryStatus query={query} hasData={query.data !== null} />
      {query.data && (
        <RefundPolicyProvider ratios={query.data}>
          <PolicyEditor />
        </RefundPolicyProvider>
      )}
    </ConsolePage>
  );
}

export const Route = createLazyRoute('/$lang/admin/refund-policy')({
  component: RefundPolicy,
  errorComponent: OwnersOnlyRefusal,
});
