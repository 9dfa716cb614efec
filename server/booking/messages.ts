import { messageAnswer, type Localised } from '../kernel/i18n.ts';

// The confirmations of the booking calls whose answer is `{"message": ...}`, in the caller's language.
export const bookingMessages = {
  bookingsCanceled: {
    pt: 'As reservas foram canceladas. O reembolso, quando houver, segue para o cartão usado no pagamento.',
    en: 'Your bookings have been cancelled. Any refund goes back to the card you paid with.',
    fr: 'Vos réservations ont été annulées. Le remboursement éventuel est versé sur la carte utilisée pour le paiement.',
    de: 'Ihre Buchungen wurden storniert. Eine etwaige Erstattung geht an die Karte, mit der Sie bezahlt haben.',
    sk: 'Vaše rezervácie boli zrušené. Prípadná refundácia sa vráti na kartu, ktorou ste platili.',
  },
  codeSent: {
    pt: 'Enviámos novamente o código da porta por e-mail e SMS.',
    en: 'We have sent your door code again by e-mail and SMS.',
    fr: 'Nous vous avons renvoyé le code de la porte par e-mail et SMS.',
    de: 'Wir haben Ihnen den Türcode erneut per E-Mail und SMS geschickt.',
    sk: 'Kód od dverí sme vám znova poslali e-mailom a SMS.',
  },
} satisfies Record<string, Localised>;

export const bookingMessage = messageAnswer(bookingMessages);
