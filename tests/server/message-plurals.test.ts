import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { accessCodeMessage } from '../../server/booking/access-code-message.ts';
import { bookingCancellationEmail } from '../../server/booking/cancellation-message.ts';
import { bookingConfirmationMessage } from '../../server/booking/confirmation-message.ts';
import { voucherMessage } from '../../server/booking/voucher-message.ts';
import { AppError, PERIOD_TOO_LONG } from '../../server/kernel/errors.ts';
import type { Locale } from '../../server/kernel/i18n.ts';
import { verifyEmailMessage, verifyPhoneSmsMessage } from '../../server/notifications/templates/account.ts';

// Issue 28 item 3: the server's texts in the five languages with counts that fall into each plural category
// (Slovak: 1 one, 2-4 few, 5 and up other; the others: 1 one, the rest other), and a weekday in the case its
// preposition asks for. Every expected string is written here by hand, not read from the catalogs.

const COUNTS = [1, 2, 3, 5, 21] as const;
type Count = (typeof COUNTS)[number];
type ByCount = Record<Locale, Record<Count, string>>;
const LOCALES: Locale[] = ['pt', 'en', 'fr', 'de', 'sk'];
const cases = LOCALES.flatMap((locale) => COUNTS.map((count) => [locale, count] as const));

/** Intl puts no-break spaces in some numbers and times: compare them as plain spaces. */
const spaces = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
const at = (iso: string) => Temporal.Instant.from(iso);
const LISBON = 'Europe/Lisbon';
const branch = { name: 'Lisboa', location: 'Avenidas Novas', timeZone: LISBON };

const couponUses: ByCount = {
  pt: {
    1: 'dá-lhe 10% de desconto no próximo horário que reservar.',
    2: 'dá-lhe 10% de desconto nos próximos 2 horários que reservar.',
    3: 'dá-lhe 10% de desconto nos próximos 3 horários que reservar.',
    5: 'dá-lhe 10% de desconto nos próximos 5 horários que reservar.',
    21: 'dá-lhe 10% de desconto nos próximos 21 horários que reservar.',
  },
  en: {
    1: 'gives you 10% off the next slot you book.',
    2: 'gives you 10% off the next 2 slots you book.',
    3: 'gives you 10% off the next 3 slots you book.',
    5: 'gives you 10% off the next 5 slots you book.',
    21: 'gives you 10% off the next 21 slots you book.',
  },
  fr: {
    1: 'vous donne 10 % de réduction sur le prochain créneau que vous réservez.',
    2: 'vous donne 10 % de réduction sur les 2 prochains créneaux que vous réservez.',
    3: 'vous donne 10 % de réduction sur les 3 prochains créneaux que vous réservez.',
    5: 'vous donne 10 % de réduction sur les 5 prochains créneaux que vous réservez.',
    21: 'vous donne 10 % de réduction sur les 21 prochains créneaux que vous réservez.',
  },
  de: {
    1: '10 % Rabatt auf das nächste Zeitfenster, das Sie buchen.',
    2: '10 % Rabatt auf die nächsten 2 Zeitfenster, die Sie buchen.',
    3: '10 % Rabatt auf die nächsten 3 Zeitfenster, die Sie buchen.',
    5: '10 % Rabatt auf die nächsten 5 Zeitfenster, die Sie buchen.',
    21: '10 % Rabatt auf die nächsten 21 Zeitfenster, die Sie buchen.',
  },
  sk: {
    1: 'zľavu 10 % na nasledujúci termín, ktorý si rezervujete.',
    2: 'zľavu 10 % na nasledujúce 2 termíny, ktoré si rezervujete.',
    3: 'zľavu 10 % na nasledujúce 3 termíny, ktoré si rezervujete.',
    5: 'zľavu 10 % na nasledujúcich 5 termínov, ktoré si rezervujete.',
    21: 'zľavu 10 % na nasledujúcich 21 termínov, ktoré si rezervujete.',
  },
};

