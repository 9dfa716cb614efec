import { messageAnswer, type Message } from '../kernel/i18n.ts';

// The confirmations of the account calls (`{"message": ...}`), in the caller's language.
export const accountMessages = {
  accountCreated: /*i18n*/ {
    id: 'accounts.accountCreated',
    message: 'Conta criada. Enviámos um código para o seu e-mail e outro, por SMS, para o seu telefone.',
  },
  emailVerifiedNowPhone: /*i18n*/ {
    id: 'accounts.emailVerifiedNowPhone',
    message: 'E-mail confirmado. Confirme agora o seu número de telefone.',
  },
  emailVerified: /*i18n*/ {
    id: 'accounts.emailVerified',
    message: 'E-mail confirmado. Já pode iniciar sessão.',
  },
  phoneVerifiedNowEmail: /*i18n*/ {
    id: 'accounts.phoneVerifiedNowEmail',
    message: 'Número de telefone confirmado. Confirme agora o seu e-mail.',
  },
  phoneVerified: /*i18n*/ {
    id: 'accounts.phoneVerified',
    message: 'Número de telefone confirmado. Já pode iniciar sessão.',
  },
  emailCodeResent: /*i18n*/ {
    id: 'accounts.emailCodeResent',
    message: 'Se esta conta aguarda a confirmação do e-mail, enviámos um novo código.',
  },
  phoneCodeResent: /*i18n*/ {
    id: 'accounts.phoneCodeResent',
    message: 'Se esta conta aguarda a confirmação do telefone, enviámos um novo código por SMS.',
  },
  resetLinkSent: /*i18n*/ {
    id: 'accounts.resetLinkSent',
    message: 'Se existir uma conta com este e-mail, será enviada uma ligação para redefinir a palavra-passe.',
  },
  passwordReset: /*i18n*/ {
    id: 'accounts.passwordReset',
    message: 'A palavra-passe foi redefinida. Inicie sessão com a nova palavra-passe.',
  },
  accountDeleted: /*i18n*/ {
    id: 'accounts.accountDeleted',
    message: 'A sua conta e os seus dados pessoais foram eliminados.',
  },
} as const satisfies Record<string, Message>;

export type AccountMessage = keyof typeof accountMessages;

export const accountMessage = messageAnswer(accountMessages);
