import './mantine-styles.ts';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Checkbox, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, type FormEvent, type ReactNode } from 'react';
import {
  currentView,
  type AuthFields,
  type AuthModalEvent,
  type AuthView,
} from '../../machines/authModal.machine.ts';
import { AuthModalProvider, useAuthModalSelector, useAuthModalSend } from './useAuthModal.tsx';
import { authModalSearch, sameSearch } from '../../machines/authModal.search.ts';
import { useLocale } from '../shell/navigation.ts';
import { MantineLayer } from '../ui/MantineLayer.tsx';
import { FeedbackBoxes } from './feedback.tsx';
import { FIELD_LIMITS } from '../../machines/field-limits.ts';
import { useModalSearch, useUpdateModalSearch } from './useModalSearch.ts';

type Send = (event: AuthModalEvent) => void;

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

function Field({
  field,
  value,
  send,
  ...props
}: {
  field: keyof AuthFields;
  value: string;
  send: Send;
  label: string;
  type?: string;
  autoComplete?: string;
  placeholder?: string;
  required?: boolean;
  inputMode?: 'text' | 'numeric' | 'tel' | 'email';
}) {
  return (
    <TextInput
      value={value}
      maxLength={MAX_LENGTHS[field]}
      onChange={(event) => send({ type: 'field.change', field, value: event.currentTarget.value })}
      {...props}
    />
  );
}

function PasswordField({
  field,
  value,
  send,
  visible,
  label,
  autoComplete,
}: {
  field: keyof AuthFields;
  value: string;
  send: Send;
  visible: boolean;
  label: string;
  autoComplete: string;
}) {
  const { t } = useLingui();
  return (
    <PasswordInput
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
    <form
      noValidate={false}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <Stack gap="md">{children}</Stack>
    </form>
  );
}

export default function AuthModal() {
  const search = useModalSearch();
  return (
    <AuthModalProvider
      input={{
        tab: search.auth_tab,
        resetToken: search.reset_token,
        verifyEmail: search.verify_email,
        verifyEmailCode: search.verify_email_code,
      }}
    >
      <AuthDialog />
    </AuthModalProvider>
  );
}

