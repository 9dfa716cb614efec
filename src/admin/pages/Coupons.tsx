import { createLazyRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState, type ChangeEvent, type ReactNode } from 'react';
import type { AdminCoupon } from '../../../machines/adminConsole.actors.ts';
import { createAdminCouponActors } from '../../../machines/adminCoupon.actors.ts';
import {
  adminCouponMachine,
  shownCouponProblems,
  type CouponFields,
  type CouponProblem,
} from '../../../machines/adminCoupon.machine.ts';
import { createFlowBinding } from '../../app/binding.tsx';
import { SubmitForm } from '../../ui/SubmitForm.tsx';
import { useAdmin } from '../context.tsx';
import { DayField } from '../dates.tsx';
import { ErrorBox } from '../feedback.tsx';
import { useAdminQuery, useAdminTask } from '../hooks.ts';
import { Dialog } from '../parts/dialogs.tsx';
import { useTimes } from '../parts/format.ts';
import { ConsolePage, OwnersOnlyRefusal, SectionCard } from '../parts/layout.tsx';
import type { AdminRuntime } from '../runtime.ts';
import { QueryTable } from '../parts/tables.tsx';

// Coupons (owners, issue 32): every coupon with its uses, a new coupon, a coupon's changes in a dialog (discount,
// days, caps, the accounts it is for), switching one on or off.

/** The coupon form's binding (machines/adminCoupon.machine.ts), over the console's own client. */
const couponFlow = createFlowBinding(
  adminCouponMachine,
  (_runtime, ports: { admin: AdminRuntime; saved: () => void }) =>
    adminCouponMachine.provide({
      actors: createAdminCouponActors(ports.admin.api),
      actions: { saved: ports.saved, sessionEnded: ports.admin.sessionEnded },
    }),
);

/** What a field's problem says beside it. */
function useProblemText() {
  const { t } = useLingui();
  return (field: keyof CouponFields, problem: CouponProblem): string => {
    switch (field) {
      case 'code':
        if (problem === 'missing') return t`Escreva o código do cupão.`;
        if (problem === 'taken') return t`Já existe um cupão com este código.`;
        return t`De 2 a 40 letras sem acentos, algarismos, - ou _.`;
      case 'percent':
        return problem === 'missing'
          ? t`Escreva o desconto em percentagem.`
          : t`O desconto é um número inteiro de 1 a 100.`;
      case 'until':
        return problem === 'before-start'
          ? t`O último dia não pode ser antes do primeiro.`
          : t`Esta data não é válida.`;
      case 'maxUses':
      case 'perUser':
        return t`Escreva um número inteiro de 1 a 1 000 000, ou deixe vazio para não limitar.`;
      default:
        return t`Esta data não é válida.`;
    }
  };
}

/**
 * The coupon's fields, each with its problem beside it once it was left, a save was asked or the server refused it;
 * the failure of the last save; then the form's button (`action`) and `actions` (the dialog's Back).
 */
