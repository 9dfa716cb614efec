import './mantine-styles.ts';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Checkbox, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useEffectEvent, type ReactNode } from 'react';
import {
  currentView,
  type AuthFields,
  type Channel,
  type AuthView,
} from '../../machines/authModal.machine.ts';
import { authModalFlow } from './useAuthModal.tsx';
import { authModalSearch, sameSearch } from '../../machines/authModal.search.ts';
import { useLocale } from '../shell/navigation.ts';
import { MantineLayer } from '../ui/MantineLayer.tsx';
import { SubmitForm } from '../ui/SubmitForm.tsx';
import { boxError, FeedbackBoxes, usePhoneProblem } from './feedback.tsx';
import { FIELD_LIMITS } from '../../machines/field-limits.ts';
import { useModalSearch, useUpdateModalSearch } from './useModalSearch.ts';

/** The contract's limits on what each field may hold. */
const MAX_LENGTHS: Partial<Record<keyof AuthFields, number>> = {
  email: FIELD_LIMITS.email,
  firstName: FIELD_LIMITS.personName,
  lastName: FIELD_LIMITS.personName,
  phone: FIELD_LIMITS.phone,
  password: FIELD_LIMITS.password,
  confirmPassword: FIELD_LIMITS.password,
  newPassword: FIELD_LIMITS.password,
  confirmNewPassword: FIELD_LIMITS.password,
};

/** A field of the form: its value and its changes go through the auth modal's actor. */
function Field({
  field,
  ...props
}: {
  field: keyof AuthFields;
  label: string;
  type?: string;
  autoComplete?: string;
  placeholder?: string;
  required?: boolean;
  inputMode?: 'text' | 'numeric' | 'tel' | 'email';
  error?: string;
  errorProps?: { role: 'alert' };
}) {
  const value = authModalFlow.useSelector((snapshot) => snapshot.context.fields[field]);
  const send = authModalFlow.useSend();
  return (
    <TextInput
      // Every field is a candidate: the modal focuses the first in the page's order (Mantine's focus trap takes
      // the first [data-autofocus]), not its Close button (issue 30).
      data-autofocus
      value={value}
      maxLength={MAX_LENGTHS[field]}
      onChange={(event) => send({ type: 'field.change', field, value: event.currentTarget.value })}
      {...props}
    />
  );
}

function PasswordField({
  field,
  label,
  autoComplete,
}: {
  field: keyof AuthFields;
  label: string;
  autoComplete: string;
}) {
  const { t } = useLingui();
  const value = authModalFlow.useSelector((snapshot) => snapshot.context.fields[field]);
  const visible = authModalFlow.useSelector((snapshot) => snapshot.context.showPassword);
  const send = authModalFlow.useSend();
  return (
    <PasswordInput
      data-autofocus
      label={label}
      required
      autoComplete={autoComplete}
      value={value}
      maxLength={MAX_LENGTHS[field]}
      visible={visible}
      onVisibilityChange={() => send({ type: 'password.toggle' })}
      visibilityToggleFocusable
      visibilityToggleButtonProps={{
        'aria-label': visible ? t`Ocultar palavra-passe` : t`Mostrar palavra-passe`,
        'aria-pressed': visible,
      }}
      onChange={(event) => send({ type: 'field.change', field, value: event.currentTarget.value })}
    />
  );
}

function Form({ onSubmit, children }: { onSubmit: () => void; children: ReactNode }) {
  return (
    <SubmitForm onSubmit={onSubmit}>
      <Stack gap="md">{children}</Stack>
    </SubmitForm>
  );
}

