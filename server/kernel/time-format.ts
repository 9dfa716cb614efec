import type { Temporal } from 'temporal-polyfill';
import { INTL_LOCALES, translate, type Locale } from './i18n.ts';

// How messages state a booking's time: in the branch's own zone, with the zone named.

function formatter(locale: Locale, timeZone: string, options: Intl.DateTimeFormatOptions) {
  // English is the one 12-hour locale of the product (docs/decisions.md: Dates).
  return new Intl.DateTimeFormat(INTL_LOCALES[locale], { ...options, timeZone, hour12: locale === 'en' });
}

/** '9:00 pm' in English, '09:00' elsewhere: the app's clock (src/i18n/format.ts clockOptions), spelled out. */
function clockOptions(locale: Locale): Intl.DateTimeFormatOptions {
  return { hour: locale === 'en' ? 'numeric' : '2-digit', minute: '2-digit' };
}

/**
 * The case a day takes where a sentence puts it: Intl writes the weekday in the nominative, but Slovak says
 * "od štvrtka" (genitive, after od/do) and "na štvrtok" (accusative, after na).
 */
export type GrammaticalCase = 'nominative' | 'genitive' | 'accusative';

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

const weekdayInCase = /*i18n*/ {
  id: 'time.weekdayInCase',
  message: '{name}',
  comment:
    "The weekday of a date in the case a sentence needs ({case}: genitive or accusative), {weekday} being mon to sun; {name} is Intl's nominative form.",
};

/** 'sexta, 27 de março de 2026' style: the branch-local day of an instant, its weekday in the case given. */
export function formatLocalDay(
  locale: Locale,
  timeZone: string,
  instant: Temporal.Instant,
  grammaticalCase: GrammaticalCase = 'nominative',
): string {
  const parts = formatter(locale, timeZone, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).formatToParts(instant.epochMilliseconds);
  const weekday = WEEKDAYS[instant.toZonedDateTimeISO(timeZone).dayOfWeek - 1]!;
  return parts
    .map((part) =>
      part.type === 'weekday' && grammaticalCase !== 'nominative'
        ? translate(locale, weekdayInCase, { case: grammaticalCase, weekday, name: part.value })
        : part.value,
    )
    .join('');
}

/** '+01:00' as 'UTC+1', '+00:00' as 'UTC+0', '-03:30' as 'UTC-3:30'. */
function utcOffsetText(offset: string): string {
  const [, sign, hours, minutes] = /^([+-])(\d{2}):(\d{2})/.exec(offset) ?? ['', '+', '00', '00'];
  return `UTC${sign}${Number(hours)}${minutes === '00' ? '' : `:${minutes}`}`;
}

/**
 * The instant's UTC offset when its wall-clock time happens twice that day in the zone (the hour the clocks go
 * back: Lisbon's 01:00–01:59 on the last Sunday of October), otherwise null.
 */
function repeatedHourOffset(timeZone: string, instant: Temporal.Instant): string | null {
  const local = instant.toZonedDateTimeISO(timeZone);
  const wallClock = local.toPlainDateTime();
  const first = wallClock.toZonedDateTime(timeZone, { disambiguation: 'earlier' });
  const second = wallClock.toZonedDateTime(timeZone, { disambiguation: 'later' });
  // A wall clock read off a real instant is never in a skipped hour, so two readings mean a repeated one.
  return first.epochNanoseconds === second.epochNanoseconds ? null : utcOffsetText(local.offset);
}

/**
 * The local time of an instant on the language's clock; in the repeated hour of a fall-back day with its
 * offset, '01:00 (UTC+1)' then '01:00 (UTC+0)', so the two are told apart. The offset is spelled 'UTC±h' in
 * every language (docs/decisions.md, issue 26): Intl's 'shortOffset' writes 'GMT+1' in four of the five and
 * 'UTC+1' in French, and its zero offset changes with the ICU version.
 */
export function formatLocalClock(locale: Locale, timeZone: string, instant: Temporal.Instant): string {
  const clock = formatter(locale, timeZone, clockOptions(locale)).format(instant.epochMilliseconds);
  const offset = repeatedHourOffset(timeZone, instant);
  return offset ? `${clock} (${offset})` : clock;
}

/** 'sexta, 27 de março de 2026, 10:00–11:00 (Europe/Lisbon)'. */
export function describeSlotTime(
  locale: Locale,
  timeZone: string,
  start: Temporal.Instant,
  end: Temporal.Instant,
  grammaticalCase: GrammaticalCase = 'nominative',
): string {
  const range = `${formatLocalClock(locale, timeZone, start)}–${formatLocalClock(locale, timeZone, end)}`;
  return `${formatLocalDay(locale, timeZone, start, grammaticalCase)}, ${range} (${timeZone})`;
}