const codeValidity: ByCount = {
  pt: {
    1: 'O código é válido durante 1 minuto.',
    2: 'O código é válido durante 2 minutos.',
    3: 'O código é válido durante 3 minutos.',
    5: 'O código é válido durante 5 minutos.',
    21: 'O código é válido durante 21 minutos.',
  },
  en: {
    1: 'The code is valid for 1 minute.',
    2: 'The code is valid for 2 minutes.',
    3: 'The code is valid for 3 minutes.',
    5: 'The code is valid for 5 minutes.',
    21: 'The code is valid for 21 minutes.',
  },
  fr: {
    1: 'Le code est valable 1 minute.',
    2: 'Le code est valable 2 minutes.',
    3: 'Le code est valable 3 minutes.',
    5: 'Le code est valable 5 minutes.',
    21: 'Le code est valable 21 minutes.',
  },
  de: {
    1: 'Der Code ist 1 Minute gültig.',
    2: 'Der Code ist 2 Minuten gültig.',
    3: 'Der Code ist 3 Minuten gültig.',
    5: 'Der Code ist 5 Minuten gültig.',
    21: 'Der Code ist 21 Minuten gültig.',
  },
  sk: {
    1: 'Kód platí 1 minútu.',
    2: 'Kód platí 2 minúty.',
    3: 'Kód platí 3 minúty.',
    5: 'Kód platí 5 minút.',
    21: 'Kód platí 21 minút.',
  },
};

const smsValidity: ByCount = {
  pt: {
    1: 'Válido durante 1 minuto.',
    2: 'Válido durante 2 minutos.',
    3: 'Válido durante 3 minutos.',
    5: 'Válido durante 5 minutos.',
    21: 'Válido durante 21 minutos.',
  },
  en: {
    1: 'Valid for 1 minute.',
    2: 'Valid for 2 minutes.',
    3: 'Valid for 3 minutes.',
    5: 'Valid for 5 minutes.',
    21: 'Valid for 21 minutes.',
  },
  fr: {
    1: 'Valable 1 minute.',
    2: 'Valable 2 minutes.',
    3: 'Valable 3 minutes.',
    5: 'Valable 5 minutes.',
    21: 'Valable 21 minutes.',
  },
  de: {
    1: 'Gültig für 1 Minute.',
    2: 'Gültig für 2 Minuten.',
    3: 'Gültig für 3 Minuten.',
    5: 'Gültig für 5 Minuten.',
    21: 'Gültig für 21 Minuten.',
  },
  sk: {
    1: 'Platí 1 minútu.',
    2: 'Platí 2 minúty.',
    3: 'Platí 3 minúty.',
    5: 'Platí 5 minút.',
    21: 'Platí 21 minút.',
  },
};

const passwordTooShort: ByCount = {
  pt: {
    1: 'A palavra-passe tem de ter pelo menos 1 carácter.',
    2: 'A palavra-passe tem de ter pelo menos 2 caracteres.',
    3: 'A palavra-passe tem de ter pelo menos 3 caracteres.',
    5: 'A palavra-passe tem de ter pelo menos 5 caracteres.',
    21: 'A palavra-passe tem de ter pelo menos 21 caracteres.',
  },
  en: {
    1: 'The password must be at least 1 character long.',
    2: 'The password must be at least 2 characters long.',
    3: 'The password must be at least 3 characters long.',
    5: 'The password must be at least 5 characters long.',
    21: 'The password must be at least 21 characters long.',
  },
  fr: {
    1: 'Le mot de passe doit comporter au moins 1 caractère.',
    2: 'Le mot de passe doit comporter au moins 2 caractères.',
    3: 'Le mot de passe doit comporter au moins 3 caractères.',
    5: 'Le mot de passe doit comporter au moins 5 caractères.',
    21: 'Le mot de passe doit comporter au moins 21 caractères.',
  },
  de: {
    1: 'Das Passwort muss mindestens 1 Zeichen lang sein.',
    2: 'Das Passwort muss mindestens 2 Zeichen lang sein.',
    3: 'Das Passwort muss mindestens 3 Zeichen lang sein.',
    5: 'Das Passwort muss mindestens 5 Zeichen lang sein.',
    21: 'Das Passwort muss mindestens 21 Zeichen lang sein.',
  },
  sk: {
    1: 'Heslo musí mať aspoň 1 znak.',
    2: 'Heslo musí mať aspoň 2 znaky.',
    3: 'Heslo musí mať aspoň 3 znaky.',
    5: 'Heslo musí mať aspoň 5 znakov.',
    21: 'Heslo musí mať aspoň 21 znakov.',
  },
};

