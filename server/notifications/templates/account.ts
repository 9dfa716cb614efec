import type { Locale } from '../../kernel/i18n.ts';
import { fill, renderEmail, type RenderedEmail } from '../../kernel/email-layout.ts';

// The messages of accounts, in the five languages of the interface, written for the reader, not translated
// word for word. Placeholders: {brand}, {firstName}, {code}, {minutes}, {newEmail}.

const signature: Record<Locale, string> = {
  pt: 'A equipa {brand}',
  en: 'The {brand} team',
  fr: 'L’équipe {brand}',
  de: 'Ihr {brand}-Team',
  sk: 'Tím {brand}',
};

const greeting: Record<Locale, string> = {
  pt: 'Olá {firstName},',
  en: 'Hello {firstName},',
  fr: 'Bonjour {firstName},',
  de: 'Hallo {firstName},',
  sk: 'Dobrý deň, {firstName},',
};

type Template = { subject: string; paragraphs: string[]; actionLabel: string; after: string[] };

const verifyEmail: Record<Locale, Template> = {
  pt: {
    subject: 'Confirme o seu e-mail – {brand}',
    paragraphs: ['Obrigado por se registar. O seu código de confirmação do e-mail é:'],
    actionLabel: 'Confirmar o e-mail',
    after: [
      'O código é válido durante {minutes} minutos. Também pode confirmar o e-mail com o botão acima.',
      'Se não foi você que criou esta conta, ignore esta mensagem.',
    ],
  },
  en: {
    subject: 'Confirm your e-mail address – {brand}',
    paragraphs: ['Thank you for signing up. Your e-mail confirmation code is:'],
    actionLabel: 'Confirm my e-mail address',
    after: [
      'The code is valid for {minutes} minutes. You can also confirm your address with the button above.',
      'If you did not create this account, you can safely ignore this message.',
    ],
  },
  fr: {
    subject: 'Confirmez votre adresse e-mail – {brand}',
    paragraphs: ['Merci pour votre inscription. Votre code de confirmation est :'],
    actionLabel: 'Confirmer mon adresse e-mail',
    after: [
      'Le code est valable {minutes} minutes. Vous pouvez aussi confirmer votre adresse avec le bouton ci-dessus.',
      'Si vous n’avez pas créé ce compte, ignorez simplement ce message.',
    ],
  },
  de: {
    subject: 'Bestätigen Sie Ihre E-Mail-Adresse – {brand}',
    paragraphs: ['vielen Dank für Ihre Registrierung. Ihr Bestätigungscode lautet:'],
    actionLabel: 'E-Mail-Adresse bestätigen',
    after: [
      'Der Code ist {minutes} Minuten gültig. Sie können Ihre Adresse auch über die Schaltfläche oben bestätigen.',
      'Wenn Sie dieses Konto nicht angelegt haben, können Sie diese Nachricht einfach ignorieren.',
    ],
  },
  sk: {
    subject: 'Potvrďte svoju e-mailovú adresu – {brand}',
    paragraphs: ['ďakujeme za registráciu. Váš potvrdzovací kód je:'],
    actionLabel: 'Potvrdiť e-mailovú adresu',
    after: [
      'Kód platí {minutes} minút. Adresu môžete potvrdiť aj tlačidlom vyššie.',
      'Ak ste tento účet nevytvorili, túto správu pokojne ignorujte.',
    ],
  },
};

