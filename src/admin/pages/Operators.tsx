import { createLazyRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import QRCode from 'qrcode';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  Group,
  NativeSelect,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { Operator } from '../../../machines/adminConsole.actors.ts';
import { useAdminQuery, useAdminTask, useBranchOptions } from '../hooks.ts';
import { NewOperatorForm, useNewOperatorSelector, useNewOperatorSend } from '../useConsoleForms.tsx';
import { useTimes } from '../parts/format.ts';
import { ErrorBox } from '../feedback.tsx';
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

/**
 * The otpauth:// URI as a QR code an authenticator app scans: drawn here as SVG squares from the code's modules
 * (the console's own chunk carries the encoder, never the member's pages).
 */
function TotpQrCode({ uri }: { uri: string }) {
  const { t } = useLingui();
  const { modules } = QRCode.create(uri, { errorCorrectionLevel: 'M' });
  const quiet = 4;
  const size = modules.size + quiet * 2;
  let path = '';
  for (let row = 0; row < modules.size; row += 1) {
    for (let column = 0; column < modules.size; column += 1) {
      if (modules.get(row, column)) path += `M${column + quiet} ${row + quiet}h1v1h-1z`;
    }
  }
  return (
    <svg
      role="img"
      aria-label={t`Código QR do segredo TOTP`}
      viewBox={`0 0 ${size} ${size}`}
      width={200}
      height={200}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

/** Long links break anywhere rather than widen the page at phone width. */
const WRAPPED = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;

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
        <Code block style={WRAPPED}>
          {created.setup_url}
        </Code>
        <Text size="sm">
          <Trans>Segredo TOTP (para a aplicação de autenticação):</Trans>
        </Text>
        <Text size="xs">
          <Trans>Leia o código QR com a aplicação, ou escreva o segredo abaixo.</Trans>
        </Text>
        <TotpQrCode uri={created.totp_uri} />
        <Code block style={WRAPPED}>
          {created.totp_uri}
        </Code>
      </Stack>
    </Alert>
  );
}

/** Which branches an operator has: every one, or the names of those a staff member is limited to. */
function branchesLabel(operator: Operator, names: Map<number, string>, everyBranch: string): string {
  if (operator.branch_ids === null) return everyBranch;
  return operator.branch_ids.map((id) => names.get(id) ?? `#${id}`).join(', ');
}

/** Operators (owners): add one (its setup link and TOTP secret shown once), limit staff to some branches, remove one, end sessions. */
function Operators() {
  const { t } = useLingui();
  const times = useTimes();
  const list = useAdminQuery('operators');
  const sessions = useAdminQuery('sessions');
  const { branches } = useBranchOptions();
  const names = new Map(branches.map((branch) => [branch.id, branch.name]));
  const limit = useAdminTask('setOperatorBranches', () => list.reload());
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
        minWidth={640}
        cells={(operator) => [
          operator.email,
          <>
            <Badge variant="light">{operator.role === 'owner' ? t`responsável` : t`equipa`}</Badge>{' '}
            {!operator.password_set && <Badge color="yellow" variant="outline">{t`por ativar`}</Badge>}
          </>,
          limit.state.matches('confirming') && limit.input?.id === operator.id ? (
            <Stack gap="xs">
              <Checkbox.Group
                label={t`Filiais de ${operator.email}`}
                description={t`Nenhuma marcada: todas as filiais.`}
                value={limit.input.branch_ids.map(String)}
                onChange={(value) => limit.ask({ id: operator.id, branch_ids: value.map(Number) })}
              >
                <Stack gap={4} mt={4}>
                  {branches.map((branch) => (
                    <Checkbox key={branch.id} value={String(branch.id)} label={branch.name} />
                  ))}
                </Stack>
              </Checkbox.Group>
              <ErrorBox error={limit.state.context.error} />
              <Group gap="xs">
                <Button size="xs" onClick={limit.confirm}>
                  <Trans>Guardar as filiais</Trans>
                </Button>
                <Button size="xs" variant="default" onClick={limit.dismiss}>
                  <Trans>Voltar</Trans>
                </Button>
              </Group>
            </Stack>
          ) : (
            <Group gap="xs">
              <Text size="sm">{branchesLabel(operator, names, t`todas as filiais`)}</Text>
              {operator.role === 'staff' && (
                <Button
                  size="xs"
                  variant="subtle"
                  aria-label={t`Filiais de ${operator.email}…`}
                  onClick={() => limit.ask({ id: operator.id, branch_ids: operator.branch_ids ?? [] })}
                >
                  <Trans>Filiais…</Trans>
                </Button>
              )}
            </Group>
          ),
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