const notMovable: ByCount = {
  pt: {
    1: 'enquanto faltar mais de 1 hora para o início.',
    2: 'enquanto faltarem mais de 2 horas para o início.',
    3: 'enquanto faltarem mais de 3 horas para o início.',
    5: 'enquanto faltarem mais de 5 horas para o início.',
    21: 'enquanto faltarem mais de 21 horas para o início.',
  },
  en: {
    1: 'while its start is more than 1 hour away.',
    2: 'while its start is more than 2 hours away.',
    3: 'while its start is more than 3 hours away.',
    5: 'while its start is more than 5 hours away.',
    21: 'while its start is more than 21 hours away.',
  },
  fr: {
    1: 'plus de 1 heure avant son début.',
    2: 'plus de 2 heures avant son début.',
    3: 'plus de 3 heures avant son début.',
    5: 'plus de 5 heures avant son début.',
    21: 'plus de 21 heures avant son début.',
  },
  de: {
    1: 'mehr als 1 Stunde entfernt ist.',
    2: 'mehr als 2 Stunden entfernt ist.',
    3: 'mehr als 3 Stunden entfernt ist.',
    5: 'mehr als 5 Stunden entfernt ist.',
    21: 'mehr als 21 Stunden entfernt ist.',
  },
  sk: {
    1: 'viac ako 1 hodinu pred jej začiatkom.',
    2: 'viac ako 2 hodiny pred jej začiatkom.',
    3: 'viac ako 3 hodiny pred jej začiatkom.',
    5: 'viac ako 5 hodín pred jej začiatkom.',
    21: 'viac ako 21 hodín pred jej začiatkom.',
  },
};

const periodTooLong: ByCount = {
  pt: {
    1: 'O período é inválido: pode ter no máximo 1 dia.',
    2: 'O período é inválido: pode ter no máximo 2 dias.',
    3: 'O período é inválido: pode ter no máximo 3 dias.',
    5: 'O período é inválido: pode ter no máximo 5 dias.',
    21: 'O período é inválido: pode ter no máximo 21 dias.',
  },
  en: {
    1: 'The period is invalid: it can be at most 1 day long.',
    2: 'The period is invalid: it can be at most 2 days long.',
    3: 'The period is invalid: it can be at most 3 days long.',
    5: 'The period is invalid: it can be at most 5 days long.',
    21: 'The period is invalid: it can be at most 21 days long.',
  },
  fr: {
    1: 'La période est invalide : elle peut durer au maximum 1 jour.',
    2: 'La période est invalide : elle peut durer au maximum 2 jours.',
    3: 'La période est invalide : elle peut durer au maximum 3 jours.',
    5: 'La période est invalide : elle peut durer au maximum 5 jours.',
    21: 'La période est invalide : elle peut durer au maximum 21 jours.',
  },
  de: {
    1: 'Der Zeitraum ist ungültig: Er darf höchstens 1 Tag lang sein.',
    2: 'Der Zeitraum ist ungültig: Er darf höchstens 2 Tage lang sein.',
    3: 'Der Zeitraum ist ungültig: Er darf höchstens 3 Tage lang sein.',
    5: 'Der Zeitraum ist ungültig: Er darf höchstens 5 Tage lang sein.',
    21: 'Der Zeitraum ist ungültig: Er darf höchstens 21 Tage lang sein.',
  },
  sk: {
    1: 'Obdobie je neplatné: môže trvať najviac 1 deň.',
    2: 'Obdobie je neplatné: môže trvať najviac 2 dni.',
    3: 'Obdobie je neplatné: môže trvať najviac 3 dni.',
    5: 'Obdobie je neplatné: môže trvať najviac 5 dní.',
    21: 'Obdobie je neplatné: môže trvať najviac 21 dní.',
  },
};

