import type { Feedback, FeedbackKey } from '../../../machines/feedback.ts';

// What a flow's feedback must read on screen, in Portuguese: the server's own sentence, or the interface's words
// for a key (written out here, not read from the app, so a key worded wrongly or not at all fails the test).
const TEXTS: Partial<Record<FeedbackKey, string>> = {
  generic: 'Ocorreu um erro inesperado. Tente novamente.',
  'can-not-update-profile': 'Não é possível atualizar o perfil. Tente mais tarde.',
  'can-not-move-booking': 'Não foi possível mudar a reserva. Tente mais tarde.',
  'can-not-buy-pack': 'Não foi possível comprar o pacote. Tente novamente mais tarde.',
  'can-not-buy-gift-voucher': 'Não foi possível comprar o vale. Tente novamente mais tarde.',
  'can-not-redeem-voucher': 'Não foi possível usar o vale. Tente novamente mais tarde.',
  'voucher-code-missing': 'Escreva o código do vale.',
  'failed-to-delete-account': 'Não foi possível eliminar a conta',
  'passwords-do-not-match': 'As palavras-passe não coincidem',
  'invalid-phone-number': 'O número de telefone tem de incluir o indicativo do país e ser válido',
  'profile-updated-successfully': 'Perfil atualizado com sucesso',
};

export function feedbackText(feedback: Feedback): string {
  if ('text' in feedback) return feedback.text;
  const text = TEXTS[feedback.key];
  if (text === undefined) throw new Error(`no expected text for the feedback ${feedback.key}`);
  return text;
}
