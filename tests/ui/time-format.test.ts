import { Temporal } from 'temporal-polyfill';
import { describe, expect, it, vi } from 'vitest';
import { temporal } from '../../machines/temporal.ts';
import { formatLocalClock } from '../../server/kernel/time-format.ts';
import { longDateTime, shortDateTime, slotTimes, timeOnly, timeRange } from '../../src/account/time.ts';
import { clockOptions, intlTag } from '../../src/i18n/format.ts';
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

describe('the times of the booking modal and My bookings (issue 33)', () => {
  const pad = (value: number) => String(value).padStart(2, '0');
  const day = Array.from({ length: 24 }, (_, hour) => ({
    start_time: `2026-07-01T${pad(hour)}:00:00+01:00`,
    end_time: hour === 23 ? '2026-07-02T00:00:00+01:00' : `2026-07-01T${pad(hour + 1)}:00:00+01:00`,
  }));

  it('come from one cached formatter per language, with no Temporal conversion per time', () => {
    const Temporal = temporal();
    const toLocaleString = vi.spyOn(Temporal.ZonedDateTime.prototype, 'toLocaleString');
    const instantFrom = vi.spyOn(Temporal.Instant, 'from');
    const formatters = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      // A day's grid in every language, twice (a second render).
      for (const locale of [...LOCALES, ...LOCALES]) for (const slot of day) slotTimes(slot, locale);
      expect(toLocaleString).not.toHaveBeenCalled();
      expect(instantFrom).not.toHaveBeenCalled();
      expect(formatters.mock.calls.length).toBeLessThanOrEqual(LOCALES.length);
      expect(slotTimes(day[21]!, 'pt')).toBe('21:00 - 22:00');
      expect(slotTimes(day[23]!, 'de')).toBe('23:00 - 00:00');
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('say what Temporal says, across changes of summer time and in a zone the device does not know', () => {
    const Temporal = temporal();
    // The last Sunday of March and of October 2026 in Lisbon, around 01:00 UTC, and a plain day.
    const instants = [
      '2026-03-29T00:30:00Z',
      '2026-03-29T01:30:00Z',
      '2026-10-25T00:30:00Z',
      '2026-10-25T01:30:00Z',
      '2026-11-22T21:00:00Z',
    ];
    for (const locale of LOCALES)
      for (const iso of instants) {
        const zoned = Temporal.Instant.from(iso).toZonedDateTimeISO('Europe/Lisbon');
        const clock = clockOptions(locale);
        expect(timeOnly(iso, 'Europe/Lisbon', locale), `${locale} ${iso}`).toBe(
          zoned.toLocaleString(intlTag(locale), clock),
        );
        expect(longDateTime(iso, 'Europe/Lisbon', locale), `${locale} ${iso}`).toBe(
          zoned.toLocaleString(intlTag(locale), {
            weekday: 'short',
            day: 'numeric',
            month: 'long',
            year: 'numeric',
            ...clock,
          }),
        );
        expect(shortDateTime(zoned.epochMilliseconds, 'Europe/Lisbon', locale), `${locale} ${iso}`).toBe(
          zoned.toLocaleString(intlTag(locale), {
            weekday: 'short',
            day: 'numeric',
            month: 'short',
            ...clock,
          }),
        );
      }
    // An unknown zone: the wall clock of the API's own offset.
    expect(timeOnly('2026-07-01T21:00:00+01:00', 'Mars/Olympus_Mons', 'pt')).toBe('21:00');
    // The end on the same local day is a time only; on the next, a whole date again.
    expect(timeRange('2026-10-25T00:30:00Z', '2026-10-25T01:30:00Z', 'Europe/Lisbon', 'pt')).toBe(
      `${longDateTime('2026-10-25T00:30:00Z', 'Europe/Lisbon', 'pt')} - 01:30`,
    );
    expect(timeRange('2026-10-25T22:30:00Z', '2026-10-26T00:30:00Z', 'Europe/Lisbon', 'pt')).toBe(
      `${longDateTime('2026-10-25T22:30:00Z', 'Europe/Lisbon', 'pt')} - ${longDateTime('2026-10-26T00:30:00Z', 'Europe/Lisbon', 'pt')}`,
    );
  });
});
