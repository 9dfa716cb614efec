import type { Temporal } from 'temporal-polyfill';
import { formatMoney } from '../bookings/money.ts';
import { describeSlotTime } from '../bookings/time-format.ts';
import type { Locale } from '../i18n.ts';
import { fill, renderEmail, type RenderedEmail } from '../notifications/templates/layout.ts';

// The e-mail a member gets when the gym cancels a booking (an operator's cancellation, a closure, a block):
// in the member's language, the time in the branch's zone with the zone named, and what is refunded.

const TEXTS = {
  pt: {
    subject: 'Reserva cancelada: {branch}',
    greeting: 'Olá {name},',
    closure: 'Lamentamos, mas a filial {branch} vai estar fechada e tivemos de cancelar a sua reserva:',
    operator: 'A sua reserva na filial {branch} foi cancelada pela nossa equipa:',
    refund: 'Reembolsamos {amount} no cartão usado no pagamento.',
    noRefund: 'Esta reserva não tem reembolso.',
    signature: 'A equipa {company}',
  },
  en: {
    subject: 'Booking cancelled: {branch}',
    greeting: 'Hello {name},',
    closure: 'We are sorry: the {branch} branch will be closed, so we had to cancel your booking:',
    operator: 'Your booking at the {branch} branch was cancelled by our team:',
    refund: 'We have refunded {amount} to the card you paid with.',
    noRefund: 'This booking is not refunded.',
    signature: 'The {company} team',
  },
  fr: {
    subject: 'Réservation annulée : {branch}',
    greeting: 'Bonjour {name},',
    closure:
      'Nous sommes désolés : la salle {branch} sera fermée et nous avons dû annuler votre réservation :',
    operator: 'Votre réservation à la salle {branch} a été annulée par notre équipe :',
    refund: 'Nous avons remboursé {amount} sur la carte utilisée pour le paiement.',
    noRefund: 'Cette réservation n’est pas remboursée.',
    signature: 'L’équipe {company}',
  },
  de: {
    subject: 'Buchung storniert: {branch}',
    greeting: 'Hallo {name},',
    closure:
      'Es tut uns leid: Der Standort {branch} wird geschlossen sein, daher mussten wir Ihre Buchung stornieren:',
    operator: 'Ihre Buchung am Standort {branch} wurde von unserem Team storniert:',
    refund: 'Wir haben {amount} auf die Karte erstattet, mit der Sie bezahlt haben.',
    noRefund: 'Für diese Buchung gibt es keine Erstattung.',
    signature: 'Ihr {company}-Team',
  },
  sk: {
    subject: 'Rezervácia zrušená: {branch}',
    greeting: 'Dobrý deň, {name},',
    closure: 'Je nám ľúto, pobočka {branch} bude zatvorená, a preto sme museli zrušiť vašu rezerváciu:',
    operator: 'Vašu rezerváciu v pobočke {branch} zrušil náš tím:',
    refund: 'Sumu {amount} sme vrátili na kartu, ktorou ste platili.',
    noRefund: 'Táto rezervácia sa nevracia.',
    signature: 'Tím {company}',
  },
} as const satisfies Record<Locale, Record<string, string>>;

export function bookingCanceledByGymMessage(input: {
  locale: Locale;
  firstName: string;
  branch: { name: string; timeZone: string };
  start: Temporal.Instant;
  end: Temporal.Instant;
  refundCents: number;
  cause: 'closure' | 'operator';
  companyName: string;
}): RenderedEmail {
  const texts = fill(TEXTS[input.locale], {
    branch: input.branch.name,
    name: input.firstName,
    amount: formatMoney(input.locale, input.refundCents),
    company: input.companyName,
  });
  return renderEmail(
    {
      subject: texts.subject,
      greeting: texts.greeting,
      paragraphs: [
        input.cause === 'closure' ? texts.closure : texts.operator,
        describeSlotTime(input.locale, input.branch.timeZone, input.start, input.end),
        input.refundCents > 0 ? texts.refund : texts.noRefund,
      ],
      signature: texts.signature,
    },
    input.locale,
  );
}
