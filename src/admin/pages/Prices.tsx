import { createLazyRoute, useNavigate, useSearch } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { eurosToCents } from '../../../machines/adminCancel.machine.ts';
import type { PriceGrid } from '../../../machines/adminConsole.actors.ts';
import {
  bandsOf,
  gridOf,
  isTimeOfDay,
  setCell,
  splitAt,
  type PriceGridModel,
} from '../../../machines/adminPrices.ts';
import { intlTag } from '../../i18n/format.ts';
import { useAdminLocale } from '../context.tsx';
import { DayField, formatLocalDate } from '../dates.tsx';
import { ErrorBox } from '../feedback.tsx';
import { useAdminQuery, useAdminTask, useBranchOptions, useDraft } from '../hooks.ts';
import { useMoney } from '../parts/format.ts';
import { ConsolePage, QueryStatus, OwnersOnlyRefusal } from '../parts/layout.tsx';
import { DataTable } from '../parts/tables.tsx';
import { PriceCalendar } from './PriceCalendar.tsx';

function weekdayNames(locale: string): string[] {
  // 2024-01-01 was a Monday.
  return [1, 2, 3, 4, 5, 6, 7].map((day) =>
    new Date(Date.UTC(2024, 0, day)).toLocaleDateString(locale, { weekday: 'short', timeZone: 'UTC' }),
  );
}

const euros = (value: number) => String(value).replace('.', ',');

function GridEditor({
  branchId,
  grid: saved,
  onSaved,
}: {
  branchId: number;
  grid: PriceGrid;
  onSaved: () => void;
}) {
  const { t } = useLingui();
  const money = useMoney();
  const draft = useDraft<PriceDraft>({
    defaultPrice: euros(saved.default_price_eur),
    grid: gridOf(saved.bands, saved.default_price_eur),
    typed: {},
    split: '',
    from: '',
  });
  const { defaultPrice, grid, typed, split, from } = draft.fields;
  const save = useAdminTask('setPrices', onSaved);
  const defaultCents = eurosToCents(defaultPrice);
  const tag = intlTag(useAdminLocale());
  const names = weekdayNames(tag);
  const invalid = defaultCents === null || Object.values(typed).some((value) => eurosToCents(value) === null);
  const [min = 0, max = 0] = saved.min_and_max_price_eur;
  return (
    <Stack>
      <Text size="sm">{t`Preços atuais entre ${money(min)} e ${money(max)} por horário.`}</Text>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label={t`Preço base (€)`}
          inputMode="decimal"
          value={defaultPrice}
          error={defaultCents === null ? t`Escreva um valor em euros, por exemplo 12,50.` : null}
          onChange={(event) => draft.change({ defaultPrice: event.currentTarget.value })}
        />
        <TextInput
          label={t`Dividir o dia às (HH:MM)`}
          placeholder="18:00"
          value={split}
          onChange={(event) => draft.change({ split: event.currentTarget.value })}
        />
        <Button
          variant="default"
          disabled={!isTimeOfDay(split)}
          onClick={() => {
            draft.change({ grid: splitAt(grid, split), typed: {}, split: '' });
          }}
        >
          <Trans>Dividir</Trans>
        </Button>
      </Group>
      <DataTable
        minWidth={640}
        dense
        frame={{ withTableBorder: true, withColumnBorders: true }}
        label={t`Preços por dia da semana e hora`}
        headers={[t`Hora`, ...names]}
        rows={grid.cells.map((cells, row) => ({
          row,
          cells,
          span: `${grid.edges[row]}–${grid.edges[row + 1]}`,
        }))}
        rowKey={({ span }) => span}
        rowHeader
        nowrap={[0]}
        cells={({ row, cells, span }) => [
          span,
          ...cells.map((price, day) => {
            const key = `${row}:${day}`;
            const value = typed[key] ?? euros(price);
            return (
              <TextInput
                className="admin-grid-cell"
                size="xs"
                inputMode="decimal"
                aria-label={`${names[day]} ${span}`}
                value={value}
                error={eurosToCents(value) === null}
                onChange={(event) => {
                  const text = event.currentTarget.value;
                  const cents = eurosToCents(text);
                  draft.change({
                    typed: { ...typed, [key]: text },
                    ...(cents !== null && { grid: setCell(grid, row, day + 1, cents / 100) }),
                  });
                }}
              />
            );
          }),
        ]}
      />
      {saved.dated.length > 0 && (
        <Stack gap={4} aria-label={t`Preços com data marcada`}>
          <Text size="sm" fw={500}>
            <Trans>Preços com data marcada</Trans>
          </Text>
          {saved.dated.map((dated) => {
            const day = formatLocalDate(dated.from, tag, false);
            const base = money(dated.default_price_eur);
            const bands = dated.bands
              .map((band) => `${names[band.weekday - 1]} ${band.from}–${band.to} ${money(band.price_eur)}`)
              .join(', ');
            return (
              <Text key={dated.from} size="sm">
                {t`A partir de ${day}: preço base ${base}`}
                {bands && `; ${bands}`}
              </Text>
            );
          })}
        </Stack>
      )}
      <DayField
        label={t`A partir de (dia da filial)`}
        value={from}
        onChange={(value) => draft.change({ from: value })}
        maw={320}
      />
      <Text size="xs" c="dimmed">
        <Trans>
          Sem data, os preços valem já para todos os horários livres. Com uma data, valem a partir desse dia.
          Os horários reservados mantêm o preço pago.
        </Trans>
      </Text>
      <ErrorBox error={save.state.context.error} />
      {save.state.matches('done') && (
        <Alert color="green" variant="light" role="status">
          <Trans>Preços guardados.</Trans>
        </Alert>
      )}
      <Group>
        <Button
          disabled={invalid}
          loading={save.state.matches('running')}
          onClick={() => {
            const base = (defaultCents ?? 0) / 100;
            save.run({
              branchId,
              grid: { default_price_eur: base, bands: bandsOf(grid, base), from: from === '' ? null : from },
            });
          }}
        >
          <Trans>Guardar os preços</Trans>
        </Button>
      </Group>
    </Stack>
  );
}

