import { createLazyRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Switch, TextInput } from '@mantine/core';
import type { CouponFields } from '../../../machines/adminCoupon.machine.ts';
import { useAdminQuery, useAdminTask } from '../hooks.ts';
import { NewCouponForm, useNewCouponSelector, useNewCouponSend } from '../useConsoleForms.tsx';
import { useTimes } from '../parts/format.ts';
import { ConsolePage, OwnersOnlyRefusal } from '../parts/layout.tsx';
import { QueryTable } from '../parts/tables.tsx';
import { DayField } from '../dates.tsx';

/** The new coupon's fields (machines/adminCoupon.machine.ts). */
function NewCouponFields() {
  const { t } = useLingui();
  const send = useNewCouponSend();
  const fields = useNewCouponSelector((state) => state.context.fields);
  const change = (field: keyof CouponFields, value: string) => send({ type: 'field.change', field, value });
  return (
    <>
      <TextInput
        label={t`Código`}
        required
        value={fields.code}
        onChange={(event) => change('code', event.currentTarget.value)}
      />
      <TextInput
        label={t`Desconto (%)`}
        required
        inputMode="numeric"
        value={fields.percent}
        onChange={(event) => change('percent', event.currentTarget.value)}
      />
      <DayField label={t`Válido até`} value={fields.until} onChange={(value) => change('until', value)} />
      <TextInput
        label={t`Usos no total`}
        inputMode="numeric"
        value={fields.maxUses}
        onChange={(event) => change('maxUses', event.currentTarget.value)}
      />
      <TextInput
        label={t`Usos por cliente`}
        inputMode="numeric"
        value={fields.perUser}
        onChange={(event) => change('perUser', event.currentTarget.value)}
      />
    </>
  );
}

/** Coupons (owners): the list with uses, a new coupon, switching one on or off. */
function Coupons() {
  const { t } = useLingui();
  const times = useTimes();
  const list = useAdminQuery('coupons');
  const toggle = useAdminTask('setCouponActive', () => list.reload());
  return (
    <ConsolePage title={<Trans>Cupões</Trans>}>
      <NewCouponForm
        id="coupon-new"
        title={<Trans>Novo cupão</Trans>}
        created={list.reload}
        Fields={NewCouponFields}
      />
      <QueryTable
        query={list}
        empty={<Trans>Nenhum cupão.</Trans>}
        task={toggle}
        minWidth={560}
        headers={[t`Código`, t`Desconto`, t`Validade`, t`Usos`, t`Ativo`]}
        rowKey={(coupon) => coupon.code}
        cells={(coupon) => [
          <Badge variant="outline">{coupon.code}</Badge>,
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
          <Switch
            aria-label={t`Cupão ${coupon.code} ativo`}
            checked={coupon.active}
            disabled={toggle.state.matches('running')}
            onChange={(event) => toggle.run({ code: coupon.code, active: event.currentTarget.checked })}
          />,
        ]}
      />
    </ConsolePage>
  );
}

export const Route = createLazyRoute('/$lang/admin/coupons')({
  component: Coupons,
  errorComponent: OwnersOnlyRefusal,
});
