import { createLazyRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  NativeSelect,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { Operator } from '../../../machines/adminConsole.actors.ts';
import { useAdminQuery, useAdminTask } from '../hooks.ts';
import { NewOperatorForm, useNewOperatorSelector, useNewOperatorSend } from '../useConsoleForms.tsx';
import { useTimes } from '../parts/format.ts';
import { ConsolePage, OwnersOnlyRefusal } from '../parts/layout.tsx';
import { QueryTable } from '../parts/tables.tsx';

/** The new operator's fields (machines/adminOperator.machine.ts): an e-mail and a role. */
function NewOperatorFields() {
  const { t } = useLingui();
  const send = useNewOperatorSend();
  const email = useNewOperatorSelector((state) => state.context.email);
  const role = useNewOperatorSelector((state) => state.context.role);
  return (
    <>
      <TextInput
        type="email"
        label={t`E-mail`}
        required
        value={email}
        onChange={(event) => send({ type: 'email.change', value: event.currentTarget.value })}
      />
      <NativeSelect
        label={t`Papel`}
        value={role}
        data={[
          { value: 'staff', label: t`equipa` },
          { value: 'owner', label: t`responsável` },
        ]}
        onChange={(event) =>
          send({ type: 'role.change', role: event.currentTarget.value as Operator['role'] })
        }
      />
    </>
  );
}

/** The operator just made: its setup link and TOTP secret, shown this once. */
function CreatedOperator() {
  const { t } = useLingui();
  const created = useNewOperatorSelector((state) => state.context.created);
  if (!created) return null;
  return (
    <Alert
      color="green"
      variant="light"
      mt="sm"
      title={t`Mostrado só agora: envie ao operador por um canal seguro`}
    >
      <Stack gap={4}>
        <Text size="sm">
          <Trans>Ligação para definir a palavra-passe:</Trans>
        </Text>
        <Code block>{created.setup_url}</Code>
        <Text size="sm">
          <Trans>Segredo TOTP (para a aplicação de autenticação):</Trans>
        </Text>
        <Code block>{created.totp_uri}</Code>
      </Stack>
    </Alert>
  );
}

/** Operators (owners): add one (its setup link and TOTP secret shown once), remove one, end sessions. */
function Operators() {
  const { t } = useLingui();
  const times = useTimes();
  const list = useAdminQuery('operators');
  const sessions = useAdminQuery('sessions');
  const remove = useAdminTask('removeOperator', () => {
    list.reload();
    sessions.reload();
  });
  const end = useAdminTask('endSession', () => sessions.reload());
  return (
    <ConsolePage title={<Trans>Operadores</Trans>}>
      <NewOperatorForm
        id="operator-new"
        title={<Trans>Novo operador</Trans>}
        created={list.reload}
        Fields={NewOperatorFields}
        Made={CreatedOperator}
      />
      <QueryTable
        query={list}
        task={remove}
        minWidth={480}
        cells={(operator) => [
          operator.email,
          <>
            <Badge variant="light">{operator.role === 'owner' ? t`responsável` : t`equipa`}</Badge>{' '}
            {!operator.password_set && <Badge color="yellow" variant="outline">{t`por ativar`}</Badge>}
          </>,
          remove.state.matches('confirming') && remove.input?.id === operator.id ? (
            <Group gap="xs">
              <Button size="xs" color="red" onClick={remove.confirm}>
                <Trans>Confirmar remoção</Trans>
              </Button>
              <Button size="xs" variant="default" onClick={remove.dismiss}>
                <Trans>Voltar</Trans>
              </Button>
            </Group>
          ) : (
            <Button size="xs" variant="subtle" color="red" onClick={() => remove.ask({ id: operator.id })}>
              <Trans>Remover…</Trans>
            </Button>
          ),
        ]}
      />
      <Title order={3} size="h5">
        <Trans>Sessões abertas</Trans>
      </Title>
      <QueryTable
        query={sessions}
        task={end}
        minWidth={520}
        cells={(session) => [
          session.operator_email,
          t`até ${times.instant(session.expires_at)}`,
          session.ip,
          session.current ? (
            <Badge variant="light">{t`esta sessão`}</Badge>
          ) : (
            <Button size="xs" variant="subtle" onClick={() => end.run({ id: session.id })}>
              <Trans>Terminar</Trans>
            </Button>
          ),
        ]}
      />
    </ConsolePage>
  );
}

export const Route = createLazyRoute('/$lang/admin/operators')({
  component: Operators,
  errorComponent: OwnersOnlyRefusal,
});
