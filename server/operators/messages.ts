import { messageAnswer, type Message } from '../kernel/i18n.ts';

// The confirmations of console calls whose answer is `{"message": ...}`, in the caller's language.
export const consoleMessages = {
  passwordSet: /*i18n*/ {
    id: 'operators.passwordSet',
    message:
      'A sua palavra-passe foi definida. Inicie sessão com ela e com o código da sua aplicação de autenticação.',
  },
  codeSent: /*i18n*/ {
    id: 'operators.codeSent',
    message: 'O código da porta foi reenviado ao cliente por e-mail e SMS.',
  },
  documentSent: /*i18n*/ {
    id: 'operators.documentSent',
    message: 'O documento foi reenviado ao cliente por e-mail.',
  },
  memberErased: /*i18n*/ {
    id: 'operators.memberErased',
    message: 'A conta do cliente foi apagada e os seus dados anonimizados.',
  },
} satisfies Record<string, Message>;

export const localisedMessage = messageAnswer(consoleMessages);
