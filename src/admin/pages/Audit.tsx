import { Trans, useLingui } from '@lingui/react/macro';
import { Code, Group, Stack, Text, TextInput } from '@mantine/core';
import type { AuditFilters } from '../../../machines/adminConsole.actors.ts';
import { useAdminQuery, useConsoleActors } from '../hooks.ts';
import { DataTable, Empty, PageTitle, Pager, PeriodFields, QueryStatus, useTimes } from '../parts.tsx';

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
        <PeriodFields from={filters.from} to={filters.to} onChange={set} />
      </Group>
      <QueryStatus query={query} hasData={page !== null} />
      {page?.items.length === 0 && (
        <Empty>
          <Trans>Nenhuma entrada.</Trans>
        </Empty>
      )}
      {page && page.items.length > 0 && (
        <DataTable
          minWidth={720}
          label={t`Registo de auditoria`}
          headers={[t`Quando`, t`Quem`, t`O quê`, t`Antes → depois`]}
          rows={page.items}
          rowKey={(entry) => entry.id}
          nowrap={[0]}
          cells={(entry) => [
            times.instant(entry.at),
            entry.operator_email ?? t`linha de comandos`,
            <>
              <Text size="sm" fw={600}>
                {entry.action}
              </Text>
              <Text size="xs" c="gray.4">
                {entry.entity_type} {entry.entity_id}
              </Text>
              {entry.reason && <Text size="xs">{entry.reason}</Text>}
            </>,
            <Code block style={{ maxWidth: 420, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {show(entry.before)} → {show(entry.after)}
            </Code>,
          ]}
        />
      )}
      {page && (
        <Pager
          list={page}
          value={filters.page}
          onChange={(value) => query.change({ ...filters, page: value })}
        />
      )}
    </Stack>
  );
}
