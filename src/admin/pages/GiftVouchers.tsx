import { createLazyRoute } from '@tanstack/react-router';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Badge, NativeSelect, Text } from '@mantine/core';
import type { AdminGiftVoucher, GiftVoucherFilter } from '../../../machines/adminConsole.actors.ts';
import { useSearchQuery } from '../hooks.ts';
import { useMoney, useTimes } from '../parts/format.ts';
import { ConsolePage, OwnersOnlyRefusal } from '../parts/layout.tsx';
import { QueryTable } from '../parts/tables.tsx';

// Gift vouchers sold (owners, read-only): each voucher's code, amount, buyer, recipient, status and dates, a
// status filter kept in the address (`?status=`, machines/adminSearch.ts), and what is still to be used.

type Status = AdminGiftVoucher['status'];

const STATUS_COLORS: Record<Status, string> = {
  unpaid: 'gray',
  issued: 'green',
  redeemed: 'blue',
  expired: 'red',
};

/** The list's totals: how many vouchers are shown, and how many of them (and how much) are still to be used. */
function Totals({ vouchers }: { vouchers: readonly AdminGiftVoucher[] }) {
  const money = useMoney();
  // `issued`: paid, neither redeemed nor past its expiry (the server reads the status at its clock), so what the
  // business still owes in gym time.
  const open = vouchers.filter((voucher) => voucher.status === 'issued');
  const shown = vouchers.length;
  const count = open.length;
  const amount = money(open.reduce((sum, voucher) => sum + voucher.amount_eur, 0));
  return (
    <Text size="sm" c="gray.4">
      <Plural value={shown} one="# vale" other="# vales" />
      {' · '}
      <Plural
        value={count}
        _0="nenhum por usar"
        one={`# por usar, no valor de ${amount}`}
        other={`# por usar, no valor de ${amount}`}
      />
    </Text>
  );
}

/** Gift vouchers (owners): the list, newest first, filtered by status. */
function GiftVouchers() {
  const { t } = useLingui();
  const money = useMoney();
  const times = useTimes();
  const query = useSearchQuery('giftVouchers', { status: '' });
  const statuses: Record<Status, string> = {
    unpaid: t`por pagar`,
    issued: t`por usar`,
    redeemed: t`usado`,
    expired: t`expirado`,
  };
  const filters: { value: GiftVoucherFilter | ''; label: string }[] = [
    { value: '', label: t`Todos` },
    { value: 'issued', label: t`Por usar` },
    { value: 'expiring', label: t`A expirar em 30 dias` },
    { value: 'redeemed', label: t`Usados` },
    { value: 'expired', label: t`Expirados` },
    { value: 'unpaid', label: t`Por pagar` },
  ];
  const date = (iso: string | null) => (iso ? times.instant(iso) : '—');
  // When it was used, and by whom (the e-mail of the account its credit went to).
  const redeemedBy = (voucher: AdminGiftVoucher) => {
    if (!voucher.redeemed_at) return '—';
    const email = voucher.redeemed_by_email;
    return (
      <>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {date(voucher.redeemed_at)}
        </Text>
        {email && (
          <Text size="xs" c="gray.4">
            {t`por ${email}`}
          </Text>
        )}
      </>
    );
  };
  const vouchers = query.data;
  return (
    <ConsolePage title={<Trans>Vales de oferta</Trans>}>
      <NativeSelect
        label={t`Estado`}
        maw={320}
        value={query.params.status}
        data={filters}
        onChange={(event) => query.change({ status: event.currentTarget.value as GiftVoucherFilter | '' })}
      />
      <QueryTable
        query={query}
        empty={<Trans>Nenhum vale.</Trans>}
        caption={vouchers && <Totals vouchers={vouchers} />}
        label={t`Vales de oferta`}
        minWidth={900}
        headers={[
          t`Código`,
          t`Valor`,
          t`Comprador`,
          t`Destinatário`,
          t`Estado`,
          t`Emitido`,
          t`Expira`,
          t`Usado`,
        ]}
        nowrap={[0, 1, 4]}
        cells={(voucher) => [
          <Text size="sm" ff="monospace">
            {voucher.code ?? '—'}
          </Text>,
          money(voucher.amount_eur),
          voucher.buyer_email ?? t`conta eliminada`,
          <>
            <Text size="sm">{voucher.recipient_name}</Text>
            <Text size="xs" c="gray.4">
              {voucher.recipient_email}
            </Text>
          </>,
          <Badge color={STATUS_COLORS[voucher.status]} variant="light">
            {statuses[voucher.status]}
          </Badge>,
          date(voucher.issued_at),
          date(voucher.expires_at),
          redeemedBy(voucher),
        ]}
      />
    </ConsolePage>
  );
}

export const Route = createLazyRoute('/$lang/admin/gift-vouchers')({
  component: GiftVouchers,
  errorComponent: OwnersOnlyRefusal,
});