function CouponForm({
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
  const [state, send] = couponFlow.useFlow();
  const problemText = useProblemText();
  const { fields } = state.context;
  const problems = shownCouponProblems(state.context);
  const change = (patch: Partial<CouponFields>) => send({ type: 'field.change', patch });
  const leave = (field: keyof CouponFields) => () => send({ type: 'field.leave', field });
  const problem = (field: keyof CouponFields) => {
    const found = problems[field];
    return found ? problemText(field, found) : null;
  };
  const text = (field: 'code' | 'percent' | 'maxUses' | 'perUser') => ({
    value: fields[field],
    error: problem(field),
    onChange: (event: ChangeEvent<HTMLInputElement>) => change({ [field]: event.currentTarget.value }),
    onBlur: leave(field),
  });
  const day = (field: 'from' | 'until' | 'registeredBefore') => ({
    value: fields[field],
    error: problem(field),
    onChange: (value: string) => change({ [field]: value }),
    onBlur: leave(field),
  });
  const busy = state.matches('creating') || state.matches('updating');
  const editing = state.context.coupon !== null;
  return (
    <SubmitForm onSubmit={() => send({ type: 'coupon.save' })} noValidate>
      <Stack gap="sm">
        <SimpleGrid cols={narrow ? 1 : { base: 1, sm: 2, lg: 4 }}>
          <TextInput label={t`Código`} required readOnly={editing} maxLength={40} {...text('code')} />
          <TextInput label={t`Desconto (%)`} required inputMode="numeric" {...text('percent')} />
          <TextInput
            label={t`Usos no total`}
            inputMode="numeric"
            placeholder={t`sem limite`}
            {...text('maxUses')}
          />
          <TextInput
            label={t`Usos por cliente`}
            inputMode="numeric"
            placeholder={t`sem limite`}
            {...text('perUser')}
          />
          <DayField label={editing ? t`Válido desde` : t`Válido desde (vazio: já)`} {...day('from')} />
          <DayField label={t`Válido até (inclusive)`} {...day('until')} />
          <DayField label={t`Só para contas registadas antes de`} {...day('registeredBefore')} />
        </SimpleGrid>
        <ErrorBox error={state.context.error} />
        <Group justify="flex-end">
          {actions}
          <Button type="submit" loading={busy}>
            {action}
          </Button>
        </Group>
      </Stack>
    </SubmitForm>
  );
}

/** A new coupon, in a card on the page; once created, every field empties and the list reloads (`created`). */
function NewCoupon({ created }: { created: () => void }) {
  const admin = useAdmin();
  return (
    <couponFlow.Provider input={{ coupon: null }} ports={{ admin, saved: created }}>
      <SectionCard id="coupon-new" title={<Trans>Novo cupão</Trans>}>
        <CouponForm action={<Trans>Criar</Trans>} />
      </SectionCard>
    </couponFlow.Provider>
  );
}

/** A coupon's changes, in a dialog that closes once they are saved (`saved`: the list reloads). */
function EditCoupon({
  coupon,
  onClose,
  saved,
}: {
  coupon: AdminCoupon;
  onClose: () => void;
  saved: () => void;
}) {
  const { t } = useLingui();
  const admin = useAdmin();
  const code = coupon.code;
  return (
    <Dialog title={t`Alterar o cupão ${code}`} onClose={onClose}>
      <couponFlow.Provider input={{ coupon }} ports={{ admin, saved }}>
        <Text size="sm" mb="sm">
          <Trans>
            A mudança vale para as reservas feitas a partir de agora; as já feitas mantêm o desconto que
            tiveram.
          </Trans>
        </Text>
        <CouponForm
          narrow
          action={<Trans>Guardar</Trans>}
          actions={
            <Button variant="default" onClick={onClose}>
              <Trans>Voltar</Trans>
            </Button>
          }
        />
      </couponFlow.Provider>
    </Dialog>
  );
}

/** Coupons (owners): the list with uses, a new coupon, a coupon's changes, switching one on or off. */
function Coupons() {
  const { t } = useLingui();
  const times = useTimes();
  const list = useAdminQuery('coupons');
  const toggle = useAdminTask('setCouponActive', () => list.reload());
  // The coupon whose dialog is open.
  const [editing, setEditing] = useState<AdminCoupon | null>(null);
  return (
    <ConsolePage title={<Trans>Cupões</Trans>}>
      <NewCoupon created={list.reload} />
      <QueryTable
        query={list}
        empty={<Trans>Nenhum cupão.</Trans>}
        task={toggle}
        minWidth={760}
        headers={[
          t`Código`,
          t`Desconto`,
          t`Validade`,
          t`Usos`,
          t`Contas registadas antes de`,
          t`Ativo`,
          t`Ações`,
        ]}
        rowKey={(coupon) => coupon.code}
        cells={(coupon) => {
          const code = coupon.code;
          return [
            <Badge variant="outline">{code}</Badge>,
            `${Math.round(coupon.discount * 100)}%`,
            <>
              {times.instant(coupon.valid_from)} –{' '}
              {coupon.valid_until ? times.instant(coupon.valid_until) : '∞'}
            </>,
            <>
              {coupon.uses}
              {coupon.max_uses !== null ? ` / ${coupon.max_uses}` : ''}
              {coupon.max_uses_per_user !== null ? ` · ${t`${coupon.max_uses_per_user} por cliente`}` : ''}
            </>,
            coupon.registered_before ? times.instant(coupon.registered_before) : t`qualquer conta`,
            <Switch
              aria-label={t`Cupão ${code} ativo`}
              checked={coupon.active}
              disabled={toggle.state.matches('running')}
              onChange={(event) => toggle.run({ code, active: event.currentTarget.checked })}
            />,
            <Button
              size="xs"
              variant="default"
              aria-label={t`Alterar ${code}`}
              onClick={() => setEditing(coupon)}
            >
              <Trans>Alterar</Trans>
            </Button>,
          ];
        }}
      />
      {editing && (
        <EditCoupon
          key={editing.code}
          coupon={editing}
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

export const Route = createLazyRoute('/$lang/admin/coupons')({
  component: Coupons,
  errorComponent: OwnersOnlyRefusal,
});
