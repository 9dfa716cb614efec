import { useLingui } from '@lingui/react/macro';
import { Alert } from '@mantine/core';
import type { Feedback, FeedbackKey } from '../../machines/feedback.ts';

/** The texts for the feedback keys of the auth and account flows (docs/decisions.md, 'Client'). */
export function useFeedbackText(): (feedback: Feedback) => string {
  const { t } = useLingui();
  const texts: Record<FeedbackKey, string> = {
    generic: t`Ocorreu um erro inesperado. Tente novamente.`,
    'error-during-login': t`Ocorreu um erro ao iniciar sessão. Tente novamente.`,
    'registration-failed': t`O registo falhou. Tente novamente.`,
    'failed-to-request-password-reset': t`Não foi possível pedir a redefinição da palavra-passe. Tente novamente.`,
    'failed-to-reset-password': t`Não foi possível redefinir a palavra-passe. Tente novamente.`,
    'email-verification-failed': t`A verificação do e-mail falhou. Tente novamente.`,
    'phone-verification-failed': t`A verificação do telefone falhou. Tente novamente.`,
    'failed-to-reset-email-verification': t`Não foi possível reenviar a verificação do e-mail. Tente novamente.`,
    'failed-to-reset-phone-verification': t`Não foi possível reenviar a verificação do telefone. Tente novamente.`,
    'can-not-update-profile': t`Não é possível atualizar o perfil. Tente mais tarde.`,
    'can-not-cancel-bookings': t`Não é possível cancelar as reservas. Tente mais tarde.`,
    'can-not-resend-code': t`Não foi possível reenviar o código. Tente mais tarde.`,
    'can-not-move-booking': t`Não foi possível mudar a reserva. Tente mais tarde.`,
    'can-not-book-again': t`Não foi possível procurar este horário. Tente mais tarde.`,
    'can-not-add-guest': t`Não foi possível juntar o convidado. Tente novamente mais tarde.`,
    'can-not-remove-guest': t`Não foi possível remover o convidado. Tente novamente mais tarde.`,
    'can-not-buy-pack': t`Não foi possível comprar o pacote. Tente novamente mais tarde.`,
    'can-not-buy-gift-voucher': t`Não foi possível comprar o vale. Tente novamente mais tarde.`,
    'can-not-redeem-voucher': t`Não foi possível usar o vale. Tente novamente mais tarde.`,
    'voucher-code-missing': t`Escreva o código do vale.`,
    'code-sent-again': t`Enviámos novamente o código da porta por e-mail e SMS.`,
    'failed-to-delete-account': t`Não foi possível eliminar a conta`,
    'passwords-do-not-match': t`As palavras-passe não coincidem`,
    'invalid-phone-number': t`O número de telefone tem de incluir o indicativo do país e ser válido`,
    'if-account-exists-reset-link-will-be-sent': t`Se existir uma conta com este e-mail, será enviada uma ligação de redefinição.`,
    'password-has-been-reset-successfully': t`A palavra-passe foi redefinida. Inicie sessão.`,
    'email-verified-successfully': t`E-mail verificado com sucesso. Inicie sessão.`,
    'phone-verified-successfully': t`Telefone verificado com sucesso. Inicie sessão.`,
    'email-verification-success-now-phone': t`E-mail verificado com sucesso. Verifique agora o seu número de telefone.`,
    'phone-verification-success-now-email': t`Telefone verificado com sucesso. Verifique agora o seu e-mail.`,
    'email-verification-reset-successfully': t`Enviámos um novo código de verificação do e-mail.`,
    'phone-verification-reset-successfully': t`Enviámos um novo código de verificação do telefone.`,
    'profile-updated-successfully': t`Perfil atualizado com sucesso`,
  };
  return (feedback) => ('text' in feedback ? feedback.text : texts[feedback.key]);
}

/** The red error box and the green success box (docs/decisions.md, 'Client'). */
/** A form's own refusal of the phone number: the phone field is marked invalid and described by it. */
export function isPhoneProblem(error: Feedback | null): boolean {
  return error !== null && 'key' in error && error.key === 'invalid-phone-number';
}

/**
 * The phone field's own error while `error` is the form's refusal of the number (issue 30: the refusal was only in
 * the box above the form, the field neither invalid nor described by it): said under the field, which Mantine
 * marks invalid and describes by it, and announced as an alert. The form's box leaves it out.
 */
export function usePhoneProblem(error: Feedback | null) {
  const text = useFeedbackText();
  return isPhoneProblem(error) ? { error: text(error!), errorProps: { role: 'alert' } as const } : {};
}

/** The form's box shows every refusal but the phone field's own. */
export function boxError(error: Feedback | null): Feedback | null {
  return isPhoneProblem(error) ? null : error;
}

export function FeedbackBoxes({ error, success }: { error: Feedback | null; success: Feedback | null }) {
  const text = useFeedbackText();
  return (
    <>
      {error && (
        <Alert color="red" variant="light" role="alert" className="feedback feedback--error">
          {text(error)}
        </Alert>
      )}
      {success && (
        <Alert color="green" variant="light" role="status" className="feedback feedback--success">
          {text(success)}
        </Alert>
      )}
    </>
  );
}