/** The early-bird coupon's code and terms in the verification e-mail of a member it applies to. */
const offeredCoupon: Record<Locale, { limited: string; unlimited: string }> = {
  pt: {
    limited:
      'Como cliente fundador, o código {code} dá-lhe {percent}% de desconto nos próximos {uses} horários que reservar. Não precisa de o escrever: aplicamo-lo automaticamente na janela de reserva, e pode ver quantas utilizações lhe restam em A minha conta.',
    unlimited:
      'Como cliente fundador, o código {code} dá-lhe {percent}% de desconto nos horários que reservar. Não precisa de o escrever: aplicamo-lo automaticamente na janela de reserva.',
  },
  en: {
    limited:
      'As an early member, the code {code} gives you {percent}% off the next {uses} slots you book. You do not need to type it: we apply it for you in the booking window, and My account shows how many uses you have left.',
    unlimited:
      'As an early member, the code {code} gives you {percent}% off the slots you book. You do not need to type it: we apply it for you in the booking window.',
  },
  fr: {
    limited:
      'En tant que membre de la première heure, le code {code} vous donne {percent} % de réduction sur les {uses} prochains créneaux que vous réservez. Inutile de le saisir : nous l’appliquons pour vous dans la fenêtre de réservation, et Mon compte indique combien d’utilisations il vous reste.',
    unlimited:
      'En tant que membre de la première heure, le code {code} vous donne {percent} % de réduction sur les créneaux que vous réservez. Inutile de le saisir : nous l’appliquons pour vous dans la fenêtre de réservation.',
  },
  de: {
    limited:
      'Als Mitglied der ersten Stunde erhalten Sie mit dem Code {code} {percent} % Rabatt auf die nächsten {uses} Zeitfenster, die Sie buchen. Sie müssen ihn nicht eingeben: Wir wenden ihn im Buchungsfenster automatisch an, und unter Mein Konto sehen Sie, wie viele Einlösungen Ihnen bleiben.',
    unlimited:
      'Als Mitglied der ersten Stunde erhalten Sie mit dem Code {code} {percent} % Rabatt auf die Zeitfenster, die Sie buchen. Sie müssen ihn nicht eingeben: Wir wenden ihn im Buchungsfenster automatisch an.',
  },
  sk: {
    limited:
      'Ako člen od začiatku máte s kódom {code} zľavu {percent} % na nasledujúcich {uses} termínov, ktoré si rezervujete. Nemusíte ho zadávať: v okne rezervácie ho použijeme automaticky a v časti Môj účet uvidíte, koľko použití vám zostáva.',
    unlimited:
      'Ako člen od začiatku máte s kódom {code} zľavu {percent} % na termíny, ktoré si rezervujete. Nemusíte ho zadávať: v okne rezervácie ho použijeme automaticky.',
  },
};

/** The coupon a verification e-mail offers: its code, its discount (0.1 is 10 %) and the uses left (null: no cap). */
export type CouponOffer = { code: string; discount: number; remainingUses: number | null };

function offerLine(locale: Locale, offer: CouponOffer): string {
  const text = offeredCoupon[locale];
  const line = offer.remainingUses === null ? text.unlimited : text.limited;
  return fill(
    { line },
    {
      code: offer.code,
      percent: String(Math.round(offer.discount * 1000) / 10),
      uses: String(offer.remainingUses ?? ''),
    },
  ).line;
}

const resetPassword: Record<Locale, Template> = {
  pt: {
    subject: 'Redefinir a palavra-passe – {brand}',
    paragraphs: [
      'Recebemos um pedido para redefinir a palavra-passe da sua conta. Para escolher uma nova, use o botão abaixo.',
    ],
    actionLabel: 'Escolher nova palavra-passe',
    after: [
      'A ligação é válida durante {minutes} minutos e só pode ser usada uma vez. Ao redefinir a palavra-passe, todas as sessões abertas terminam.',
      'Se não fez este pedido, ignore esta mensagem: a sua palavra-passe não muda.',
    ],
  },
  en: {
    subject: 'Reset your password – {brand}',
    paragraphs: [
      'We received a request to reset the password of your account. To choose a new one, use the button below.',
    ],
    actionLabel: 'Choose a new password',
    after: [
      'The link is valid for {minutes} minutes and works only once. Resetting your password signs you out everywhere.',
      'If you did not ask for this, ignore this message: your password stays the same.',
    ],
  },
  fr: {
    subject: 'Réinitialisez votre mot de passe – {brand}',
    paragraphs: [
      'Nous avons reçu une demande de réinitialisation du mot de passe de votre compte. Pour en choisir un nouveau, utilisez le bouton ci-dessous.',
    ],
    actionLabel: 'Choisir un nouveau mot de passe',
    after: [
      'Le lien est valable {minutes} minutes et ne fonctionne qu’une fois. La réinitialisation vous déconnecte de tous vos appareils.',
      'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre mot de passe ne change pas.',
    ],
  },
  de: {
    subject: 'Passwort zurücksetzen – {brand}',
    paragraphs: [
      'wir haben eine Anfrage erhalten, das Passwort Ihres Kontos zurückzusetzen. Über die Schaltfläche unten legen Sie ein neues fest.',
    ],
    actionLabel: 'Neues Passwort festlegen',
    after: [
      'Der Link ist {minutes} Minuten gültig und funktioniert nur einmal. Mit dem Zurücksetzen werden Sie auf allen Geräten abgemeldet.',
      'Wenn Sie das nicht angefordert haben, ignorieren Sie diese Nachricht: Ihr Passwort bleibt unverändert.',
    ],
  },
  sk: {
    subject: 'Obnovenie hesla – {brand}',
    paragraphs: [
      'dostali sme žiadosť o obnovenie hesla k vášmu účtu. Nové heslo si nastavíte tlačidlom nižšie.',
    ],
    actionLabel: 'Nastaviť nové heslo',
    after: [
      'Odkaz platí {minutes} minút a funguje iba raz. Obnovením hesla sa odhlásite na všetkých zariadeniach.',
      'Ak ste o to nežiadali, túto správu ignorujte: vaše heslo sa nezmení.',
    ],
  },
};

