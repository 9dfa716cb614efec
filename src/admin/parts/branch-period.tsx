import { useLingui } from '@lingui/react/macro';
import { Group, NativeSelect } from '@mantine/core';
import { DayTimeField } from '../dates.tsx';
import { useBranchOptions } from '../hooks.ts';

/**
 * A branch and a period of its local time (a closure's, a message's): the branch's zone goes with its choice, so
 * the flow turns the wall-clock times into instants in it.
 */
export function BranchPeriodFields({
  branchId,
  from,
  to,
  onBranch,
  onPeriod,
}: {
  branchId: number | null;
  from: string;
  to: string;
  onBranch: (branchId: number | null, timeZone: string) => void;
  onPeriod: (field: 'from' | 'to', value: string) => void;
}) {
  const { t } = useLingui();
  const branches = useBranchOptions();
  return (
    <>
      <NativeSelect
        label={t`Filial`}
        required
        value={branchId === null ? '' : String(branchId)}
        data={[{ value: '', label: t`Escolha a filial` }, ...branches.options]}
        onChange={(event) => {
          const id = event.currentTarget.value === '' ? null : Number(event.currentTarget.value);
          onBranch(id, branches.zoneOf(id));
        }}
      />
      <Group grow wrap="wrap">
        <DayTimeField
          label={t`Desde (hora da filial)`}
          required
          value={from}
          onChange={(value) => onPeriod('from', value)}
        />
        <DayTimeField
          label={t`Até (hora da filial)`}
          required
          value={to}
          onChange={(value) => onPeriod('to', value)}
        />
      </Group>
    </>
  );
}
