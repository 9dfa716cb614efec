import { createLazyRoute } from '@tanstack/react-router';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  Badge,
  Button,
  Checkbox,
  Fieldset,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useState, type ChangeEvent, type ReactNode } from 'react';
import type { AdminCreditPack, CreditUnit } from '../../../machines/adminConsole.actors.ts';
import { createAdminCreditPackActors } from '../../../machines/adminCreditPack.actors.ts';
import {
  adminCreditPackMachine,
  shownProblems,
  type CreditPackFields,
  type CreditPackProblem,
} from '../../../machines/adminCreditPack.machine.ts';
import { createFlowBinding } from '../../app/binding.tsx';
import { SubmitForm } from '../../ui/SubmitForm.tsx';
import { useAdmin } from '../context.tsx';
import { ErrorBox } from '../feedback.tsx';
import { useAdminQuery, useAdminTask, useBranchOptions } from '../hooks.ts';
import { Dialog } from '../parts/dialogs.tsx';
import { useFigures, useMoney, useWeekdayNames } from '../parts/format.ts';
import { ConsolePage, OwnersOnlyRefusal, SectionCard } from '../parts/layout.tsx';
import type { AdminRuntime } from '../runtime.ts';
import { QueryTable } from '../parts/tables.tsx';

// Prepaid credit packs (issue 31, owners): every pack with what it sells and how many were sold, a new pack,
// a pack's changes in a dialog, and taking a pack off sale or putting it back.

/** The pack form's binding (machines/adminCreditPack.machine.ts), over the console's own client. */
const packFlow = createFlowBinding(
  adminCreditPackMachine,
  (_runtime, ports: { admin: AdminRuntime; saved: () => void }) =>
    adminCreditPackMachine.provide({
      actors: createAdminCreditPackActors(ports.admin.api),
      actions: { saved: ports.saved, sessionEnded: ports.admin.sessionEnded },
    }),
);

const ISO_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** When a pack's credit may be spent, in a few words: its weekdays (runs of three or more as a span), its hours. */
function useScopeText() {
  const { t } = useLingui();
  const dayName = useWeekdayNames('short');
  return (pack: Pick<AdminCreditPack, 'weekdays' | 'from_time' | 'to_time'>) => {
    const days = [...new Set(pack.weekdays ?? [])].sort((a, b) => a - b);
    const runs: number[][] = [];
    for (const day of days) {
      const run = runs.at(-1);
      if (run && run.at(-1) === day - 1) run.push(day);
      else runs.push([day]);
    }
    const weekdays = runs
      .flatMap((run) =>
        run.length >= 3 ? [`${dayName(run[0]!)}–${dayName(run.at(-1)!)}`] : run.map((day) => dayName(day)),
      )
      .join(', ');
    const everyDay = days.length === 0 || days.length === 7;
    const from = pack.from_time;
    const to = pack.to_time;
    if (from === null || to === null)
      return everyDay ? t`Todos os dias, a qualquer hora` : t`${weekdays}, a qualquer hora`;
    return everyDay ? t`Todos os dias, das ${from} às ${to}` : t`${weekdays}, das ${from} às ${to}`;
  };
}

/** What a field's problem says beside it. */
function useProblemText() {
  const { t } = useLingui();
  return (field: keyof CreditPackFields, problem: CreditPackProblem, unit: CreditUnit): string => {
    switch (field) {
      case 'name':
        return problem === 'too-long' ? t`No máximo 80 caracteres.` : t`Escreva o nome do pacote.`;
      case 'branchId':
        return t`Escolha a filial que vende o pacote.`;
      case 'credit':
      case 'price':
        switch (problem) {
          case 'not-positive':
            return field === 'credit'
              ? t`O crédito tem de ser maior do que zero.`
              : t`O preço tem de ser maior do que zero.`;
          case 'too-large':
            return field === 'credit' && unit === 'hours'
              ? t`No máximo 1000 horas.`
              : t`No máximo 100 000 €.`;
          case 'not-quarters':
            return t`As horas contam-se em quartos de hora, por exemplo 1,25 ou 10.`;
          case 'not-cents':
            return t`Os euros têm no máximo duas casas decimais.`;
          default:
            return field === 'credit' && unit === 'hours'
              ? t`Escreva um número de horas, por exemplo 10.`
              : t`Escreva um valor em euros, por exemplo 49,90.`;
        }
      case 'validityDays':
        return t`Escreva um número inteiro de dias, de 1 a 1095.`;
      case 'fromTime':
      case 'toTime':
        if (problem === 'missing') return t`Escreva também esta hora, ou deixe as duas vazias.`;
        if (problem === 'not-after-start') return t`A hora final tem de ser depois da inicial.`;
        return t`Escreva a hora como HH:MM, por exemplo 07:00.`;
      default:
        return '';
    }
  };
}

