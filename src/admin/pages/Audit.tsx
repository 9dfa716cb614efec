import { createLazyRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { useBranchOptions, usePagedQuery } from '../hooks.ts';
import { useAuditWords } from '../parts/auditWords.ts';
import { PeriodFields } from '../parts/booking.tsx';
import { useTimes } from '../parts/format.ts';
import { ConsolePage } from '../parts/layout.tsx';
import { PagedTable } from '../parts/tables.tsx';

const show = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value));

/**
 * The audit log (issue 18): every change an operator made, who, what, when, before and after; filtered. Each entry
 * is a sentence in the console's language (issue 32), its action's code and raw before and after one click away.
 */
function Audit() {
  const { t } = useLingui();
  const times = useTimes();
  const { branches } = useBranchOptions();
  const words = useAuditWords((id) => branches.find((branch) => branch.id === id)?.name);
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
        minWidth={360}
        label={t`Registo de auditoria`}
        headers={[t`Quando`, t`O quê`]}
        nowrap={[0]}
        long={[1]}
        cells={(entry) => {
          const { sentence, details } = words(entry);
          return [
            times.instant(entry.at),
            <Stack gap={2}>
              <Text size="sm" fw={600}>
                {sentence}
              </Text>
              {details.map((line) => (
                <Text key={line} size="sm">
                  {line}
                </Text>
              ))}
              {entry.reason && (
                <Text size="sm" c="gray.4">
                  {t`Motivo: ${entry.reason}`}
                </Text>
              )}
              <details className="audit-raw">
                <summary>
                  <Trans>Dados registados</Trans>
                </summary>
                <Text size="xs" c="gray.4">
                  {entry.action} · {entry.entity_type} {entry.entity_id}
                </Text>
                <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                  {show(entry.before)} → {show(entry.after)}
                </Code>
              </details>
            </Stack>,
          ];
        }}
      />
    </ConsolePage>
  );
}

export const Route = createLazyRoute('/$lang/admin/audit')({ component: Audit });
