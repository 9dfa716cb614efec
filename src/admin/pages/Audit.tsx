import { createLazyRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Code, Group, Text, TextInput } from '@mantine/core';
import { usePagedQuery } from '../hooks.ts';
import { PeriodFields } from '../parts/booking.tsx';
import { useTimes } from '../parts/format.ts';
import { ConsolePage } from '../parts/layout.tsx';
import { PagedTable } from '../parts/tables.tsx';

const show = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value));

/** The audit log (issue 18): every change an operator made, who, what, when, before and after; filtered. */
function Audit() {
  const { t } = useLingui();
  const times = useTimes();
  const query = usePagedQuery('audit', {
    action: '',
    entityType: '',
    entityId: '',
    from: '',
    to: '',
    page: 1,
  });
  return (
    <ConsolePage title={<Trans>Registo de auditoria</Trans>}>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label={t`Ação`}
          placeholder="booking.cancel"
          value={query.params.action}
          onChange={(event) => query.filter({ action: event.currentTarget.value })}
        />
        <TextInput
          label={t`Tipo`}
          placeholder="booking"
          value={query.params.entityType}
          onChange={(event) => query.filter({ entityType: event.currentTarget.value })}
        />
        <TextInput
          label={t`Identificador`}
          value={query.params.entityId}
          onChange={(event) => query.filter({ entityId: event.currentTarget.value })}
        />
        <PeriodFields from={query.params.from} to={query.params.to} onChange={query.filter} />
      </Group>
      <PagedTable
        query={query}
        empty={<Trans>Nenhuma entrada.</Trans>}
        minWidth={720}
        label={t`Registo de auditoria`}
        headers={[t`Quando`, t`Quem`, t`O quê`, t`Antes → depois`]}
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
    </ConsolePage>
  );
}

export const Route = createLazyRoute('/$lang/admin/audit')({ component: Audit });
