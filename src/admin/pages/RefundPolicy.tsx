import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { RefundRatios } from '../../../machines/adminConsole.actors.ts';
import { ErrorBox } from '../feedback.tsx';
import { useAdminQuery, useAdminTask, useConsoleActors } from '../hooks.ts';
import { PageTitle, QueryStatus } from '../parts.tsx';

type Row = { hours: string; percent: string };

function rowsOf(ratios: RefundRatios): Row[] {
  return Object.entries(ratios)
    .map(([hours, ratio]) => ({ hours, percent: String(Math.round(ratio * 100)) }))
    .sort((a, b) => Number(b.hours) - Number(a.hours));
}

function ratiosOf(rows: Row[]): RefundRatios | null {
  const ratios: RefundRatios = {};
  for (const row of rows) {
    if (!/^\d{1,5}$/.test(row.hours) || !/^\d{1,3}$/.test(row.percent) || Number(row.percent) > 100)
      return null;
    ratios[String(Number(row.hours))] = Number(row.percent) / 100;
  }
  return '0' in ratios ? ratios : null;
}

function PolicyEditor({ ratios, onSaved }: { ratios: RefundRatios; onSaved: () => void }) {
  const { t } = useLingui();
  const actors = useConsoleActors();
  const [rows, setRows] = useState<Row[]>(() => rowsOf(ratios));
  const save = useAdminTask(actors.setRefundPolicy, onSaved);
  const next = ratiosOf(rows);
  const change = (index: number, patch: Partial<Row>) =>
    setRows((current) => current.map((row, at) => (at === index ? { ...row, ...patch } : row)));
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
                <Button
                  size="xs"
                  variant="subtle"
                  onClick={() => setRows((current) => current.filter((_, at) => at !== index))}
                >
                  <Trans>Remover</Trans>
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group>
        <Button
          variant="default"
          onClick={() => setRows((current) => [...current, { hours: '', percent: '' }])}
        >
          <Trans>Acrescentar linha</Trans>
        </Button>
        <Button
          disabled={next === null}
          loading={save.state.matches('running')}
          onClick={() => next && save.run(next)}
        >
          <Trans>Guardar a política</Trans>
        </Button>
      </Group>
      {next === null && (
        <Text size="sm" c="red.4">
          <Trans>Horas e percentagens inteiras (0 a 100), com uma linha de 0 horas.</Trans>
        </Text>
      )}
      <ErrorBox error={save.state.context.error} />
      {save.state.matches('done') && (
        <Alert color="green" variant="light" role="status">
          <Trans>Política de reembolso guardada.</Trans>
        </Alert>
      )}
    </Stack>
  );
}

/** Refund policy (owners): hour thresholds and the part refunded. */
export default function RefundPolicy() {
  const actors = useConsoleActors();
  const query = useAdminQuery(actors.refundPolicy, undefined);
  return (
    <Stack>
      <PageTitle>
        <Trans>Política de reembolso</Trans>
      </PageTitle>
      <QueryStatus query={query} hasData={query.data !== null} />
      {query.data && <PolicyEditor ratios={query.data} onSaved={() => {}} />}
    </Stack>
  );
}
