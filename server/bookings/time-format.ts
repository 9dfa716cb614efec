import type { Temporal } from 'temporal-polyfill';
import { INTL_LOCALES, type Locale } from '../i18n.ts';

// How messages state a booking's time: in the branch's own zone, with the zone named.

function formatter(locale: Locale, timeZone: string, options: Intl.DateTimeFormatOptions) {
  // English is the one 12-hour locale of the product (docs/decisions.md: Dates).
  return new Intl.DateTimeFormat(INTL_LOCALES[locale], { ...options, timeZone, hour12: locale === 'en' });
}

/** '9:00 pm' in English, '09:00' elsewhere: the app's clock (src/i18n/format.ts clockOptions), spelled out. */
function clockOptions(locale: Locale): Intl.DateTimeFormatOptions {
  return { hour: locale === 'en' ? 'numeric' : '2-digit', minute: '2-digit' };
}

/** 'sexta, 27 de março de 2026' style: the branch-local day of an instant. */
export function formatLocalDay(locale: Locale, timeZone: string, instant: Temporal.Instant): string {
  return formatter(locale, timeZone, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(instant.epochMilliseconds);
}

export function formatLocalClock(locale: Locale, timeZone: string, instant: Temporal.Instant): string {
  return formatter(locale, timeZone, clockOptions(locale)).format(instant.epochMilliseconds);
}

/** 'sexta, 27 de março de 2026, 10:00–11:00 (Europe/Lisbon)'. */
export function describeSlotTime(
  locale: Locale,
  timeZone: string,
  start: Temporal.Instant,
  end: Temporal.Instant,
): string {
  const range = `${formatLocalClock(locale, timeZone, start)}–${formatLocalClock(locale, timeZone, end)}`;
  return `${formatLocalDay(locale, timeZone, start)}, ${range} (${timeZone})`;
}
