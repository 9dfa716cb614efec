import { translate, translateAll, type Locale, type Message } from '../../kernel/i18n.ts';
import { GREETING, renderEmail, type RenderedEmail } from '../../kernel/email-layout.ts';

// The messages of accounts, in the five languages of the interface, written for the reader, not translated
// word for word. Placeholders: {brand}, {firstName}, {code}, {minutes}, {newEmail}.

const signature: Message = /*i18n*/ {
  id: 'email.account.signature',
  message: 'A equipa {brand}',
};

type Template = { subject: Message; paragraphs: Message[]; actionLabel: Message; after: Message[] };

const verifyEmail: Template = {
  subject: /*i18n*/ { id: 'email.account.verifyEmail.subject', message: 'Confirme o seu e-mail – {brand}' },
  paragraphs: [
    /*i18n*/ {
      id: 'email.account.verifyEmail.paragraphs.0',
      message: 'Obrigado por se registar. O seu código de confirmação do e-mail é:',
    },
  ],
  actionLabel: /*i18n*/ { id: 'email.account.verifyEmail.actionLabel', message: 'Confirmar o e-mail' },
  after: [
    /*i18n*/ {
      id: 'email.account.verifyEmail.after.0',
      message:
        'O código é válido durante {minutes, plural, one {# minuto} other {# minutos}}. Também pode confirmar o e-mail com o botão acima.',
    },
    /*i18n*/ {
      id: 'email.account.verifyEmail.after.1',
      message: 'Se não foi você que criou esta conta, ignore esta mensagem.',
    },
  ],
};

/** The early-bird coupon's code and terms in the verification e-mail of a member it applies to. */
const offeredCoupon = {
  limited: /*i18n*/ {
    id: 'email.account.offeredCoupon.limited',
    message:
      'Como cliente fundador, o código {code} dá-lhe {percent}% de desconto {uses, plural, one {no próximo horário que reservar} other {nos próximos # horários que reservar}}. Não precisa de o escrever: aplicamo-lo automaticamente na janela de reserva, e pode ver quantas utilizações lhe restam em A minha conta.',
  },
  unlimited: /*i18n*/ {
    id: 'email.account.offeredCoupon.unlimited',
    message:
      'Como cliente fundador, o código {code} dá-lhe {percent}% de desconto nos horários que reservar. Não precisa de o escrever: aplicamo-lo automaticamente na janela de reserva.',
  },
} satisfies Record<string, Message>;

/** The coupon a verification e-mail offers: its code, its discount (0.1 is 10 %) and the uses left (null: no cap). */
export type CouponOffer = { code: string; discount: number; remainingUses: number | null };

function offerLine(locale: Locale, offer: CouponOffer): string {
  const percent = String(Math.round(offer.discount * 1000) / 10);
  return offer.remainingUses === null
    ? translate(locale, offeredCoupon.unlimited, { code: offer.code, percent })
    : translate(locale, offeredCoupon.limited, { code: offer.code, percent, uses: offer.remainingUses });
}

const resetPassword: Template = {
  subject: /*i18n*/ {
    id: 'email.account.resetPassword.subject',
    message: 'Redefinir a palavra-passe – {brand}',
  },
  paragraphs: [
    /*i18n*/ {
      id: 'email.account.resetPassword.paragraphs.0',
      message:
        'Recebemos um pedido para redefinir a palavra-passe da sua conta. Para escolher uma nova, use o botão abaixo.',
    },
  ],
  actionLabel: /*i18n*/ {
    id: 'email.account.resetPassword.actionLabel',
    message: 'Escolher nova palavra-passe',
  },
  after: [
    /*i18n*/ {
      id: 'email.account.resetPassword.after.0',
      message:
        'A ligação é válida durante {minutes, plural, one {# minuto} other {# minutos}} e só pode ser usada uma vez. Ao redefinir a palavra-passe, todas as sessões abertas terminam.',
    },
    /*i18n*/ {
      id: 'email.account.resetPassword.after.1',
      message: 'Se não fez este pedido, ignore esta mensagem: a sua palavra-passe não muda.',
    },
  ],
};

const emailChanged: Omit<Template, 'actionLabel'> = {
  subject: /*i18n*/ {
    id: 'email.account.emailChanged.subject',
    message: 'O e-mail da sua conta foi alterado – {brand}',
  },
  paragraphs: [
    /*i18n*/ {
      id: 'email.account.emailChanged.paragraphs.0',
      message:
        'O e-mail da sua conta foi alterado para {newEmail}. A partir de agora, as mensagens da conta são enviadas para esse endereço.',
    },
  ],
  after: [
    /*i18n*/ {
      id: 'email.account.emailChanged.after.0',
      message: 'Se não foi você, contacte-nos de imediato.',
    },
  ],
};

const verifyPhoneSms: Message = /*i18n*/ {
  id: 'email.account.verifyPhoneSms',
  message:
    '{brand}: o seu código de confirmação é {code}. Válido durante {minutes, plural, one {# minuto} other {# minutos}}. Não o partilhe com ninguém.',
};

type Common = { locale: Locale; brand: string; firstName: string };

function common({ locale, brand, firstName }: Common) {
  return {
    greeting: translate(locale, GREETING, { name: firstName }),
    signature: translate(locale, signature, { brand }),
  };
}

export function verifyEmailMessage(
  params: Common & { code: string; link: string; minutes: number; offer?: CouponOffer | null },
): RenderedEmail {
  const text = translateAll(params.locale, verifyEmail, { brand: params.brand, minutes: params.minutes });
  const [validity, ...rest] = text.after;
  const after = params.offer ? [validity!, offerLine(params.locale, params.offer), ...rest] : text.after;
  return renderEmail({
    subject: text.subject,
    ...common(params),
    paragraphs: text.paragraphs,
    code: params.code,
    action: { label: text.actionLabel, url: params.link },
    after,
  });
}

export function resetPasswordMessage(params: Common & { link: string; minutes: number }): RenderedEmail {
  const text = translateAll(params.locale, resetPassword, { brand: params.brand, minutes: params.minutes });
  return renderEmail({
    subject: text.subject,
    ...common(params),
    paragraphs: text.paragraphs,
    action: { label: text.actionLabel, url: params.link },
    after: text.after,
  });
}

export function emailChangedMessage(params: Common & { newEmail: string }): RenderedEmail {
  const text = translateAll(params.locale, emailChanged, { brand: params.brand, newEmail: params.newEmail });
  return renderEmail({
    subject: text.subject,
    ...common(params),
    paragraphs: text.paragraphs,
    after: text.after,
  });
}

export function verifyPhoneSmsMessage(params: {
  locale: Locale;
  brand: string;
  code: string;
  minutes: number;
}) {
  return translate(params.locale, verifyPhoneSms, params);
}