const emailChanged: Record<Locale, Omit<Template, 'actionLabel'>> = {
  pt: {
    subject: 'O e-mail da sua conta foi alterado – {brand}',
    paragraphs: [
      'O e-mail da sua conta foi alterado para {newEmail}. A partir de agora, as mensagens da conta são enviadas para esse endereço.',
    ],
    after: ['Se não foi você, contacte-nos de imediato.'],
  },
  en: {
    subject: 'Your account’s e-mail address was changed – {brand}',
    paragraphs: [
      'The e-mail address of your account was changed to {newEmail}. From now on, account messages go to that address.',
    ],
    after: ['If this was not you, please contact us at once.'],
  },
  fr: {
    subject: 'L’adresse e-mail de votre compte a été modifiée – {brand}',
    paragraphs: [
      'L’adresse e-mail de votre compte a été remplacée par {newEmail}. Les messages concernant votre compte seront désormais envoyés à cette adresse.',
    ],
    after: ['Si vous n’êtes pas à l’origine de ce changement, contactez-nous immédiatement.'],
  },
  de: {
    subject: 'Die E-Mail-Adresse Ihres Kontos wurde geändert – {brand}',
    paragraphs: [
      'die E-Mail-Adresse Ihres Kontos wurde in {newEmail} geändert. Nachrichten zu Ihrem Konto gehen ab jetzt an diese Adresse.',
    ],
    after: ['Wenn Sie das nicht waren, kontaktieren Sie uns bitte sofort.'],
  },
  sk: {
    subject: 'E-mailová adresa vášho účtu sa zmenila – {brand}',
    paragraphs: [
      'e-mailová adresa vášho účtu bola zmenená na {newEmail}. Správy k účtu odteraz posielame na túto adresu.',
    ],
    after: ['Ak ste to neboli vy, okamžite nás kontaktujte.'],
  },
};

const verifyPhoneSms: Record<Locale, string> = {
  pt: '{brand}: o seu código de confirmação é {code}. Válido durante {minutes} minutos. Não o partilhe com ninguém.',
  en: '{brand}: your verification code is {code}. Valid for {minutes} minutes. Do not share it with anyone.',
  fr: '{brand} : votre code de vérification est {code}. Valable {minutes} minutes. Ne le communiquez à personne.',
  de: '{brand}: Ihr Bestätigungscode lautet {code}. Gültig für {minutes} Minuten. Geben Sie ihn an niemanden weiter.',
  sk: '{brand}: váš overovací kód je {code}. Platí {minutes} minút. Nikomu ho neposkytujte.',
};

type Common = { locale: Locale; brand: string; firstName: string };

function common({ locale, brand, firstName }: Common) {
  return {
    greeting: fill({ line: greeting[locale] }, { firstName }).line,
    signature: fill({ line: signature[locale] }, { brand }).line,
  };
}

export function verifyEmailMessage(
  params: Common & { code: string; link: string; minutes: number; offer?: CouponOffer | null },
): RenderedEmail {
  const text = fill(verifyEmail[params.locale], { brand: params.brand, minutes: params.minutes });
  const [validity, ...rest] = text.after;
  const after = params.offer ? [validity!, offerLine(params.locale, params.offer), ...rest] : text.after;
  return renderEmail(
    {
      subject: text.subject,
      ...common(params),
      paragraphs: text.paragraphs,
      code: params.code,
      action: { label: text.actionLabel, url: params.link },
      after,
    },
    params.locale,
  );
}

export function resetPasswordMessage(params: Common & { link: string; minutes: number }): RenderedEmail {
  const text = fill(resetPassword[params.locale], { brand: params.brand, minutes: params.minutes });
  return renderEmail(
    {
      subject: text.subject,
      ...common(params),
      paragraphs: text.paragraphs,
      action: { label: text.actionLabel, url: params.link },
      after: text.after,
    },
    params.locale,
  );
}

export function emailChangedMessage(params: Common & { newEmail: string }): RenderedEmail {
  const text = fill(emailChanged[params.locale], { brand: params.brand, newEmail: params.newEmail });
  return renderEmail(
    { subject: text.subject, ...common(params), paragraphs: text.paragraphs, after: text.after },
    params.locale,
  );
}

export function verifyPhoneSmsMessage(params: {
  locale: Locale;
  brand: string;
  code: string;
  minutes: number;
}) {
  return fill({ text: verifyPhoneSms[params.locale] }, params).text;
}