/** One channel's code: the field, resending it, and verifying it. */
function CodeForm({
  channel,
  field,
  label,
  resend,
  verify,
  verifying,
  busy,
}: {
  channel: Channel;
  field: keyof AuthFields;
  label: string;
  resend: ReactNode;
  verify: ReactNode;
  verifying: boolean;
  busy: boolean;
}) {
  const send = authModalFlow.useSend();
  return (
    <Form onSubmit={() => send({ type: 'code.verify', channel })}>
      <Field field={field} label={label} autoComplete="one-time-code" inputMode="numeric" required />
      <Group justify="space-between" gap="sm">
        <Anchor component="button" type="button" onClick={() => send({ type: 'code.resend', channel })}>
          {resend}
        </Anchor>
        <Button type="submit" loading={verifying} disabled={busy}>
          {verify}
        </Button>
      </Group>
    </Form>
  );
}

/** A form's cancel and submit buttons, side by side at the end. */
function CancelOrSubmit({ busy, submit }: { busy: boolean; submit: ReactNode }) {
  const send = authModalFlow.useSend();
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" type="button" onClick={() => send({ type: 'cancel' })}>
        <Trans>Cancelar</Trans>
      </Button>
      <Button type="submit" loading={busy}>
        {submit}
      </Button>
    </Group>
  );
}

export default function AuthModal() {
  const search = useModalSearch();
  return (
    <authModalFlow.Provider
      input={{
        tab: search.auth_tab,
        resetToken: search.reset_token,
        verifyEmail: search.verify_email,
        verifyEmailCode: search.verify_email_code,
      }}
    >
      <AuthDialog />
    </authModalFlow.Provider>
  );
}

