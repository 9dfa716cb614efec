import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  bookingCancellationEmail,
  bookingCancellationSms,
  type CancellationInput,
} from '../../server/booking/cancellation-message.ts';

// Issue 30: what a member is told when bookings of theirs end without them asking — the SMS names one booking,
// so it must give that booking's own refund; an operator's or a closure's reason reaches the member; a blocked
// member is given a contact, not an invitation to book again. Expected strings are written here by hand.

const at = (iso: string) => Temporal.Instant.from(iso);
/** Intl puts no-break spaces in amounts and times: compare them as plain spaces. */
const spaces = (text: string | null) => text?.replace(/[\u00a0\u202f]/g, ' ') ?? null;
const branch = { name: 'Lisboa', location: 'Avenidas Novas', timeZone: 'Europe/Lisbon' };

// Thursday 26 November 2026, 10:00 in Lisbon (UTC in winter). One booking tonight, inside the no-refund window;
// one a week later, refunded in full.
const tonight = {
  bookingId: 1,
  start: at('2026-11-26T18:00:00Z'),
  end: at('2026-11-26T19:00:00Z'),
  refundCents: 0,
  sequence: 1,
};
const nextWeek = {
  bookingId: 2,
  start: at('2026-12-03T08:00:00Z'),
  end: at('2026-12-03T09:00:00Z'),
  refundCents: 1500,
  sequence: 1,
};

function input(overrides: Partial<CancellationInput>): CancellationInput {
  return {
    reason: 'account_deleted',
    locale: 'pt',
    firstName: 'Ana',
    branch,
    bookings: [tonight, nextWeek],
    card: null,
    paymentReference: null,
    companyName: 'Private Gym',
    organizer: { name: 'Private Gym', email: 'gym@example.com' },
    attendeeEmail: 'ana@example.com',
    publicUrl: 'https://gym.example',
    now: at('2026-11-26T10:00:00Z'),
    ...overrides,
  };
}

describe('the cancellation SMS', () => {
  it('gives the booking it names its own refund, and counts the others with the refund of all', () => {
    expect(spaces(bookingCancellationSms(input({})))).toBe(
      'Private Gym: reserva de quinta-feira, 26 de novembro de 2026, 18:00–19:00 (Europe/Lisbon) em Lisboa cancelada. Sem reembolso. ' +
        'Mais 1 reserva cancelada; reembolso total: 15,00 €. Detalhes no e-mail.',
    );
    expect(spaces(bookingCancellationSms(input({ locale: 'en' })))).toBe(
      'Private Gym: your booking on Thursday, 26 November 2026, 6:00 pm–7:00 pm (Europe/Lisbon) at Lisboa is cancelled. No refund. ' +
        '1 more booking cancelled; total refund: €15.00. Details by e-mail.',
    );
  });

  it('counts the others in Slovak’s plural forms, and says when nothing at all is refunded', () => {
    const three = [tonight, nextWeek, { ...nextWeek, bookingId: 3 }, { ...nextWeek, bookingId: 4 }].map(
      (booking) => ({ ...booking, refundCents: 0 }),
    );
    expect(spaces(bookingCancellationSms(input({ locale: 'sk', bookings: three })))).toBe(
      'Private Gym: vaša rezervácia na štvrtok 26. novembra 2026, 18:00–19:00 (Europe/Lisbon) v Lisboa je zrušená. Bez vrátenia peňazí. ' +
        'Zrušené sú aj 3 ďalšie rezervácie, bez vrátenia peňazí. Podrobnosti v e-maile.',
    );
  });

  it('names a single booking with its refund and nothing more', () => {
    expect(spaces(bookingCancellationSms(input({ bookings: [{ ...tonight, refundCents: 750 }] })))).toBe(
      'Private Gym: reserva de quinta-feira, 26 de novembro de 2026, 18:00–19:00 (Europe/Lisbon) em Lisboa cancelada. Reembolso: 7,50 €.',
    );
  });
});

describe('the cancellation e-mail', () => {
  it('tells the member an operator’s reason, in the member’s language', () => {
    const mail = bookingCancellationEmail(
      input({ reason: 'operator', locale: 'de', bookings: [nextWeek], note: 'Dusche defekt' }),
    );
    const lines = mail.text.split('\n');
    expect(lines).toContain('Das Studio hat diese Buchung von Ihnen storniert:');
    expect(lines).toContain('Begründung des Studios: Dusche defekt');
    expect(mail.html).toContain('<p>Begründung des Studios: Dusche defekt</p>');
    expect(lines).toContain('Eine andere Zeit können Sie unter https://gym.example/de buchen.');
  });

  it('says the branch will be closed and why, and escapes what the operator wrote', () => {
    const mail = bookingCancellationEmail(
      input({ reason: 'closure', locale: 'fr', bookings: [nextWeek], note: 'Fuite <eau>' }),
    );
    const lines = mail.text.split('\n');
    expect(lines).toContain('La salle sera fermée et a annulé cette réservation :');
    expect(lines).toContain('Motif donné par la salle : Fuite <eau>');
    expect(mail.html).toContain('Motif donné par la salle : Fuite &lt;eau&gt;');
  });

  it('gives a blocked member the business’s contact instead of a link to book again', () => {
    const mail = bookingCancellationEmail(
      input({
        reason: 'blocked',
        bookings: [nextWeek],
        contact: { email: 'info@gym.example', phone: '+351 210 000 000' },
      }),
    );
    const lines = mail.text.split('\n');
    expect(lines).toContain('A sua conta já não pode fazer reservas e esta reserva foi cancelada:');
    expect(lines).toContain('Para mais informações: info@gym.example ou +351 210 000 000');
    expect(mail.text).not.toContain('Pode reservar outra hora');
    expect(mail.html).not.toContain('https://gym.example/pt');
  });
});
