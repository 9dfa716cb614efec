import { clockOptions, dateTimeFormat } from '../i18n/format.ts';
import type { Locale } from '../i18n/locales.ts';

// Times are formatted by the language's cached Intl formatters (src/i18n/format.ts), not by a Temporal conversion
// and `toLocaleString` each: that made a formatter per call, and the booking modal's slot grid formats dozens of
// times as it first renders (issue 33).

/** The wall clock an ISO date-time names in its own offset ('2026-07-01T21:00:00+01:00' -> 21:00), as a UTC Date. */
function ownWallClock(iso: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(iso);
  if (!match) throw new RangeError(`Not an ISO date-time: ${iso}`);
  const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = match
    .slice(1)
    .map((part) => Number(part ?? 0));
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second));
}

/**
 * A time of a branch in the branch's IANA zone; when the device does not know that zone, the wall clock of the
 * API's own offset.
 */
function formatZoned(
  iso: string,
  timeZone: string,
  locale: Locale,
  options: Intl.DateTimeFormatOptions,
): string {
  let format: Intl.DateTimeFormat;
  try {
    format = dateTimeFormat(locale, { ...options, timeZone });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return dateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(ownWallClock(iso));
  }
  return format.format(new Date(iso));
}

/** docs/decisions.md, 'Client': short weekday, day, long month, year, hour:minute. */
export function longDateTime(iso: string, timeZone: string, locale: Locale): string {
  return formatZoned(iso, timeZone, locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    ...clockOptions(locale),
  });
}

/** An instant (epoch ms) as the branch's wall clock shows it, short: 'qui., 3/12, 18:00', 'Thu 3 Dec, 6:00 pm'. */
export function shortDateTime(epochMs: number, timeZone: string, locale: Locale): string {
  return dateTimeFormat(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    ...clockOptions(locale),
    timeZone,
  }).format(epochMs);
}

export function timeOnly(iso: string, timeZone: string, locale: Locale): string {
  return formatZoned(iso, timeZone, locale, clockOptions(locale));
}

/** The calendar day of an ISO date-time in a zone, as digits: equal for two times of the same local day. */
function localDay(iso: string, timeZone: string): string {
  return formatZoned(iso, timeZone, 'en', { year: 'numeric', month: '2-digit', day: '2-digit' });
}

/** 'start - end': the end as a time only when both fall on the same local day. */
export function timeRange(start: string, end: string, timeZone: string, locale: Locale): string {
  const sameDay = localDay(start, timeZone) === localDay(end, timeZone);
  return `${longDateTime(start, timeZone, locale)} - ${
    sameDay ? timeOnly(end, timeZone, locale) : longDateTime(end, timeZone, locale)
  }`;
}

/** A booking's 'start - end' in its branch's time (My bookings, the deletion dialog). */
export function bookingTimeRange(
  booking: { time_slot_data: { start_time: string; end_time: string; branch_data: { time_zone: string } } },
  locale: Locale,
): string {
  const slot = booking.time_slot_data;
  return timeRange(slot.start_time, slot.end_time, slot.branch_data.time_zone, locale);
}

/**
 * A slot's 'start - end' on the language's clock ('9:00 pm - 10:00 pm', '21:00 - 22:00'), as the branch's wall
 * clock shows it: a slot's ISO times carry the branch's offset, so their own digits are that clock, and no device
 * zone gets in.
 */
export function slotTimes(slot: { start_time: string; end_time: string }, locale: Locale): string {
  const clock = dateTimeFormat(locale, { ...clockOptions(locale), timeZone: 'UTC' });
  return `${clock.format(ownWallClock(slot.start_time))} - ${clock.format(ownWallClock(slot.end_time))}`;
}

/**
 * The business's zone: credit (issue 31) is bought and expires by the business's calendar, whichever branch it is
 * spent at (a lot's scope may name several).
 */
const CREDIT_TIME_ZONE = 'Europe/Lisbon';

/** The day of an instant of the wallet (a lot's expiry), e.g. '12 de dezembro de 2026'. */
export function creditDate(iso: string, locale: Locale): string {
  return dateTimeFormat(locale, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: CREDIT_TIME_ZONE,
  }).format(new Date(iso));
}

/** The day and time of a movement of the wallet, short: '12/11/2026, 18:05'. */
export function creditDateTime(iso: string, locale: Locale): string {
  return dateTimeFormat(locale, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    ...clockOptions(locale),
    timeZone: CREDIT_TIME_ZONE,
  }).format(new Date(iso));
}