const confirmation: Record<Locale, Record<Count, [subject: string, intro: string]>> = {
  pt: {
    1: ['Reserva confirmada: Lisboa', 'A sua reserva está confirmada:'],
    2: ['Reservas confirmadas: Lisboa', 'As suas 2 reservas estão confirmadas:'],
    3: ['Reservas confirmadas: Lisboa', 'As suas 3 reservas estão confirmadas:'],
    5: ['Reservas confirmadas: Lisboa', 'As suas 5 reservas estão confirmadas:'],
    21: ['Reservas confirmadas: Lisboa', 'As suas 21 reservas estão confirmadas:'],
  },
  en: {
    1: ['Booking confirmed: Lisboa', 'Your booking is confirmed:'],
    2: ['Bookings confirmed: Lisboa', 'Your 2 bookings are confirmed:'],
    3: ['Bookings confirmed: Lisboa', 'Your 3 bookings are confirmed:'],
    5: ['Bookings confirmed: Lisboa', 'Your 5 bookings are confirmed:'],
    21: ['Bookings confirmed: Lisboa', 'Your 21 bookings are confirmed:'],
  },
  fr: {
    1: ['Réservation confirmée : Lisboa', 'Votre réservation est confirmée :'],
    2: ['Réservations confirmées : Lisboa', 'Vos 2 réservations sont confirmées :'],
    3: ['Réservations confirmées : Lisboa', 'Vos 3 réservations sont confirmées :'],
    5: ['Réservations confirmées : Lisboa', 'Vos 5 réservations sont confirmées :'],
    21: ['Réservations confirmées : Lisboa', 'Vos 21 réservations sont confirmées :'],
  },
  de: {
    1: ['Buchung bestätigt: Lisboa', 'Ihre Buchung ist bestätigt:'],
    2: ['Buchungen bestätigt: Lisboa', 'Ihre 2 Buchungen sind bestätigt:'],
    3: ['Buchungen bestätigt: Lisboa', 'Ihre 3 Buchungen sind bestätigt:'],
    5: ['Buchungen bestätigt: Lisboa', 'Ihre 5 Buchungen sind bestätigt:'],
    21: ['Buchungen bestätigt: Lisboa', 'Ihre 21 Buchungen sind bestätigt:'],
  },
  sk: {
    1: ['Rezervácia potvrdená: Lisboa', 'Vaša rezervácia je potvrdená:'],
    2: ['Rezervácie potvrdené: Lisboa', 'Vaše 2 rezervácie sú potvrdené:'],
    3: ['Rezervácie potvrdené: Lisboa', 'Vaše 3 rezervácie sú potvrdené:'],
    5: ['Rezervácie potvrdené: Lisboa', 'Vašich 5 rezervácií je potvrdených:'],
    21: ['Rezervácie potvrdené: Lisboa', 'Vašich 21 rezervácií je potvrdených:'],
  },
};

const cancellation: Record<Locale, [one: [string, string], more: [string, string]]> = {
  pt: [
    ['Reserva cancelada: Lisboa', 'Cancelou esta reserva:'],
    ['Reservas canceladas: Lisboa', 'Cancelou estas reservas:'],
  ],
  en: [
    ['Booking cancelled: Lisboa', 'You cancelled this booking:'],
    ['Bookings cancelled: Lisboa', 'You cancelled these bookings:'],
  ],
  fr: [
    ['Réservation annulée : Lisboa', 'Vous avez annulé cette réservation :'],
    ['Réservations annulées : Lisboa', 'Vous avez annulé ces réservations :'],
  ],
  de: [
    ['Buchung storniert: Lisboa', 'Sie haben diese Buchung storniert:'],
    ['Buchungen storniert: Lisboa', 'Sie haben diese Buchungen storniert:'],
  ],
  sk: [
    ['Rezervácia zrušená: Lisboa', 'Zrušili ste túto rezerváciu:'],
    ['Rezervácie zrušené: Lisboa', 'Zrušili ste tieto rezervácie:'],
  ],
};

