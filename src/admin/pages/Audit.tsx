import { Trans, useLingui } from '@lingui/react/macro';
import { Code, Group, Pagination, Stack, Table, Text, TextInput } from '@mantine/core';
import type { AuditFilters } from '../../../machines/adminConsole.actors.ts';
import { useAdminQuery, useConsoleActors } from '../hooks.ts';
import { Empty, PageTitle, QueryStatus, ScrollTable, useTimes } from '../parts.tsx';
import { DayField } from '../dates.tsx';

const show = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value));

/** The audit log (issue 18): every change an operator made, who, what, when, before and after; filtered. */
export default function Audit() {
  const { t } = useLingui();
  const actors = useConsoleActors();
  const times = useTimes();
  const query = useAdminQuery<AuditFilters, Awaited<ReturnType<typeof actors.audit>>>(actors.audit, {
    action: '',
    entityType: '',
    entityId: '',
    from: '',
    to: '',
    page: 1,
  });
  const filters = query.params;
  const set = (patch: Partial<AuditFilters>) => query.change({ ...filters, page: 1, ...patch });
  const page = query.data;
  return (
    <Stack>
      <PageTitle>
        <Trans>Registo de auditoria</Trans>
      </PageTitle>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label={t`Ação`}
          placeholder="booking.cancel"
          value={filters.action}
          onChange={(event) => set({ action: event.currentTarget.value })}
        />
        <TextInput
          label={t`Tipo`}
          placeholder="booking"
          value={filters.entityType}
          onChange={(event) => set({ entityType: event.currentTarget.value })}
        />
        <TextInput
          label={t`Identificador`}
          value={filters.entityId}
          onChange={(event) => set({ entityId: event.currentTarget.value })}
        />
        <DayField label={t`De`} value={filters.from} onChange={(value) => set({ from: value })} />
        <DayField label={t`Até`} value={filters.to} onChange={(value) => set({ to: value })} />
      </Group>
      <QueryStatus query={query} hasData={page !== null} />
      {page?.items.length === 0 && (
        <Empty>
          <Trans>Nenhuma entrada.</Trans>
        </Empty>
      )}
      {page && page.items.length > 0 && (
        <ScrollTable minWidth={720}>
          <Table striped verticalSpacing="xs" aria-label={t`Registo de auditoria`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <Trans>Quando</Trans>
                </Table.Th>
                <Table.Th>
                  <Trans>Quem</Trans>
                </Table.Th>
                <Table.Th>
                  <Trans>O quê</Trans>
                </Table.Th>
                <Table.Th>
                  <Trans>Antes → depois</Trans>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {page.items.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{times.instant(entry.at)}</Table.Td>
                  <Table.Td>{entry.operator_email ?? t`linha de comandos`}</Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {entry.action}
                    </Text>
                    <Text size="xs" c="gray.4">
                      {entry.entity_type} {entry.entity_id}
                    </Text>
                    {entry.reason && <Text size="xs">{entry.reason}</Text>}
                  </Table.Td>
                  <Table.Td>
                    <Code block style={{ maxWidth: 420, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                      {show(entry.before)} → {show(entry.after)}
                    </Code>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      {page && page.total > page.page_size && (
        <Pagination
          total={Math.ceil(page.total / page.page_size)}
          value={filters.page}
          onChange={(value) => query.change({ ...filters, page: value })}
        />
      )}
    </Stack>
  );
}
