import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useRuntime } from '../app/context.tsx';
import { useFeedbackText } from '../auth/feedback.tsx';
import { LanguageSelector } from '../shell/LanguageSelector.tsx';
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
  const feedbackText = useFeedbackText();
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

      <Modal
        opened={!state.matches('closed')}
        onClose={() => send({ type: 'deletion.cancel' })}
        title={t`Eliminar conta`}
        centered
        zIndex={250}
        closeButtonProps={{ 'aria-label': t`Fechar` }}
        classNames={{ title: 'auth-modal__title', content: 'auth-modal' }}
      >
        <Stack gap="md">
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
          {state.context.error && (
            <Text c="red.4" role="alert">
              {feedbackText(state.context.error)}
            </Text>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => send({ type: 'deletion.cancel' })}>
              <Trans>Cancelar</Trans>
            </Button>
            <Button
              color="red.9"
              loading={state.matches('deleting')}
              onClick={() => send({ type: 'deletion.confirm' })}
            >
              <Trans>Eliminar conta</Trans>
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
