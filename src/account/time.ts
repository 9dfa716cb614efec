import { temporal, type Temporal } from '../../machines/temporal.ts';
import { clockOptions, dateTimeFormat, intlTag } from '../i18n/format.ts';
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

/** docs/decisions.md, 'Client': short weekday, day, long month, year, hour:minute. */
export function longDateTime(iso: string, timeZone: string, locale: Locale): string {
  return zoned(iso, timeZone).toLocaleString(intlTag(locale), {
    weekday: 'short',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    ...clockOptions(locale),
  });
}

/** An instant (epoch ms) as the branch's wall clock shows it, short: 'qui., 3/12, 18:00', 'Thu 3 Dec, 6:00 pm'. */
export function shortDateTime(epochMs: number, timeZone: string, locale: Locale): string {
  return temporal()
    .Instant.fromEpochMilliseconds(epochMs)
    .toZonedDateTimeISO(timeZone)
    .toLocaleString(intlTag(locale), {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
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

/** A booking's 'start - end' in its branch's time (My bookings, the deletion dialog). */
export function bookingTimeRange(
  booking: { time_slot_data: { start_time: string; end_time: string; branch_data: { time_zone: string } } },
  locale: Locale,
): string {
  const slot = booking.time_slot_data;
  return timeRange(slot.start_time, slot.end_time, slot.branch_data.time_zone, locale);
}

/** The zone of an ISO date-time's own offset ('+01:00', or UTC for 'Z'). */
function ownOffset(iso: string): string {
  const offset = /([+-]\d{2}:\d{2}|Z)$/.exec(iso)?.[1] ?? 'Z';
  return offset === 'Z' ? 'UTC' : offset;
}

/**
 * A slot's 'start - end' on the language's clock ('9:00 pm - 10:00 pm', '21:00 - 22:00'), as the branch's wall
 * clock shows it: a slot's ISO times carry the branch's offset, so no device zone gets in.
 */
export function slotTimes(slot: { start_time: string; end_time: string }, locale: Locale): string {
  const clock = (iso: string) => timeOnly(iso, ownOffset(iso), locale);
  return `${clock(slot.start_time)} - ${clock(slot.end_time)}`;
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