/** `count` one-hour slots from 08:00 on 3 and following days of December 2026 (a Thursday). */
function slots(count: number) {
  return Array.from({ length: count }, (_, index) => {
    const start = at('2026-12-03T08:00:00Z').add({ hours: 24 * Math.floor(index / 12) + (index % 12) });
    return { bookingId: index + 1, start, end: start.add({ hours: 1 }), sequence: 0 };
  });
}

const common = {
  firstName: 'Ana',
  branch,
  organizer: { name: 'Private Gym', email: 'gym@example.com' },
  attendeeEmail: 'ana@example.com',
  publicUrl: 'https://gym.example',
  now: at('2026-11-26T10:00:00Z'),
};

describe('server messages with counts, in each language', () => {
  it.each(cases)(
    'offer the early-bird coupon’s uses left in the verification e-mail (%s, %i)',
    (locale, uses) => {
      const mail = verifyEmailMessage({
        locale,
        brand: 'Private Gym',
        firstName: 'Ana',
        code: '123456',
        link: 'https://gym.example/verify',
        minutes: 15,
        offer: { code: 'EARLY', discount: 0.1, remainingUses: uses },
      });
      expect(spaces(mail.text)).toContain(couponUses[locale][uses]);
    },
  );

  it.each(cases)('give the code’s validity in minutes, e-mail and SMS (%s, %i)', (locale, minutes) => {
    const mail = verifyEmailMessage({
      locale,
      brand: 'Private Gym',
      firstName: 'Ana',
      code: '123456',
      link: 'https://gym.example/verify',
      minutes,
    });
    expect(mail.text).toContain(codeValidity[locale][minutes]);
    const sms = verifyPhoneSmsMessage({ locale, brand: 'Private Gym', code: '123456', minutes });
    expect(sms).toContain(smsValidity[locale][minutes]);
  });

  it.each(cases)('state the shortest password in characters (%s, %i)', (locale, min) => {
    expect(new AppError('password_too_short', { min }).body(locale).detail).toBe(
      passwordTooShort[locale][min],
    );
  });

  it.each(cases)('state the hours before the start a booking may still move (%s, %i)', (locale, hours) => {
    expect(new AppError('booking_not_movable', { hours }).body(locale).detail).toContain(
      notMovable[locale][hours],
    );
  });

  it.each(cases)('state the longest period in days (%s, %i)', (locale, days) => {
    const error = new AppError('invalid_period', { days }, {}, { detail: PERIOD_TOO_LONG });
    expect(error.body(locale)).toEqual({ code: 'invalid_period', detail: periodTooLong[locale][days] });
  });

  it.each(cases)('count the bookings in the confirmation’s subject and opening (%s, %i)', (locale, count) => {
    const mail = bookingConfirmationMessage({
      ...common,
      locale,
      slots: slots(count).map((slot) => ({ ...slot, basePriceCents: 1500, finalPriceCents: 1500 })),
      receipt: {
        company: {
          name: 'Gym Lda',
          address: 'Rua 1, Lisboa',
          taxId: '123456789',
          vatRate: 0.23,
          email: 'info@gym.example',
          socialUrl: 'https://social.example/gym',
        },
        customer: { firstName: 'Ana', lastName: 'Silva', taxId: null },
        coupon: null,
        payment: null,
      },
    });
    const [subject, intro] = confirmation[locale][count];
    expect(mail.subject).toBe(subject);
    expect(mail.text.split('\n')).toContain(intro);
  });

  it.each(cases)('count the bookings in the cancellation’s subject and opening (%s, %i)', (locale, count) => {
    const mail = bookingCancellationEmail({
      ...common,
      reason: 'member',
      locale,
      bookings: slots(count).map((slot) => ({ ...slot, refundCents: 0 })),
      card: null,
      paymentReference: null,
      companyName: 'Gym Lda',
    });
    const [subject, intro] = cancellation[locale][count === 1 ? 0 : 1];
    expect(mail.subject).toBe(subject);
    expect(mail.text.split('\n')).toContain(intro);
  });
});

