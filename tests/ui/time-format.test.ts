import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { formatLocalClock } from '../../server/kernel/time-format.ts';
import { slotTimes, timeOnly } from '../../src/account/time.ts';
import { LOCALES } from '../../src/i18n/locales.ts';

// Issue 17, item 7: e-mails wrote '09:00 pm' where the app wrote '9:00 pm'. One clock per language, the same in
// the app (My bookings, the result dialog) and in the server's e-mails and SMS.

const instants = ['2026-11-22T09:05:00Z', '2026-11-22T21:00:00Z', '2026-07-01T00:30:00Z'];

describe('the clock', () => {
  it('is the same in the app and in the messages, in every language', () => {
    for (const locale of LOCALES)
      for (const iso of instants) {
        const fromServer = formatLocalClock(locale, 'Europe/Lisbon', Temporal.Instant.from(iso));
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

describe('the booking modal’s slot times', () => {
  it('use the messages’ clock in every language, on the branch’s wall clock whatever the device zone', () => {
    const slot = { start_time: '2026-07-01T21:00:00+01:00', end_time: '2026-07-01T22:00:00+01:00' };
    for (const locale of LOCALES) {
      const clock = (iso: string) => formatLocalClock(locale, 'Europe/Lisbon', Temporal.Instant.from(iso));
      expect(slotTimes(slot, locale), locale).toBe(`${clock(slot.start_time)} - ${clock(slot.end_time)}`);
    }
    expect(slotTimes(slot, 'en')).toMatch(/^9:00\s?pm - 10:00\s?pm$/);
    expect(slotTimes(slot, 'pt')).toBe('21:00 - 22:00');
  });
});
