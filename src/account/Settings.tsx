import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
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
        onCancel={() => send({ type: 'deletion.cancel' })}
        onConfirm={() => send({ type: 'deletion.confirm' })}
      >
        <Text>
          <Trans>
            Tem a certeza de que quer eliminar a sua conta? As reservas futuras serão canceladas e
            reembolsadas de acordo com a política de reembolso, e todos os seus dados serão eliminados de
            forma permanente.
          </Trans>
        </Text>
        <Alert color="yellow" variant="light" role="note" title={t`Atenção`}>
          <Trans>Esta ação não pode ser anulada.</Trans>
        </Alert>
      </ConfirmDialog>
    </Stack>
  );
}
