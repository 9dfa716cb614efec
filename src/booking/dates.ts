import { temporal } from '../../machines/temporal.ts';
import { dateTimeFormat } from '../i18n/format.ts';
import type { Locale } from '../i18n/locales.ts';

// Calendar dates (yyyy-MM-dd) are the branch's; formatting them at UTC noon keeps them that day anywhere.
function utcNoon(date: string): Date {
  return new Date(`${date}T12:00:00Z`);
}

export function formatMonth(month: string, locale: Locale): string {
  return dateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    utcNoon(`${month}-01`),
  );
}

export function formatDay(date: string, locale: Locale): string {
  return dateTimeFormat(locale, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(utcNoon(date));
}

/** A day in a list: short weekday, day and month ('qui., 27/11', 'Thu 27 Nov'). */
export function formatShortDay(date: string, locale: Locale): string {
  return dateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    utcNoon(date),
  );
}

/**
 * Monday to Sunday, short names (2026-06-01 is a Monday). Portuguese's "short" names are the whole names
 * ('segunda', 'domingo'), too wide for a phone's calendar: a name longer than four letters is cut to its first
 * three, as Portuguese abbreviates them ('seg', 'dom'); the long name stays the abbreviation's title.
 */
export function weekdayNames(locale: Locale): { short: string; long: string }[] {
  return Array.from({ length: 7 }, (_, index) => {
    const day = utcNoon(`2026-06-0${index + 1}`);
    const short = dateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(day);
    return {
      short: short.length > 4 ? short.slice(0, 3) : short,
      long: dateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(day),
    };
  });
}

export function deviceTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Today (yyyy-MM-dd) in a branch's `timeZone` by the device's clock: where a calendar opens until the branch's local time is known. */
export function todayIn(timeZone: string): string {
  return temporal().Now.plainDateISO(timeZone).toString();
}
