import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../server/kernel/clock.ts';
import { accessCodeMessage } from '../../server/booking/access-code-message.ts';
import { describeSlotTime, formatLocalClock } from '../../server/kernel/time-format.ts';
import { LOCALES, type Locale } from '../../server/kernel/i18n.ts';
import { lisbonSlot } from './bookings-fixtures.ts';
import { DATABASE_TARGETS } from './support/databases.ts';
import { bookAndPayOverHttp, newClient, startAccountApp, verifiedAccount } from './support/accounts.ts';
import { createBranch } from './support/fixtures.ts';
import { startSmtpServer } from './support/mail.ts';

// Issue 26, item 6: on the day the clocks go back, 01:00–01:59 happens twice in Lisbon (first at UTC+1, then at
// UTC+0). A message's time in that hour carries its offset, so '01:00–01:00' no longer reads as nothing.

const LISBON = 'Europe/Lisbon';
const at = (iso: string) => Temporal.Instant.from(iso);

/** Each language's clock at 01:00 and 01:30 local, and at hours that happen once. */
const CLOCKS: Record<Locale, { one: string; oneThirty: string; twoAm: string; half: string }> = {
  pt: { one: '01:00', oneThirty: '01:30', twoAm: '02:00', half: '00:30' },
  fr: { one: '01:00', oneThirty: '01:30', twoAm: '02:00', half: '00:30' },
  de: { one: '01:00', oneThirty: '01:30', twoAm: '02:00', half: '00:30' },
  sk: { one: '01:00', oneThirty: '01:30', twoAm: '02:00', half: '00:30' },
  en: { one: '1:00 am', oneThirty: '1:30 am', twoAm: '2:00 am', half: '12:30 am' },
};

// Intl writes a 12-hour clock's day period after a narrow no-break space in some ICU versions.
const spaces = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');
const clock = (locale: Locale, iso: string, zone = LISBON) => spaces(formatLocalClock(locale, zone, at(iso)));

