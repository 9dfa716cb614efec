import { useLingui } from '@lingui/react/macro';
import { Alert } from '@mantine/core';
import type { Feedback } from '../../machines/feedback.ts';

/** The console's words for the feedback keys its flows use; any other key reads as the generic failure. */
export function useAdminFeedbackText(): (feedback: Feedback) => string {
  const { t } = useLingui();
  return (feedback) => {
    if ('text' in feedback) return feedback.text;
    switch (feedback.key) {
      case 'error-during-login':
        return t`Não foi possível iniciar sessão. Verifique o e-mail, a palavra-passe e o código.`;
      case 'passwords-do-not-match':
        return t`As palavras-passe não coincidem`;
      case 'can-not-cancel-bookings':
        return t`Não foi possível cancelar a reserva. Tente novamente.`;
      default:
        return t`Ocorreu um erro inesperado. Tente novamente.`;
    }
  };
}

export function ErrorBox({ error }: { error: Feedback | null }) {
  const text = useAdminFeedbackText();
  if (!error) return null;
  return (
    <Alert color="red" variant="light" role="alert">
      {text(error)}
    </Alert>
  );
}
