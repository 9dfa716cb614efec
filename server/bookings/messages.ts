import type { Locale, Localised } from '../i18n.ts';

// The confirmations of the booking calls whose answer is `{"message": ...}`, in the caller's language.
export const bookingMessages = {
  bookingsCanceled: {
    pt: 'As reservas foram canceladas. O reembolso, quando houver, segue para o cartão usado no pagamento.',
    en: 'Your bookings have been cancelled. Any refund goes back to the card you paid with.',
    fr: 'Vos réservations ont été annulées. Le remboursement éventuel est versé sur la carte utilisée pour le paiement.',
    de: 'Ihre Buchungen wurden storniert. Eine etwaige Erstattung geht an die Karte, mit der Sie bezahlt haben.',
    sk: 'Vaše rezervácie boli zrušené. Prípadná refundácia sa vráti na kartu, ktorou ste platili.',
  },
} satisfies Record<string, Localised>;

export function bookingMessage(key: keyof typeof bookingMessages, locale: Locale): { message: string } {
  return { message: bookingMessages[key][locale] };
}