/** The grid editor's values while the owner types (machines/adminDraft.machine.ts). */
type PriceDraft = {
  defaultPrice: string;
  grid: PriceGridModel;
  /** What is typed in each cell (`row:day`), kept as typed, even while it is no amount yet. */
  typed: Record<string, string>;
  split: string;
  /** The first day of a dated change, YYYY-MM-DD of the branch's calendar; '' applies at once. */
  from: string;
};

/** Prices (owners): a branch's price rules as a weekday by time-of-day grid. */
function Prices() {
  const { t } = useLingui();
  const branches = useBranchOptions();
  // The branch shown is in the address (`?branchId=`): reload and a copied link keep it.
  const { branchId } = useSearch({ from: '/$lang/admin/prices' });
  const navigate = useNavigate();
  const setBranchId = (id: number) => void navigate({ to: '.', search: { branchId: id }, replace: true });
  const first = branches.branches[0]?.id ?? null;
  const chosen = branchId ?? first;
  return (
    <ConsolePage title={<Trans>Preços</Trans>}>
      <NativeSelect
        label={t`Filial`}
        value={chosen === null ? '' : String(chosen)}
        data={branches.options}
        onChange={(event) => setBranchId(Number(event.currentTarget.value))}
        maw={320}
      />
      {chosen !== null && <BranchPrices key={chosen} branchId={chosen} />}
    </ConsolePage>
  );
}

function BranchPrices({ branchId }: { branchId: number }) {
  const query = useAdminQuery('prices', { branchId });
  const data = query.data;
  return (
    <>
      <QueryStatus query={query} hasData={data !== null} />
      {/* A new answer from the server starts the editor afresh from it. */}
      {data && (
        <GridEditor key={JSON.stringify(data)} branchId={branchId} grid={data} onSaved={query.reload} />
      )}
      {data && <PriceCalendar branchId={branchId} grid={data} saved={query.reload} />}
    </>
  );
}

export const Route = createLazyRoute('/$lang/admin/prices')({
  component: Prices,
  errorComponent: OwnersOnlyRefusal,
});