describe('a time in the hour the clocks go back', () => {
  it.each(LOCALES)(
    'carries its UTC offset in %s, the first 01:00 at UTC+1 and the second at UTC+0',
    (locale) => {
      const { one, oneThirty } = CLOCKS[locale];
      // 01:00 summer time (UTC+1) is 00:00Z; an hour later the clocks show 01:00 again, winter time (UTC+0).
      expect(clock(locale, '2026-10-25T00:00:00Z')).toBe(`${one} (UTC+1)`);
      expect(clock(locale, '2026-10-25T00:30:00Z')).toBe(`${oneThirty} (UTC+1)`);
      expect(clock(locale, '2026-10-25T01:00:00Z')).toBe(`${one} (UTC+0)`);
      expect(clock(locale, '2026-10-25T01:30:00Z')).toBe(`${oneThirty} (UTC+0)`);
    },
  );

  it.each(LOCALES)(
    'leaves every other time as it was in %s, on that day and on the day clocks go forward',
    (locale) => {
      const { twoAm, half } = CLOCKS[locale];
      expect(clock(locale, '2026-10-24T23:30:00Z')).toBe(half);
      expect(clock(locale, '2026-10-25T02:00:00Z')).toBe(twoAm);
      expect(clock(locale, '2026-07-01T01:00:00Z')).toBe(twoAm);
      // 01:00 does not happen on 29 March; the instant after 00:59 is 02:00 (UTC+1), said once.
      expect(clock(locale, '2026-03-29T01:00:00Z')).toBe(twoAm);
      expect(clock(locale, '2026-03-29T00:30:00Z')).toBe(half);
    },
  );

  it('writes the offset of other zones, negative and with minutes, the same way', () => {
    // New York goes back at 02:00 on 1 November 2026: 01:30 happens at UTC-4, then at UTC-5.
    expect(clock('en', '2026-11-01T05:30:00Z', 'America/New_York')).toBe('1:30 am (UTC-4)');
    expect(clock('en', '2026-11-01T06:30:00Z', 'America/New_York')).toBe('1:30 am (UTC-5)');
    // Lord Howe Island moves half an hour: 01:45 happens at UTC+11, then at UTC+10:30.
    expect(clock('de', '2026-04-04T14:45:00Z', 'Australia/Lord_Howe')).toBe('01:45 (UTC+11)');
    expect(clock('de', '2026-04-04T15:15:00Z', 'Australia/Lord_Howe')).toBe('01:45 (UTC+10:30)');
  });

  it('tells the two ends of a one-hour slot at 01:00 apart in a slot’s description', () => {
    const slot = (locale: Locale) =>
      spaces(describeSlotTime(locale, LISBON, at('2026-10-25T00:00:00Z'), at('2026-10-25T01:00:00Z')));
    expect(slot('pt')).toBe('domingo, 25 de outubro de 2026, 01:00 (UTC+1)–01:00 (UTC+0) (Europe/Lisbon)');
    expect(slot('en')).toBe('Sunday, 25 October 2026, 1:00 am (UTC+1)–1:00 am (UTC+0) (Europe/Lisbon)');
    expect(slot('de')).toBe('Sonntag, 25. Oktober 2026, 01:00 (UTC+1)–01:00 (UTC+0) (Europe/Lisbon)');
    // The next slot starts in the repeated hour and ends after it.
    expect(
      spaces(describeSlotTime('fr', LISBON, at('2026-10-25T01:00:00Z'), at('2026-10-25T02:00:00Z'))),
    ).toBe('dimanche 25 octobre 2026, 01:00 (UTC+0)–02:00 (Europe/Lisbon)');
  });

  it('marks the door code’s window and bookings in the door-code message, e-mail and SMS alike', () => {
    const message = accessCodeMessage(
      {
        locale: 'sk',
        firstName: 'Ján',
        branch: { name: 'Lisboa', location: 'Avenidas Novas', timeZone: LISBON },
        code: '482913',
        validFrom: at('2026-10-25T00:15:00Z'),
        validUntil: at('2026-10-25T01:15:00Z'),
        slots: [{ start: at('2026-10-25T00:30:00Z'), end: at('2026-10-25T01:00:00Z') }],
        publicUrl: 'https://gym.example',
      },
      'Private Gym',
    );
    // "od" takes the genitive: od nedele (Sunday), not od nedeľa.
    expect(message.text).toContain('od nedele 25. októbra 2026, 01:15 (UTC+1) do 01:15 (UTC+0)');
    expect(message.text).toContain('- nedeľa 25. októbra 2026, 01:30 (UTC+1)–01:00 (UTC+0) (Europe/Lisbon)');
    expect(message.html).toContain('01:30 (UTC+1)–01:00 (UTC+0)');
    expect(message.sms).toContain('01:15 (UTC+1) do 01:15 (UTC+0)');
  });
});

// An app on a fresh database, a registration and a payment: well over 30 s with PGlite on a loaded machine.
describe.each(DATABASE_TARGETS)(
  'the confirmation e-mail of a booking in the repeated hour, on %s',
  { timeout: 90_000 },
  (target) => {
    it('gives the slot’s start and end their two offsets', async () => {
      const smtp = await startSmtpServer();
      const server = await startAccountApp(
        target,
        { SMTP_URL: smtp.url },
        fixedClock('2026-10-20T10:00:00Z'),
      );
      try {
        const branchId = await createBranch(server.app.db);
        // 01:00 the first time round (summer time) for an hour: it ends at 01:00 the second time round.
        const slot = await lisbonSlot(server.app.db, branchId, '2026-10-25T01:00');
        const client = newClient(server.app);
        const account = await verifiedAccount(client, server.app, { locale: 'en' });
        await bookAndPayOverHttp(client, account.token, slot);
        await server.app.outboxWorker.runOnce();

        const confirmation = smtp.received.find((mail) => mail.attachments.length > 0);
        expect(confirmation?.to).toEqual([account.email]);
        const when = 'Sunday, 25 October 2026, 1:00 am (UTC+1)–1:00 am (UTC+0) (Europe/Lisbon)';
        expect(spaces(confirmation!.text)).toContain(when);
        expect(spaces(confirmation!.html)).toContain(when);
        // The calendar file states instants, which were never ambiguous.
        expect(confirmation!.attachments[0]?.content).toContain('DTSTART:20261025T000000Z');
        expect(confirmation!.attachments[0]?.content).toContain('DTEND:20261025T010000Z');
      } finally {
        await server.close();
        await smtp.close();
      }
    });
  },
);
