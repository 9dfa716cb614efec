import { messageAnswer, type Message } from '../kernel/i18n.ts';

// The confirmations of the booking calls whose answer is `{"message": ...}`, in the caller's language.
export const bookingMessages = {
  bookingsCanceled: /*i18n*/ {
    id: 'booking.bookingsCanceled',
    message:
      'As reservas foram canceladas. O reembolso, quando houver, segue para o cartão usado no pagamento.',
  },
  codeSent: /*i18n*/ {
    id: 'booking.codeSent',
    message: 'Enviámos novamente o código da porta por e-mail e SMS.',
  },
} satisfies Record<string, Message>;

export const bookingMessage = messageAnswer(bookingMessages);
