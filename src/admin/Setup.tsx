import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { createAdminSetupActors } from '../../machines/adminSetup.actors.ts';
import { adminSetupMachine } from '../../machines/adminSetup.machine.ts';
import { createFlowBinding } from '../app/binding.tsx';
import { useAdmin } from './context.tsx';
import { ErrorBox } from './feedback.tsx';
import { SubmitForm } from '../ui/SubmitForm.tsx';
import { AdminLink } from './parts/layout.tsx';
import type { AdminRuntime } from './runtime.ts';

/** The password setup's binding (machines/adminSetup.machine.ts), over the console's own client. */
const setupFlow = createFlowBinding(adminSetupMachine, (_runtime, ports: { admin: AdminRuntime }) =>
  adminSetupMachine.provide({ actors: createAdminSetupActors(ports.admin.api) }),
);

/** The page the one-time link of `operator add` opens: the operator chooses a password. */
export function Setup({ setupToken }: { setupToken: string }) {
  const admin = useAdmin();
  return (
    <setupFlow.Provider input={{ setupToken }} ports={{ admin }}>
      <SetupForm />
    </setupFlow.Provider>
  );
}

function SetupForm() {
  const { t } = useLingui();
  const send = setupFlow.useSend();
  const phase = setupFlow.useSelector((state) =>
    state.matches('done') ? 'done' : state.matches('linkInvalid') ? 'linkInvalid' : 'editing',
  );
  const saving = setupFlow.useSelector((state) => state.matches('saving'));
  const { error, password, confirmPassword } = setupFlow.useSelector((state) => state.context);
  const toLogin = (
    <AdminLink path="">
      <Trans>Ir para o início de sessão</Trans>
    </AdminLink>
  );
  return (
    <main className="admin-login">
      <Paper withBorder p="lg" maw={420} w="100%" mx="auto" mt="xl">
        <Stack gap="md">
          <Title order={1} size="h3">
            <Trans>Definir a palavra-passe</Trans>
          </Title>
          {phase === 'done' ? (
            <>
              <Alert color="green" variant="light" role="status">
                <Trans>
                  Palavra-passe definida. Inicie sessão com ela e com o código da sua aplicação de
                  autenticação.
                </Trans>
              </Alert>
              {toLogin}
            </>
          ) : phase === 'linkInvalid' ? (
            <>
              <Alert color="red" variant="light" role="alert">
                <Trans>Esta ligação já foi usada ou expirou. Peça uma nova a um responsável.</Trans>
              </Alert>
              {toLogin}
            </>
          ) : (
            <SubmitForm onSubmit={() => send({ type: 'setup.submit' })}>
              <Stack gap="md">
                <Text size="sm">
                  <Trans>Escolha a palavra-passe da sua conta de operador.</Trans>
                </Text>
                <ErrorBox error={error} />
                <PasswordInput
                  label={t`Nova palavra-passe`}
                  autoComplete="new-password"
                  required
                  value={password}
                  onChange={(event) =>
                    send({ type: 'field.change', field: 'password', value: event.currentTarget.value })
                  }
                />
                <PasswordInput
                  label={t`Confirmar a palavra-passe`}
                  autoComplete="new-password"
                  required
                  value={confirmPassword}
                  onChange={(event) =>
                    send({ type: 'field.change', field: 'confirmPassword', value: event.currentTarget.value })
                  }
                />
                <Button type="submit" loading={saving}>
                  <Trans>Guardar</Trans>
                </Button>
              </Stack>
            </SubmitForm>
          )}
        </Stack>
      </Paper>
    </main>
  );
}
