import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, Stack, Switch, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ErrorBox } from '../feedback.tsx';
import { useAdminQuery, useAdminTask, useConsoleActors } from '../hooks.ts';
import { DataTable, Empty, PageTitle, QueryStatus, SectionCard, useTimes } from '../parts.tsx';
import { DayField } from '../dates.tsx';

const positiveInteger = (value: string) =>
  /^\d{1,7}$/.test(value) && Number(value) > 0 ? Number(value) : null;

/** Coupons (owners): the list with uses, a new coupon, switching one on or off. */
export default function Coupons() {
  const { t } = useLingui();
  const actors = useConsoleActors();
  const times = useTimes();
  const list = useAdminQuery(actors.coupons, undefined);
  const [code, setCode] = useState('');
  const [percent, setPercent] = useState('');
  const [until, setUntil] = useState('');
  const [maxUses, setMaxUses] = useState('');
  const [perUser, setPerUser] = useState('');
  const create = useAdminTask(actors.createCoupon, () => {
    setCode('');
    setPercent('');
    list.reload();
  });
  const toggle = useAdminTask(actors.setCouponActive, () => list.reload());
  const discount = /^\d{1,2}$|^100$/.test(percent) && Number(percent) > 0 ? Number(percent) / 100 : null;
  const valid =
    /^[A-Za-z0-9_-]{1,64}$/.test(code) &&
    discount !== null &&
    (maxUses === '' || positiveInteger(maxUses) !== null) &&
    (perUser === '' || positiveInteger(perUser) !== null);
  return (
    <Stack>
      <PageTitle>
        <Trans>Cupões</Trans>
      </PageTitle>
      <SectionCard id="coupon-new" title={<Trans>Novo cupão</Trans>}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!valid || discount === null) return;
            create.run({
              code,
              discount,
              valid_until: until === '' ? null : new Date(`${until}T23:59:59Z`).toISOString(),
              max_uses: maxUses === '' ? null : positiveInteger(maxUses),
              max_uses_per_user: perUser === '' ? null : positiveInteger(perUser),
              active: true,
            });
          }}
        >
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label={t`Código`}
              required
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
            />
            <TextInput
              label={t`Desconto (%)`}
              required
              inputMode="numeric"
              value={percent}
              onChange={(event) => setPercent(event.currentTarget.value)}
            />
            <DayField label={t`Válido até`} value={until} onChange={(value) => setUntil(value)} />
            <TextInput
              label={t`Usos no total`}
              inputMode="numeric"
              value={maxUses}
              onChange={(event) => setMaxUses(event.currentTarget.value)}
            />
            <TextInput
              label={t`Usos por cliente`}
              inputMode="numeric"
              value={perUser}
              onChange={(event) => setPerUser(event.currentTarget.value)}
            />
            <Button type="submit" disabled={!valid} loading={create.state.matches('running')}>
              <Trans>Criar</Trans>
            </Button>
          </Group>
          <ErrorBox error={create.state.context.error} />
        </form>
      </SectionCard>
      <QueryStatus query={list} hasData={list.data !== null} />
      {list.data?.length === 0 && (
        <Empty>
          <Trans>Nenhum cupão.</Trans>
        </Empty>
      )}
      <ErrorBox error={toggle.state.context.error} />
      {list.data && list.data.length > 0 && (
        <DataTable
          minWidth={560}
          headers={[t`Código`, t`Desconto`, t`Validade`, t`Usos`, t`Ativo`]}
          rows={list.data}
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
      )}
    </Stack>
  );
}