/**
 * The pack's fields, each with its problem beside it once it was left or a save was asked, the failure of the
 * last save, then the form's button (`action`) and `actions` (the dialog's Back).
 */
function PackForm({
  action,
  actions,
  narrow = false,
}: {
  action: ReactNode;
  actions?: ReactNode;
  /** In a dialog: one field a line, whatever the screen's width. */
  narrow?: boolean;
}) {
  const { t } = useLingui();
  const [state, send] = packFlow.useFlow();
  const ready = packFlow.useCan({ type: 'pack.save' });
  const branches = useBranchOptions();
  const dayName = useWeekdayNames('long');
  const problemText = useProblemText();
  const { fields } = state.context;
  const problems = shownProblems(state.context);
  const change = (patch: Partial<CreditPackFields>) => send({ type: 'field.change', patch });
  const leave = (field: keyof CreditPackFields) => () => send({ type: 'field.leave', field });
  const problem = (field: keyof CreditPackFields) => {
    const found = problems[field];
    return found ? problemText(field, found, fields.unit) : null;
  };
  const text = (field: 'name' | 'credit' | 'price' | 'validityDays' | 'fromTime' | 'toTime') => ({
    value: fields[field],
    error: problem(field),
    onChange: (event: ChangeEvent<HTMLInputElement>) => change({ [field]: event.currentTarget.value }),
    onBlur: leave(field),
  });
  const busy = state.matches('creating') || state.matches('updating');
  return (
    <SubmitForm onSubmit={() => send({ type: 'pack.save' })} noValidate>
      <Stack gap="sm">
        <SimpleGrid cols={narrow ? 1 : { base: 1, sm: 2, lg: 3 }}>
          <TextInput label={t`Nome`} required maxLength={80} {...text('name')} />
          <NativeSelect
            label={t`Filial que vende`}
            required
            value={fields.branchId}
            error={problem('branchId')}
            data={[{ value: '', label: t`Escolha a filial` }, ...branches.options]}
            onChange={(event) => change({ branchId: event.currentTarget.value })}
            onBlur={leave('branchId')}
          />
          <NativeSelect
            label={t`Unidade`}
            value={fields.unit}
            data={[
              { value: 'hours', label: t`horas` },
              { value: 'eur', label: t`euros` },
            ]}
            onChange={(event) => change({ unit: event.currentTarget.value as CreditUnit })}
          />
          <TextInput
            label={fields.unit === 'hours' ? t`Crédito (horas)` : t`Crédito (€)`}
            required
            inputMode="decimal"
            {...text('credit')}
          />
          <TextInput label={t`Preço (€)`} required inputMode="decimal" {...text('price')} />
          <TextInput label={t`Validade (dias)`} required inputMode="numeric" {...text('validityDays')} />
        </SimpleGrid>
        <Checkbox
          label={t`Válido em todas as filiais`}
          description={t`Sem esta opção, o crédito só se usa na filial que vende.`}
          checked={fields.allBranches}
          onChange={(event) => change({ allBranches: event.currentTarget.checked })}
        />
        <Fieldset legend={t`Quando se pode usar (opcional, para pacotes fora das horas de ponta)`}>
          <Stack gap="sm">
            <Checkbox.Group
              label={t`Dias da semana`}
              description={t`Nenhum marcado: todos os dias.`}
              value={fields.weekdays.map(String)}
              onChange={(values) => change({ weekdays: values.map(Number).sort((a, b) => a - b) })}
            >
              <Group gap="sm" mt={4}>
                {ISO_WEEKDAYS.map((day) => (
                  <Checkbox key={day} value={String(day)} label={dayName(day)} />
                ))}
              </Group>
            </Checkbox.Group>
            <SimpleGrid cols={narrow ? 1 : { base: 1, sm: 2 }}>
              <TextInput
                label={t`Desde (hora local, HH:MM)`}
                placeholder="07:00"
                inputMode="numeric"
                {...text('fromTime')}
              />
              <TextInput
                label={t`Até (hora local, HH:MM)`}
                placeholder="16:00"
                inputMode="numeric"
                {...text('toTime')}
              />
            </SimpleGrid>
          </Stack>
        </Fieldset>
        <ErrorBox error={state.context.error} />
        <Group justify="flex-end">
          {actions}
          <Button type="submit" disabled={!ready} loading={busy}>
            {action}
          </Button>
        </Group>
      </Stack>
    </SubmitForm>
  );
}

