import { messageAnswer, type Localised } from '../kernel/i18n.ts';

// The confirmations of the account calls (`{"message": ...}`), in the caller's language.
export const accountMessages = {
  accountCreated: {
    pt: 'Conta criada. Enviámos um código para o seu e-mail e outro, por SMS, para o seu telefone.',
    en: 'Account created. We sent one code to your e-mail address and another by SMS to your phone.',
    fr: 'Compte créé. Nous avons envoyé un code à votre adresse e-mail et un autre par SMS sur votre téléphone.',
    de: 'Konto angelegt. Wir haben einen Code an Ihre E-Mail-Adresse und einen weiteren per SMS an Ihr Telefon geschickt.',
    sk: 'Účet bol vytvorený. Poslali sme vám jeden kód na e-mail a druhý cez SMS na telefón.',
  },
  emailVerifiedNowPhone: {
    pt: 'E-mail confirmado. Confirme agora o seu número de telefone.',
    en: 'Email verified successfully. Please verify your phone number.',
    fr: 'Adresse e-mail confirmée. Veuillez maintenant confirmer votre numéro de téléphone.',
    de: 'E-Mail-Adresse bestätigt. Bitte bestätigen Sie jetzt Ihre Telefonnummer.',
    sk: 'E-mail bol overený. Teraz overte svoje telefónne číslo.',
  },
  emailVerified: {
    pt: 'E-mail confirmado. Já pode iniciar sessão.',
    en: 'Email verified successfully. Please log in.',
    fr: 'Adresse e-mail confirmée. Vous pouvez vous connecter.',
    de: 'E-Mail-Adresse bestätigt. Sie können sich jetzt anmelden.',
    sk: 'E-mail bol overený. Teraz sa môžete prihlásiť.',
  },
  phoneVerifiedNowEmail: {
    pt: 'Número de telefone confirmado. Confirme agora o seu e-mail.',
    en: 'Phone verified successfully. Please verify your email.',
    fr: 'Numéro de téléphone confirmé. Veuillez maintenant confirmer votre adresse e-mail.',
    de: 'Telefonnummer bestätigt. Bitte bestätigen Sie jetzt Ihre E-Mail-Adresse.',
    sk: 'Telefónne číslo bolo overené. Teraz overte svoj e-mail.',
  },
  phoneVerified: {
    pt: 'Número de telefone confirmado. Já pode iniciar sessão.',
    en: 'Phone verified successfully. Please log in.',
    fr: 'Numéro de téléphone confirmé. Vous pouvez vous connecter.',
    de: 'Telefonnummer bestätigt. Sie können sich jetzt anmelden.',
    sk: 'Telefónne číslo bolo overené. Teraz sa môžete prihlásiť.',
  },
  emailCodeResent: {
    pt: 'Se esta conta aguarda a confirmação do e-mail, enviámos um novo código.',
    en: 'If this account is waiting for its e-mail address to be verified, a new code has been sent.',
    fr: 'Si ce compte attend la confirmation de son adresse e-mail, un nouveau code a été envoyé.',
    de: 'Falls dieses Konto noch auf die Bestätigung der E-Mail-Adresse wartet, wurde ein neuer Code gesendet.',
    sk: 'Ak tento účet čaká na overenie e-mailu, poslali sme nový kód.',
  },
  phoneCodeResent: {
    pt: 'Se esta conta aguarda a confirmação do telefone, enviámos um novo código por SMS.',
    en: 'If this account is waiting for its phone number to be verified, a new code has been sent by SMS.',
    fr: 'Si ce compte attend la confirmation de son numéro de téléphone, un nouveau code a été envoyé par SMS.',
    de: 'Falls dieses Konto noch auf die Bestätigung der Telefonnummer wartet, wurde ein neuer Code per SMS gesendet.',
    sk: 'Ak tento účet čaká na overenie telefónneho čísla, poslali sme nový kód cez SMS.',
  },
  resetLinkSent: {
    pt: 'Se existir uma conta com este e-mail, será enviada uma ligação para redefinir a palavra-passe.',
    en: 'If an account exists with this email, a reset link will be sent.',
    fr: 'Si un compte existe avec cette adresse e-mail, un lien de réinitialisation sera envoyé.',
    de: 'Falls ein Konto mit dieser E-Mail-Adresse existiert, wird ein Link zum Zurücksetzen gesendet.',
    sk: 'Ak existuje účet s týmto e-mailom, pošleme naň odkaz na obnovenie hesla.',
  },
  passwordReset: {
    pt: 'A palavra-passe foi redefinida. Inicie sessão com a nova palavra-passe.',
    en: 'Password has been reset successfully. Please log in.',
    fr: 'Le mot de passe a été réinitialisé. Connectez-vous avec le nouveau mot de passe.',
    de: 'Das Passwort wurde zurückgesetzt. Bitte melden Sie sich mit dem neuen Passwort an.',
    sk: 'Heslo bolo obnovené. Prihláste sa novým heslom.',
  },
  accountDeleted: {
    pt: 'A sua conta e os seus dados pessoais foram eliminados.',
    en: 'Your account and your personal data have been deleted.',
    fr: 'Votre compte et vos données personnelles ont été supprimés.',
    de: 'Ihr Konto und Ihre personenbezogenen Daten wurden gelöscht.',
    sk: 'Váš účet a vaše osobné údaje boli odstránené.',
  },
} as const satisfies Record<string, Localised>;

export type AccountMessage = keyof typeof accountMessages;

export const accountMessage = messageAnswer(accountMessages);