describe('the door-code message’s window', () => {
  const message = (locale: Locale, validUntil: string) =>
    accessCodeMessage(
      {
        ...common,
        locale,
        code: '482913',
        validFrom: at('2026-12-03T09:45:00Z'),
        validUntil: at(validUntil),
        slots: [{ start: at('2026-12-03T10:00:00Z'), end: at('2026-12-03T11:00:00Z') }],
      },
      'Private Gym',
    );

  it('puts the weekday after "from" in the case each language asks for', () => {
    const window: Record<Locale, string> = {
      pt: 'O código abre a porta de quinta-feira, 3 de dezembro de 2026, 09:45 a 11:15 (Europe/Lisbon).',
      en: 'The code opens the door from Thursday, 3 December 2026, 9:45 am to 11:15 am (Europe/Lisbon).',
      fr: 'Le code ouvre la porte du jeudi 3 décembre 2026, 09:45 à 11:15 (Europe/Lisbon).',
      de: 'Der Code öffnet die Tür von Donnerstag, 3. Dezember 2026, 09:45 bis 11:15 (Europe/Lisbon).',
      sk: 'Kód otvára dvere od štvrtka 3. decembra 2026, 09:45 do 11:15 (Europe/Lisbon).',
    };
    for (const locale of LOCALES) {
      expect(spaces(message(locale, '2026-12-03T11:15:00Z').text), locale).toContain(window[locale]);
    }
    expect(message('sk', '2026-12-03T11:15:00Z').sms).toContain(
      'platí od štvrtka 3. decembra 2026, 09:45 do 11:15',
    );
    expect(message('fr', '2026-12-03T11:15:00Z').sms).toContain(
      'valable du jeudi 3 décembre 2026, 09:45 à 11:15',
    );
  });

  it('names the other day in its case when the window ends on the next one', () => {
    const sk = message('sk', '2026-12-04T00:15:00Z').text;
    expect(sk).toContain('od štvrtka 3. decembra 2026, 09:45 do piatka 4. decembra 2026, 00:15');
    const fr = message('fr', '2026-12-04T00:15:00Z').text;
    expect(fr).toContain('du jeudi 3 décembre 2026, 09:45 au vendredi 4 décembre 2026, 00:15');
    const de = message('de', '2026-12-04T00:15:00Z').text;
    expect(de).toContain('von Donnerstag, 3. Dezember 2026, 09:45 bis Freitag, 4. Dezember 2026, 00:15');
  });

  it('heads the list of bookings in the singular for one booking', () => {
    const heading: Record<Locale, string> = {
      pt: 'Reserva:',
      en: 'Booking:',
      fr: 'Réservation :',
      de: 'Buchung:',
      sk: 'Rezervácia:',
    };
    for (const locale of LOCALES) {
      expect(message(locale, '2026-12-03T11:15:00Z').text.split('\n'), locale).toContain(heading[locale]);
    }
  });
});

// Issue 30: the Multibanco voucher's subject was singular for a voucher paying several bookings.
describe('the Multibanco voucher’s subject', () => {
  const subjects: Record<Locale, [string, string]> = {
    pt: ['Referência Multibanco da sua reserva', 'Referência Multibanco das suas reservas'],
    en: ['Multibanco reference for your booking', 'Multibanco reference for your bookings'],
    fr: ['Référence Multibanco de votre réservation', 'Référence Multibanco de vos réservations'],
    de: ['Multibanco-Referenz für Ihre Buchung', 'Multibanco-Referenz für Ihre Buchungen'],
    sk: ['Referencia Multibanco k vašej rezervácii', 'Referencia Multibanco k vašim rezerváciám'],
  };
  it.each(cases)('counts the bookings it pays (%s, %i)', (locale, count) => {
    const mail = voucherMessage({
      locale,
      firstName: 'Ana',
      timeZone: LISBON,
      entity: '12345',
      reference: '123 456 789',
      amountCents: 1500 * count,
      heldUntil: at('2026-12-01T10:00:00Z'),
      voucherUrl: null,
      slots: slots(count).map((slot) => ({ branchName: 'Lisboa', start: slot.start, end: slot.end })),
      publicUrl: 'https://gym.example',
    });
    expect(mail.subject).toBe(subjects[locale][count === 1 ? 0 : 1]);
  });
});
