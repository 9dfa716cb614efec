import { messageAnswer, type Localised } from '../kernel/i18n.ts';

// The confirmations of console calls whose answer is `{"message": ...}`, in the caller's language.
export const consoleMessages = {
  passwordSet: {
    pt: 'A sua palavra-passe foi definida. Inicie sessão com ela e com o código da sua aplicação de autenticação.',
    en: 'Your password is set. Log in with it and the code from your authenticator app.',
    fr: 'Votre mot de passe est défini. Connectez-vous avec lui et le code de votre application d’authentification.',
    de: 'Ihr Passwort ist gesetzt. Melden Sie sich damit und mit dem Code Ihrer Authenticator-App an.',
    sk: 'Vaše heslo je nastavené. Prihláste sa ním a kódom z overovacej aplikácie.',
  },
  codeSent: {
    pt: 'O código da porta foi reenviado ao cliente por e-mail e SMS.',
    en: 'The door code was sent to the member again by e-mail and SMS.',
    fr: 'Le code de la porte a été renvoyé au client par e-mail et SMS.',
    de: 'Der Türcode wurde dem Mitglied erneut per E-Mail und SMS geschickt.',
    sk: 'Kód od dverí bol členovi znova poslaný e-mailom a SMS.',
  },
  memberErased: {
    pt: 'A conta do cliente foi apagada e os seus dados anonimizados.',
    en: 'The member’s account was deleted and their data anonymised.',
    fr: 'Le compte du client a été supprimé et ses données anonymisées.',
    de: 'Das Konto des Mitglieds wurde gelöscht und seine Daten anonymisiert.',
    sk: 'Účet člena bol zmazaný a jeho údaje anonymizované.',
  },
} satisfies Record<string, Localised>;

export const localisedMessage = messageAnswer(consoleMessages);