function AuthDialog() {
  const { t } = useLingui();
  const locale = useLocale();
  const search = useModalSearch();
  const updateSearch = useUpdateModalSearch();
  const [state, send] = authModalFlow.useFlow();
  const view = currentView(state);
  const { context } = state;
  const busy = view !== null && !state.matches({ [view]: 'idle' });
  const verifying = state.matches({ verify: 'verifying' }) ? context.channel : null;

  // The URL follows the modal: its view, the link parameters while they apply, none once it is done. Written when
  // the modal changes, from the address as it is then; not when the address changes under the modal: a step back
  // through the history that drops `auth_tab` closes it (src/app/Modals.tsx unmounts it), where writing the
  // modal's view again put the dialog back at once.
  const followModal = useEffectEvent(() => {
    const desired = authModalSearch(search, state, view);
    if (!sameSearch(desired, search)) void updateSearch(() => desired);
  });
  const modalKey = `${state.status} ${JSON.stringify(authModalSearch({}, state, view))}`;
  useEffect(() => followModal(), [modalKey]);

  const titles: Record<AuthView, string> = {
    login: t`Iniciar sessão`,
    register: t`Criar uma conta`,
    forgotPassword: t`Recuperar a palavra-passe`,
    resetPassword: t`Redefinir a palavra-passe`,
    verify: t`Verificar a conta`,
  };
  const phoneProblem = usePhoneProblem(context.error);
  const feedback = <FeedbackBoxes error={boxError(context.error)} success={context.success} />;
  const emailField = <Field field="email" label={t`E-mail`} type="email" autoComplete="email" required />;

  return (
    <MantineLayer>
      <Modal
        opened={view !== null}
        onClose={() => send({ type: 'close' })}
        title={view ? titles[view] : ''}
        centered
        size="md"
        zIndex={300}
        closeButtonProps={{ 'aria-label': t`Fechar` }}
        classNames={{ title: 'auth-modal__title', content: 'auth-modal' }}
      >
        {view === 'login' && (
          <Form onSubmit={() => send({ type: 'login.submit' })}>
            {feedback}
            {emailField}
            <PasswordField field="password" label={t`Palavra-passe`} autoComplete="current-password" />
            <Button type="submit" loading={busy} fullWidth>
              <Trans>Entrar</Trans>
            </Button>
            <Group justify="space-between" gap="xs">
              <Anchor component="button" type="button" onClick={() => send({ type: 'view.register' })}>
                <Trans>Criar conta</Trans>
              </Anchor>
              <Anchor component="button" type="button" onClick={() => send({ type: 'view.forgotPassword' })}>
                <Trans>Esqueceu-se da palavra-passe?</Trans>
              </Anchor>
            </Group>
          </Form>
        )}

        {view === 'register' && (
          <Form onSubmit={() => send({ type: 'register.submit' })}>
            {feedback}
            {emailField}
            <Group grow gap="sm" align="flex-start">
              <Field field="firstName" label={t`Nome próprio`} autoComplete="given-name" required />
              <Field field="lastName" label={t`Apelido`} autoComplete="family-name" required />
            </Group>
            <Field
              field="phone"
              label={t`Número de telefone`}
              type="tel"
              autoComplete="tel"
              placeholder="+351 912 345 678"
              required
              {...phoneProblem}
            />
            <PasswordField field="password" label={t`Palavra-passe`} autoComplete="new-password" />
            <PasswordField
              field="confirmPassword"
              label={t`Confirmar a palavra-passe`}
              autoComplete="new-password"
            />
            <Checkbox
              checked={context.agreeNewsletter}
              onChange={(event) => send({ type: 'newsletter.change', checked: event.currentTarget.checked })}
              label={t`Quero receber a newsletter com novidades e promoções`}
            />
            <Text size="sm" c="gray.4">
              <Trans>
                Ao criar uma conta, aceita os{' '}
                <Anchor
                  href={`/${locale}/rights`}
                  target="_blank"
                  rel="noopener noreferrer"
                  underline="always"
                >
                  termos e condições
                </Anchor>
                .
              </Trans>
            </Text>
            <Button type="submit" loading={busy} fullWidth>
              <Trans>Registar</Trans>
            </Button>
            <Anchor component="button" type="button" onClick={() => send({ type: 'view.login' })}>
              <Trans>Já tem conta?</Trans>
            </Anchor>
          </Form>
        )}

        {view === 'forgotPassword' && (
          <Form onSubmit={() => send({ type: 'forgot.submit' })}>
            {feedback}
            <Text size="sm">
              <Trans>
                Indique o e-mail da sua conta e enviamos-lhe uma ligação para escolher uma nova palavra-passe.
              </Trans>
            </Text>
            {emailField}
            <CancelOrSubmit busy={busy} submit={<Trans>Pedir a redefinição</Trans>} />
          </Form>
        )}

        {view === 'resetPassword' && (
          <Form onSubmit={() => send({ type: 'reset.submit' })}>
            {feedback}
            <PasswordField field="newPassword" label={t`Nova palavra-passe`} autoComplete="new-password" />
            <PasswordField
              field="confirmNewPassword"
              label={t`Confirmar a nova palavra-passe`}
              autoComplete="new-password"
            />
            <CancelOrSubmit busy={busy} submit={<Trans>Guardar a nova palavra-passe</Trans>} />
          </Form>
        )}

        {view === 'verify' && (
          <Stack gap="lg">
            {feedback}
            {!context.verifyEmail && (
              <Field field="email" label={t`E-mail da conta`} type="email" autoComplete="email" />
            )}
            {context.pending.email && (
              <CodeForm
                channel="email"
                field="emailCode"
                label={t`Código de verificação do e-mail`}
                resend={<Trans>Reenviar o código do e-mail</Trans>}
                verify={<Trans>Verificar e-mail</Trans>}
                verifying={verifying === 'email'}
                busy={busy}
              />
            )}
            {context.pending.phone && (
              <CodeForm
                channel="phone"
                field="phoneCode"
                label={t`Código de verificação do telefone`}
                resend={<Trans>Reenviar o código do telefone</Trans>}
                verify={<Trans>Verificar telefone</Trans>}
                verifying={verifying === 'phone'}
                busy={busy}
              />
            )}
            <Group justify="flex-end">
              <Button variant="default" type="button" onClick={() => send({ type: 'cancel' })}>
                <Trans>Cancelar</Trans>
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </MantineLayer>
  );
}
