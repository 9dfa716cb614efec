import { Trans, useLingui } from '@lingui/react/macro';
import {
  ActionIcon,
  Button,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import type { PriceGrid } from '../../../machines/adminConsole.actors.ts';
import { createAdminDatePriceActors } from '../../../machines/adminDatePrice.actors.ts';
import {
  adminDatePriceMachine,
  monthWeeks,
  shownDatePriceProblems,
  type DatePriceProblem,
} from '../../../machines/adminDatePrice.machine.ts';
import { createFlowBinding } from '../../app/binding.tsx';
import { intlTag } from '../../i18n/format.ts';
import { SubmitForm } from '../../ui/SubmitForm.tsx';
import { useAdmin, useAdminLocale } from '../context.tsx';
import { ErrorBox } from '../feedback.tsx';
import { useMoney } from '../parts/format.ts';
import { SectionCard } from '../parts/layout.tsx';
import type { AdminRuntime } from '../runtime.ts';

// Prices by date (issue 32, item 5): a month of the branch's calendar with the dates that have a price of their own
// and the days a scheduled grid starts; a date chosen opens its price (the whole day, or some hours otherwise).

const calendarFlow = createFlowBinding(
  adminDatePriceMachine,
  (_runtime, ports: { admin: AdminRuntime; saved: () => void }) =>
    adminDatePriceMachine.provide({
      actors: createAdminDatePriceActors(ports.admin.api),
      actions: { saved: ports.saved, sessionEnded: ports.admin.sessionEnded },
    }),
);

const utcDay = (iso: string) => new Date(`${iso}T00:00:00Z`);

function useProblemText() {
  const { t } = useLingui();
  return (problem: DatePriceProblem | undefined, kind: 'price' | 'time'): string | null => {
    if (problem === undefined) return null;
    if (problem === 'overlap') return t`Estas horas sobrepõem-se a outras.`;
    if (problem === 'not-after-start') return t`A hora final tem de ser depois da inicial.`;
    return kind === 'price'
      ? t`Escreva um valor em euros, por exemplo 12,50.`
      : t`Escreva a hora como HH:MM, por exemplo 07:00.`;
  };
}

/** The month's calendar: each date a button naming what prices it. */
function MonthCalendar({ grid }: { grid: PriceGrid }) {
  const { t } = useLingui();
  const money = useMoney();
  const tag = intlTag(useAdminLocale());
  const [state, send] = calendarFlow.useFlow();
  const { month, date: chosen } = state.context;
  const named = new Intl.DateTimeFormat(tag, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    utcDay(`${month}-01`),
  );
  const monthName = named.charAt(0).toLocaleUpperCase(tag) + named.slice(1);
  const longDay = new Intl.DateTimeFormat(tag, { dateStyle: 'full', timeZone: 'UTC' });
  const weekday = new Intl.DateTimeFormat(tag, { weekday: 'short', timeZone: 'UTC' });
  const priced = new Map(grid.by_date.map((price) => [price.date, price]));
  const gridStarts = new Set(grid.dated.map((dated) => dated.from));
  return (
    <Stack gap="xs">
      <Title order={4} size="h6" aria-live="polite" ta="center">
        {monthName}
      </Title>
      <Group justify="space-between">
        <Button variant="default" size="xs" onClick={() => send({ type: 'month.change', step: -1 })}>
          <Trans>‹ Mês anterior</Trans>
        </Button>
        <Button variant="default" size="xs" onClick={() => send({ type: 'month.change', step: 1 })}>
          <Trans>Mês seguinte ›</Trans>
        </Button>
      </Group>
      <Table
        layout="fixed"
        withTableBorder
        withColumnBorders
        verticalSpacing={2}
        horizontalSpacing={2}
        aria-label={t`Preços por data: ${monthName}`}
      >
        <Table.Thead>
          <Table.Tr>
            {/* 2024-01-01 was a Monday. */}
            {[1, 2, 3, 4, 5, 6, 7].map((day) => (
              <Table.Th key={day} ta="center" fz="xs">
                {/* Three letters fit a phone's column; the full name is the header's title. */}
                <abbr
                  title={weekday.format(new Date(Date.UTC(2024, 0, day)))}
                  style={{ textDecoration: 'none' }}
                >
                  {weekday.format(new Date(Date.UTC(2024, 0, day))).slice(0, 3)}
                </abbr>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {monthWeeks(month).map((week) => (
            <Table.Tr key={week.find((day) => day !== null)}>
              {week.map((day, index) => {
                if (day === null) return <Table.Td key={`blank-${index}`} />;
                const own = priced.get(day);
                const starts = gridStarts.has(day);
                const ownText = own
                  ? own.bands.length > 0
                    ? t`${money(own.day_price_eur)} e horas`
                    : money(own.day_price_eur)
                  : null;
                const name = [
                  longDay.format(utcDay(day)),
                  ownText && t`preço próprio: ${ownText}`,
                  starts && t`nova grelha a partir deste dia`,
                ]
                  .filter(Boolean)
                  .join(', ');
                return (
                  <Table.Td key={day} p={0}>
                    <Button
                      variant={day === chosen ? 'filled' : own ? 'light' : 'subtle'}
                      color={own || day === chosen ? undefined : 'gray'}
                      fullWidth
                      h={58}
                      px={2}
                      radius={0}
                      aria-pressed={day === chosen}
                      onClick={() => send({ type: 'date.choose', date: day, price: own })}
                      styles={{
                        label: { flexDirection: 'column', alignItems: 'center', whiteSpace: 'normal' },
                      }}
                    >
                      {/* Read out whole (the marks below are for the eye only). */}
                      <VisuallyHidden>{name}</VisuallyHidden>
                      <Text span fz="sm" fw={700} lh={1.2} aria-hidden="true">
                        {Number(day.slice(8))}
                      </Text>
                      {own && (
                        <Text span fz={11} lh={1.1} aria-hidden="true">
                          {money(own.day_price_eur)}
                          {own.bands.length > 0 && '+'}
                        </Text>
                      )}
                      {starts && (
                        <Text span fz={11} lh={1.1} fw={700} td="underline" aria-hidden="true">
                          <Trans>grelha</Trans>
                        </Text>
                      )}
                    </Button>
                  </Table.Td>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed">
        <Trans>
          Um preço nos dias marcados é o preço próprio do dia (com + se algumas horas têm outro); «grelha»
          marca o dia em que uma grelha agendada começa. Escolha um dia para lhe dar um preço.
        </Trans>
      </Text>
    </Stack>
  );
}

/** The chosen date's price: the day's price, hours priced otherwise, save, back to the grid's price. */
function DatePriceForm() {
  const { t } = useLingui();
  const tag = intlTag(useAdminLocale());
  const [state, send] = calendarFlow.useFlow();
  const problemText = useProblemText();
  const { date, fields, stored, error } = state.context;
  if (date === null) return null;
  const problems = shownDatePriceProblems(state.context);
  const day = new Intl.DateTimeFormat(tag, { dateStyle: 'full', timeZone: 'UTC' }).format(utcDay(date));
  const busy = state.matches('saving') || state.matches('removing');
  return (
    <SubmitForm onSubmit={() => send({ type: 'price.save' })} noValidate>
      <Stack gap="sm">
        <Title order={4} size="h6">
          {t`Preço de ${day}`}
        </Title>
        <TextInput
          label={t`Preço do dia (€)`}
          description={t`Para todo o dia, salvo as horas abaixo.`}
          required
          inputMode="decimal"
          maw={320}
          value={fields.dayPrice}
          error={problemText(problems.dayPrice, 'price')}
          onChange={(event) => send({ type: 'field.change', patch: { dayPrice: event.currentTarget.value } })}
        />
        {fields.bands.map((band, index) => {
          const number = index + 1;
          return (
            <Group key={index} align="flex-start" wrap="nowrap" gap="xs">
              <SimpleGrid cols={3} spacing="xs" style={{ flex: 1 }}>
                <TextInput
                  label={t`Das (HH:MM)`}
                  aria-label={t`Horas ${number}: das (HH:MM)`}
                  inputMode="numeric"
                  value={band.from}
                  error={problemText(problems[`bands.${index}.from`], 'time')}
                  onChange={(event) =>
                    send({ type: 'band.change', index, patch: { from: event.currentTarget.value } })
                  }
                />
                <TextInput
                  label={t`Às (HH:MM)`}
                  aria-label={t`Horas ${number}: às (HH:MM)`}
                  inputMode="numeric"
                  value={band.to}
                  error={problemText(problems[`bands.${index}.to`], 'time')}
                  onChange={(event) =>
                    send({ type: 'band.change', index, patch: { to: event.currentTarget.value } })
                  }
                />
                <TextInput
                  label={t`Preço (€)`}
                  aria-label={t`Horas ${number}: preço (€)`}
                  inputMode="decimal"
                  value={band.price}
                  error={problemText(problems[`bands.${index}.price`], 'price')}
                  onChange={(event) =>
                    send({ type: 'band.change', index, patch: { price: event.currentTarget.value } })
                  }
                />
              </SimpleGrid>
              <ActionIcon
                mt={28}
                variant="subtle"
                color="gray"
                aria-label={t`Retirar as horas ${number}`}
                onClick={() => send({ type: 'band.remove', index })}
              >
                ×
              </ActionIcon>
            </Group>
          );
        })}
        <Group>
          <Button variant="default" size="xs" onClick={() => send({ type: 'band.add' })}>
            <Trans>Acrescentar horas com outro preço</Trans>
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          <Trans>
            O preço do dia ganha à grelha. Os horários livres deste dia mudam já; os reservados mantêm o preço
            pago.
          </Trans>
        </Text>
        <ErrorBox error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => send({ type: 'date.close' })}>
            <Trans>Fechar</Trans>
          </Button>
          {stored && (
            <Button
              variant="outline"
              color="red"
              disabled={busy}
              onClick={() => send({ type: 'price.remove' })}
            >
              <Trans>Voltar ao preço da grelha</Trans>
            </Button>
          )}
          <Button type="submit" loading={state.matches('saving')} disabled={state.matches('removing')}>
            <Trans>Guardar o preço do dia</Trans>
          </Button>
        </Group>
      </Stack>
    </SubmitForm>
  );
}

/** The prices calendar of a branch; `saved`: the page reloads the branch's prices (the calendar's marks follow). */
export function PriceCalendar({
  branchId,
  grid,
  saved,
}: {
  branchId: number;
  grid: PriceGrid;
  saved: () => void;
}) {
  const admin = useAdmin();
  const today = new Date();
  const month = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}`;
  return (
    <calendarFlow.Provider input={{ branchId, month }} ports={{ admin, saved }}>
      <SectionCard id="price-calendar" title={<Trans>Preços por data</Trans>}>
        <Stack>
          <MonthCalendar grid={grid} />
          <DatePriceForm />
        </Stack>
      </SectionCard>
    </calendarFlow.Provider>
  );
}
