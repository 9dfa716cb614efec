import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { sumEuros, type Booking } from '../../machines/myBookings.selectors.ts';
import { formatEuros } from '../i18n/format.ts';
import { useLocale } from '../shell/navigation.ts';
import { bookingTimeRange } from './time.ts';
import { useRuntime } from '../app/context.tsx';
import { LanguageSelector } from '../shell/LanguageSelector.tsx';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { accountDeletionFlow } from './useAccountDeletion.tsx';

/** The settings tab (docs/decisions.md, 'Client'): language, Logout and Delete Account (with its confirmation modal). */
export function Settings({ onClose }: { onClose: () => Promise<void> }) {
  const runtime = useRuntime();
  // Closing first, then logging out: a logged-out account tab would ask for a login instead.
  const logOut = () => void onClose().then(() => runtime.session.send({ type: 'logout' }));
  return (
    <accountDeletionFlow.Provider ports={{ accountDeleted: logOut }}>
      <SettingsPanel logOut={logOut} />
    </accountDeletionFlow.Provider>
  );
}

function SettingsPanel({ logOut }: { logOut: () => void }) {
  const { t } = useLingui();
  const [state, send] = accountDeletionFlow.useFlow();

  return (
    <Stack gap="xl">
      <section aria-labelledby="settings-language">
        <Title order={3} size="h5" id="settings-language" mb="sm">
          <Trans>Escolha o seu idioma preferido</Trans>
        </Title>
        <LanguageSelector variant="settings" />
      </section>
      <section aria-labelledby="settings-account">
        <Title order={3} size="h5" id="settings-account" mb="sm">
          <Trans>Gerir as definições da sua conta</Trans>
        </Title>
        <Group gap="sm">
          <Button variant="default" onClick={logOut}>
            <Trans>Terminar sessão</Trans>
          </Button>
          <Button color="red" variant="outline" onClick={() => send({ type: 'deletion.open' })}>
            <Trans>Eliminar conta</Trans>
          </Button>
        </Group>
      </section>

      <ConfirmDialog
        opened={!state.matches('closed')}
        title={t`Eliminar conta`}
        error={state.context.error}
        confirm={<Trans>Eliminar conta</Trans>}
        confirming={state.matches('deleting')}
        disabled={!state.can({ type: 'deletion.confirm' })}
        onCancel={() => send({ type: 'deletion.cancel' })}
        onConfirm={() => send({ type: 'deletion.confirm' })}
      >
        {state.matches('loading') ? (
          <Loader size="sm" role="status" aria-label={t`A carregar as suas reservas…`} />
        ) : (
          <DeletionConsequences upcoming={state.context.upcoming} />
        )}
        <Alert color="yellow" variant="light" role="note" title={t`Atenção`}>
          <Trans>Esta ação não pode ser anulada.</Trans>
        </Alert>
      </ConfirmDialog>
    </Stack>
  );
}

/**
 * Issue 30: what deleting the account does to the member's upcoming bookings, each with what its cancellation
 * refunds now, and the total; a booking past its last refund says it gets nothing.
 */
function DeletionConsequences({ upcoming }: { upcoming: Booking[] | null }) {
  const { t } = useLingui();
  const locale = useLocale();
  if (upcoming === null)
    return (
      <Text>
        <Trans>
          Tem a certeza de que quer eliminar a sua conta? As reservas futuras serão canceladas e reembolsadas
          de acordo com a política de reembolso, e todos os seus dados serão eliminados de forma permanente.
        </Trans>
      </Text>
    );
  if (upcoming.length === 0)
    return (
      <Text>
        <Trans>
          Tem a certeza de que quer eliminar a sua conta? Não tem reservas futuras. Todos os seus dados serão
          eliminados de forma permanente.
        </Trans>
      </Text>
    );
  const total = formatEuros(sumEuros(upcoming.map((booking) => booking.refundable_eur)), locale);
  return (
    <Stack gap="xs">
      <Text>
        <Trans>
          Tem a certeza de que quer eliminar a sua conta? Todos os seus dados serão eliminados de forma
          permanente e estas reservas serão canceladas:
        </Trans>
      </Text>
      <ul className="deletion-list">
        {upcoming.map((booking) => {
          const branch = booking.time_slot_data.branch_data;
          const when = bookingTimeRange(booking, locale);
          const amount = formatEuros(booking.refundable_eur, locale);
          return (
            <li key={booking.id}>
              {branch.name}, {when}:{' '}
              {booking.refundable_eur > 0 ? t`reembolso de ${amount}` : <strong>{t`sem reembolso`}</strong>}
            </li>
          );
        })}
      </ul>
      <Text fw={700}>
        <Trans>Reembolso total: {total}</Trans>
      </Text>
    </Stack>
  );
}