/** A new pack, in a card on the page; once created, the form empties and the list reloads (`created`). */
function NewPack({ created }: { created: () => void }) {
  const admin = useAdmin();
  return (
    <packFlow.Provider input={{ pack: null }} ports={{ admin, saved: created }}>
      <SectionCard id="credit-pack-new" title={<Trans>Novo pacote</Trans>}>
        <PackForm action={<Trans>Criar</Trans>} />
      </SectionCard>
    </packFlow.Provider>
  );
}

/** A pack's changes, in a dialog that closes once they are saved (`saved`: the list reloads). */
function EditPack({
  pack,
  onClose,
  saved,
}: {
  pack: AdminCreditPack;
  onClose: () => void;
  saved: () => void;
}) {
  const { t } = useLingui();
  const admin = useAdmin();
  const name = pack.name;
  return (
    <Dialog title={t`Alterar o pacote ${name}`} onClose={onClose}>
      <packFlow.Provider input={{ pack }} ports={{ admin, saved }}>
        <Text size="sm" mb="sm">
          <Trans>A mudança vale para os pacotes vendidos a partir de agora; os já comprados não mudam.</Trans>
        </Text>
        <PackForm
          narrow
          action={<Trans>Guardar</Trans>}
          actions={
            <Button variant="default" onClick={onClose}>
              <Trans>Voltar</Trans>
            </Button>
          }
        />
      </packFlow.Provider>
    </Dialog>
  );
}

/** Credit packs (owners): the list with what each sells and how many were sold, a new pack, changes, sale. */
function CreditPacks() {
  const { t } = useLingui();
  const money = useMoney();
  const figures = useFigures();
  const scopeText = useScopeText();
  const list = useAdminQuery('creditPacks');
  const sale = useAdminTask('setCreditPackActive', () => list.reload());
  // The pack whose dialog is open.
  const [editing, setEditing] = useState<AdminCreditPack | null>(null);
  return (
    <ConsolePage title={<Trans>Pacotes de crédito</Trans>}>
      <NewPack created={list.reload} />
      <QueryTable
        query={list}
        empty={<Trans>Nenhum pacote.</Trans>}
        task={sale}
        label={t`Pacotes de crédito`}
        minWidth={980}
        headers={[
          t`Nome`,
          t`Filial`,
          t`Crédito`,
          t`Preço`,
          t`Validade`,
          t`Quando`,
          t`À venda`,
          t`Vendidos`,
          t`Ações`,
        ]}
        nowrap={[2, 3, 4, 6]}
        cells={(pack) => {
          const name = pack.name;
          const amount = figures.number(pack.credit);
          const days = pack.validity_days;
          return [
            name,
            <Stack gap={0}>
              <Text size="sm">{pack.branch.name}</Text>
              <Text size="xs" c="gray.4">
                {pack.all_branches ? t`usa-se em todas as filiais` : t`usa-se só nesta filial`}
              </Text>
            </Stack>,
            pack.unit === 'hours' ? t`${amount} h` : money(pack.credit),
            money(pack.price_eur),
            <Plural value={days} one="# dia" other="# dias" />,
            scopeText(pack),
            pack.active ? (
              <Badge color="green" variant="light">
                {t`à venda`}
              </Badge>
            ) : (
              <Badge color="gray" variant="outline">
                {t`fora de venda`}
              </Badge>
            ),
            pack.sold,
            <Group gap="xs" wrap="nowrap">
              <Button
                size="xs"
                variant="default"
                aria-label={t`Alterar ${name}`}
                onClick={() => setEditing(pack)}
              >
                <Trans>Alterar</Trans>
              </Button>
              <Button
                size="xs"
                variant="subtle"
                color={pack.active ? 'red' : undefined}
                aria-label={pack.active ? t`Retirar de venda ${name}` : t`Pôr à venda ${name}`}
                disabled={sale.state.matches('running')}
                onClick={() => sale.run({ id: pack.id, active: !pack.active })}
              >
                {pack.active ? <Trans>Retirar de venda</Trans> : <Trans>Pôr à venda</Trans>}
              </Button>
            </Group>,
          ];
        }}
      />
      {editing && (
        <EditPack
          key={editing.id}
          pack={editing}
          onClose={() => setEditing(null)}
          saved={() => {
            setEditing(null);
            list.reload();
          }}
        />
      )}
    </ConsolePage>
  );
}

export const Route = createLazyRoute('/$lang/admin/credit-packs')({
  component: CreditPacks,
  errorComponent: OwnersOnlyRefusal,
});
