import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { formatLocalClock } from '../../server/bookings/time-format.ts';
import { timeOnly } from '../../src/account/time.ts';
import { formatTime } from '../../src/i18n/format.ts';
import { LOCALES } from '../../src/i18n/locales.ts';

// Issue 17, item 7: e-mails wrote '09:00 pm' where the app wrote '9:00 pm'. One clock per language, the same in
// the app (My bookings, the result dialog) and in the server's e-mails and SMS.

const instants = ['2026-11-22T09:05:00Z', '2026-11-22T21:00:00Z', '2026-07-01T00:30:00Z'];

describe('the clock', () => {
  it('is the same in the app and in the messages, in every language', () => {
    for (const locale of LOCALES)
      for (const iso of instants) {
        const fromServer = formatLocalClock(locale, 'Europe/Lisbon', Temporal.Instant.from(iso));
        expect(formatTime(new Date(iso), locale, 'Europe/Lisbon'), `${locale} ${iso}`).toBe(fromServer);
        expect(timeOnly(iso, 'Europe/Lisbon', locale), `${locale} ${iso}`).toBe(fromServer);
      }
  });

  it("writes '9:00 pm' in English, without a leading zero, and '09:05' on a 24-hour clock", () => {
    const nine = Temporal.Instant.from('2026-11-22T21:00:00Z');
    expect(formatLocalClock('en', 'Europe/Lisbon', nine)).toMatch(/^9:00\s?pm$/);
    expect(formatLocalClock('pt', 'Europe/Lisbon', Temporal.Instant.from('2026-11-22T09:05:00Z'))).toBe(
      '09:05',
    );
    expect(formatLocalClock('de', 'Europe/Lisbon', nine)).toBe('21:00');
  });
});
