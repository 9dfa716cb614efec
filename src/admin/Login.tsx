import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { canSubmitLogin } from '../../machines/adminSession.machine.ts';
import { useAdmin } from './context.tsx';
import { ErrorBox } from './feedback.tsx';

/** E-mail, password and the authenticator's 6-digit code (issue 18). */
export function Login() {
  const { t } = useLingui();
  const { session } = useAdmin();
  const fields = useSelector(session, (state) => state.context.fields);
  const error = useSelector(session, (state) => state.context.error);
  const expired = useSelector(session, (state) => state.context.expired);
  const busy = useSelector(session, (state) => state.matches('loggingIn'));
  const change = (field: 'email' | 'password' | 'code', value: string) =>
    session.send({ type: 'field.change', field, value });
  return (
    <main className="admin-login">
      <Paper withBorder p="lg" maw={420} w="100%" mx="auto" mt="xl">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            session.send({ type: 'login.submit' });
          }}
        >
          <Stack gap="md">
            <Title order={1} size="h3">
              <Trans>Consola de operação</Trans>
            </Title>
            {expired && (
              <Alert color="yellow" variant="light" role="status">
                <Trans>A sua sessão terminou. Inicie sessão novamente.</Trans>
              </Alert>
            )}
            <ErrorBox error={error} />
            <TextInput
              label={t`E-mail`}
              type="email"
              autoComplete="username"
              required
              value={fields.email}
              onChange={(event) => change('email', event.currentTarget.value)}
            />
            <PasswordInput
              label={t`Palavra-passe`}
              autoComplete="current-password"
              required
              value={fields.password}
              onChange={(event) => change('password', event.currentTarget.value)}
            />
            <TextInput
              label={t`Código da aplicação de autenticação`}
              description={t`Os 6 algarismos que a aplicação mostra agora`}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              required
              value={fields.code}
              onChange={(event) => change('code', event.currentTarget.value)}
            />
            <Button type="submit" loading={busy} disabled={!canSubmitLogin(fields)}>
              <Trans>Entrar</Trans>
            </Button>
          </Stack>
        </form>
      </Paper>
    </main>
  );
}
