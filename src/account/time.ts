import { temporal, type Temporal } from '../../machines/temporal.ts';
import { clockOptions, intlTag } from '../i18n/format.ts';
import type { Locale } from '../i18n/locales.ts';

/** A time of a branch, in the branch's IANA zone (the API's offset is kept when the zone is unknown). */
function zoned(iso: string, timeZone: string): Temporal.ZonedDateTime {
  const instant = temporal().Instant.from(iso);
  try {
    return instant.toZonedDateTimeISO(timeZone);
  } catch {
    const offset = /([+-]\d{2}:\d{2}|Z)$/.exec(iso)?.[1] ?? 'UTC';
    return instant.toZonedDateTimeISO(offset === 'Z' ? 'UTC' : offset);
  }
}

/** Spec 9 'long': short weekday, day, long month, year, hour:minute. */
export function longDateTime(iso: string, timeZone: string, locale: Locale): string {
  return zoned(iso, timeZone).toLocaleString(intlTag(locale), {
    weekday: 'short',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    ...clockOptions(locale),
  });
}

export function timeOnly(iso: string, timeZone: string, locale: Locale): string {
  return zoned(iso, timeZone).toLocaleString(intlTag(locale), {
    ...clockOptions(locale),
  });
}

/** 'start - end': the end as a time only when both fall on the same local day. */
export function timeRange(start: string, end: string, timeZone: string, locale: Locale): string {
  const sameDay = zoned(start, timeZone).toPlainDate().equals(zoned(end, timeZone).toPlainDate());
  return `${longDateTime(start, timeZone, locale)} - ${
    sameDay ? timeOnly(end, timeZone, locale) : longDateTime(end, timeZone, locale)
  }`;
}
