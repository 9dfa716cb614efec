import { createLazyRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Button, Group, NumberInput, Text } from '@mantine/core';
import type { DocumentFilters, TaxDocumentPage } from '../../../machines/adminConsole.actors.ts';
import { ApiError } from '../../../machines/api.ts';
import { useRuntime } from '../../app/context.tsx';
import { ErrorBox } from '../feedback.tsx';
import { useAdminTask, useConsoleActors, usePagedQuery } from '../hooks.ts';
import { PeriodFields } from '../parts/booking.tsx';
import { download, useMoney, useTimes } from '../parts/format.ts';
import { AdminLink, ConsolePage, OwnersOnlyRefusal } from '../parts/layout.tsx';
import { PagedTable } from '../parts/tables.tsx';

type TaxDocument = TaxDocumentPage['items'][number];

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Invoices and credit notes (issue 29, item 6; owners): a period's or a booking's documents with their number,
 * ATCUD, buyer, amount, status and PDF; one sent again to its member; the ledger line by line as CSV.
 */
function Documents() {
  const { t } = useLingui();
  const money = useMoney();
  const times = useTimes();
  const actors = useConsoleActors();
  const today = new Date();
  const defaults: DocumentFilters = {
    from: isoDate(new Date(today.getTime() - 29 * 86_400_000)),
    to: isoDate(today),
    bookingId: null,
    page: 1,
  };
  const query = usePagedQuery('documents', defaults);
  const resend = useAdminTask('resendDocument');
  const csv = useAdminTask(async (input: { from: string; to: string }) => {
    const text = await actors.ledgerCsv({
      branchId: null,
      from: input.from,
      to: input.to,
      granularity: 'day',
    });
    download(`ledger-${input.from}-${input.to}.csv`, 'text/csv', String(text));
  });
  // Only Stripe has fees and payouts: the reconciliation is offered when the client pays through Stripe.
  const { config } = useRuntime();
  const reconciliation = useAdminTask(async (input: { from: string; to: string }) => {
    try {
      const text = await actors.stripeReconciliationCsv(input);
      download(`stripe-reconciliation-${input.from}-${input.to}.csv`, 'text/csv', String(text));
    } catch (error) {
      // Stripe's failures are the server's 502/503, whose sentence the console hides: said here instead.
      if (error instanceof ApiError && error.code === 'provider_balance_refused')
        throw new ApiError(
          null,
          t`O Stripe recusou a leitura das transações de saldo e das transferências. Confirme que a chave do Stripe tem leitura de «Balance transactions» e «Payouts».`,
        );
      if (error instanceof ApiError && error.code === 'provider_balance_unavailable')
        throw new ApiError(null, t`O Stripe não respondeu a tempo. Tente novamente dentro de momentos.`);
      throw error;
    }
  });
  const kinds: Record<TaxDocument['kind'], string> = {
    invoice_receipt: t`Fatura-recibo`,
    simplified_invoice: t`Fatura simplificada`,
    credit_note: t`Nota de crédito`,
  };
  const statuses: Record<TaxDocument['status'], string> = {
    pending: t`por emitir`,
    issued: t`emitido`,
    refused: t`recusado`,
  };
  const { from, to, bookingId } = query.params;
  return (
    <ConsolePage title={<Trans>Faturas e notas de crédito</Trans>}>
      <Group align="flex-end" wrap="wrap">
        <PeriodFields from={from} to={to} onChange={query.filter} />
        <NumberInput
          label={t`Reserva`}
          min={1}
          allowDecimal={false}
          value={bookingId ?? ''}
          onChange={(value) =>
            query.filter({ bookingId: typeof value === 'number' && value > 0 ? value : null })
          }
        />
        <Button
          variant="default"
          disabled={from === '' || to === ''}
          loading={csv.state.matches('running')}
          onClick={() => csv.run({ from, to })}
        >
          <Trans>Exportar movimentos (CSV)</Trans>
        </Button>
        {config.stripePublishableKey && (
          <Button
            variant="default"
            disabled={from === '' || to === ''}
            loading={reconciliation.state.matches('running')}
            onClick={() => reconciliation.run({ from, to })}
          >
            <Trans>Conciliar com o Stripe: comissões e transferências (CSV)</Trans>
          </Button>
        )}
      </Group>
      <ErrorBox error={csv.state.context.error} />
      <ErrorBox error={reconciliation.state.context.error} />
      {resend.state.matches('done') && (
        <Alert color="green" variant="light" role="status">
          <Trans>O documento foi reenviado ao cliente.</Trans>
        </Alert>
      )}
      <ErrorBox error={resend.state.context.error} />
      <PagedTable
        query={query}
        empty={<Trans>Nenhum documento neste período.</Trans>}
        minWidth={820}
        label={t`Faturas e notas de crédito`}
        headers={[t`Número`, t`ATCUD`, t`Data`, t`Comprador`, t`Reservas`, t`Valor`, t`Estado`, t`PDF`]}
        nowrap={[0, 2]}
        cells={(document) => [
          <>
            <Text size="sm" fw={600}>
              {document.number ?? '—'}
            </Text>
            <Text size="xs" c="gray.4">
              {kinds[document.kind]}
            </Text>
          </>,
          document.atcud ?? '—',
          times.instant(document.issued_at ?? document.created_at),
          document.buyer_tax_id ? `${document.buyer_name} (${document.buyer_tax_id})` : document.buyer_name,
          // A pack's or a voucher's document is for no booking.
          document.booking_ids.length === 0 ? (
            '—'
          ) : (
            <Group gap={4}>
              {document.booking_ids.map((id) => (
                <AdminLink key={id} path={`bookings/${id}`} size="sm">
                  #{id}
                </AdminLink>
              ))}
            </Group>
          ),
          `${document.kind === 'credit_note' ? '−' : ''}${money(document.total_eur)}`,
          statuses[document.status],
          document.pdf_url ? (
            <Group gap="xs" wrap="nowrap">
              <Anchor href={document.pdf_url} target="_blank" rel="noopener" size="sm">
                <Trans>Abrir</Trans>
              </Anchor>
              <Button
                size="compact-xs"
                variant="default"
                loading={resend.state.matches('running') && resend.input?.id === document.id}
                onClick={() => resend.run({ id: document.id })}
              >
                <Trans>Reenviar</Trans>
              </Button>
            </Group>
          ) : (
            '—'
          ),
        ]}
      />
    </ConsolePage>
  );
}

export const Route = createLazyRoute('/$lang/admin/documents')({
  component: Documents,
  errorComponent: OwnersOnlyRefusal,
});