function AuthDialog() {
  const { t } = useLingui();
  const locale = useLocale();
  const search = useModalSearch();
  const updateSearch = useUpdateModalSearch();
  const send = useAuthModalSend();
  const state = useAuthModalSelector((snapshot) => snapshot);
  const view = currentView(state);
  const { context } = state;
  const busy = view !== null && !state.matches({ [view]: 'idle' });
  const verifying = state.matches({ verify: 'verifying' }) ? context.channel : null;

  // The URL follows the modal: its view, the link parameters while they apply, none once it is done.
  const desired = authModalSearch(search, state, view);
  useEffect(() => {
    if (!sameSearch(desired, search)) void updateSearch(() => desired);
  });

  const titles: Record<AuthView, string> = {
    login: t`Iniciar sessão`,
    register: t`Criar uma conta`,
    forgotPassword: t`Recuperar a palavra-passe`,
    resetPassword: t`Redefinir a palavra-passe`,
    verify: t`Verificar a conta`,
  };
  const { fields } = context;
  const feedback = <FeedbackBoxes error={context.error} success={context.success} />;

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
            <Field
              field="email"
              value={fields.email}
              send={send}
              label={t`E-mail`}
              type="email"
              autoComplete="email"
              required
            />
            <PasswordField
              field="password"
              value={fields.password}
              send={send}
              visible={context.showPassword}
              label={t`Palavra-passe`}
              autoComplete="current-password"
            />
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
            <Field
              field="email"
              value={fields.email}
              send={send}
              label={t`E-mail`}
              type="email"
              autoComplete="email"
              required
            />
            <Group grow gap="sm" align="flex-start">
              <Field
                field="firstName"
                value={fields.firstName}
                send={send}
                label={t`Nome próprio`}
                autoComplete="given-name"
                required
              />
              <Field
                field="lastName"
                value={fields.lastName}
                send={send}
                label={t`Apelido`}
                autoComplete="family-name"
                required
              />
            </Group>
            <Field
              field="phone"
              value={fields.phone}
              send={send}
              label={t`Número de telefone`}
              type="tel"
              autoComplete="tel"
              placeholder="+351 912 345 678"
              required
            />
            <PasswordField
              field="password"
              value={fields.password}
              send={send}
              visible={context.showPassword}
              label={t`Palavra-passe`}
              autoComplete="new-password"
            />
            <PasswordField
              field="confirmPassword"
              value={fields.confirmPassword}
              send={send}
              visible={context.showPassword}
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
            <Field
              field="email"
              value={fields.email}
              send={send}
              label={t`E-mail`}
              type="email"
              autoComplete="email"
              required
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" type="button" onClick={() => send({ type: 'cancel' })}>
                <Trans>Cancelar</Trans>
              </Button>
              <Button type="submit" loading={busy}>
                <Trans>Pedir a redefinição</Trans>
              </Button>
            </Group>
          </Form>
        )}

        {view === 'resetPassword' && (
          <Form onSubmit={() => send({ type: 'reset.submit' })}>
            {feedback}
            <PasswordField
              field="newPassword"
              value={fields.newPassword}
              send={send}
              visible={context.showPassword}
              label={t`Nova palavra-passe`}
              autoComplete="new-password"
            />
            <PasswordField
              field="confirmNewPassword"
              value={fields.confirmNewPassword}
              send={send}
              visible={context.showPassword}
              label={t`Confirmar a nova palavra-passe`}
              autoComplete="new-password"
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" type="button" onClick={() => send({ type: 'cancel' })}>
                <Trans>Cancelar</Trans>
              </Button>
              <Button type="submit" loading={busy}>
                <Trans>Guardar a nova palavra-passe</Trans>
              </Button>
            </Group>
          </Form>
        )}

        {view === 'verify' && (
          <Stack gap="lg">
            {feedback}
            {!context.verifyEmail && (
              <Field
                field="email"
                value={fields.email}
                send={send}
                label={t`E-mail da conta`}
                type="email"
                autoComplete="email"
              />
            )}
            {context.pending.email && (
              <Form onSubmit={() => send({ type: 'code.verify', channel: 'email' })}>
                <Field
                  field="emailCode"
                  value={fields.emailCode}
                  send={send}
                  label={t`Código de verificação do e-mail`}
                  autoComplete="one-time-code"
                  inputMode="numeric"
                  required
                />
                <Group justify="space-between" gap="sm">
                  <Anchor
                    component="button"
                    type="button"
                    onClick={() => send({ type: 'code.resend', channel: 'email' })}
                  >
                    <Trans>Reenviar o código do e-mail</Trans>
                  </Anchor>
                  <Button type="submit" loading={verifying === 'email'} disabled={busy}>
                    <Trans>Verificar e-mail</Trans>
                  </Button>
                </Group>
              </Form>
            )}
            {context.pending.phone && (
              <Form onSubmit={() => send({ type: 'code.verify', channel: 'phone' })}>
                <Field
                  field="phoneCode"
                  value={fields.phoneCode}
                  send={send}
                  label={t`Código de verificação do telefone`}
                  autoComplete="one-time-code"
                  inputMode="numeric"
                  required
                />
                <Group justify="space-between" gap="sm">
                  <Anchor
                    component="button"
                    type="button"
                    onClick={() => send({ type: 'code.resend', channel: 'phone' })}
                  >
                    <Trans>Reenviar o código do telefone</Trans>
                  </Anchor>
                  <Button type="submit" loading={verifying === 'phone'} disabled={busy}>
                    <Trans>Verificar telefone</Trans>
                  </Button>
                </Group>
              </Form>
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
