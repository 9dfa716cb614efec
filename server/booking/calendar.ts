import ical, {
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalCalendarMethod,
  ICalEventStatus,
} from 'ical-generator';
import type { Temporal } from 'temporal-polyfill';
import type { OutboxAttachment } from '../db/schema.ts';
import { type Locale, type Message, translator } from '../kernel/i18n.ts';
import { describeSlotTime } from '../kernel/time-format.ts';

// A booking's calendar event, the one place it is built (docs/decisions.md, 'Messages about a booking'). The
// confirmation sends it with METHOD:REQUEST and SEQUENCE 0; every later change of the booking (a cancellation,
// a move) sends the same UID with the booking's raised `calendar_sequence`, so the member's calendar updates or
// removes the event it already has instead of adding another. Times are instants (UTC): no calendar can place
// them in the wrong zone. The door code is never in it: it is sent 30 minutes before the start.

/** REQUEST creates or updates the event; CANCEL removes it. */
export type CalendarMethod = 'REQUEST' | 'CANCEL';

export type CalendarBooking = {
  bookingId: number;
  /** The booking's `calendar_sequence` for this message (0 in the confirmation). */
  sequence: number;
  start: Temporal.Instant;
  end: Temporal.Instant;
};

export type CalendarInput = {
  method: CalendarMethod;
  locale: Locale;
  branch: { name: string; location: string; timeZone: string };
  bookings: readonly CalendarBooking[];
  /** The sender of the e-mail (ORGANIZER) and the member (ATTENDEE), as iTIP wants for REQUEST and CANCEL. */
  organizer: { name: string; email: string };
  attendeeEmail: string;
  publicUrl: string;
  now: Temporal.Instant;
};

const TEXTS = {
  event: /*i18n*/ { id: 'calendar.event', message: 'Ginásio privado: {branch}' },
  code: /*i18n*/ {
    id: 'calendar.code',
    message: 'Receberá o código da porta por e-mail e SMS 30 minutos antes do início.',
  },
  cancelled: /*i18n*/ { id: 'calendar.cancelled', message: 'Reserva cancelada.' },
} as const satisfies Record<string, Message>;

/** The event's identity for its whole life: every message about this booking names it. */
export function bookingEventUid(bookingId: number, publicUrl: string): string {
  return `booking-${bookingId}@${new URL(publicUrl).host}`;
}

/** `"Private Gym" <no-reply@gym.example>` or a bare address: the ORGANIZER of the events. */
export function organizerFromMailFrom(
  mailFrom: string,
  fallbackName: string,
): { name: string; email: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(mailFrom);
  if (match) return { name: match[1]!.trim() || fallbackName, email: match[2]!.trim() };
  return { name: fallbackName, email: mailFrom.trim() };
}

/** The iCalendar text (RFC 5545/5546) of one message about these bookings. */
export function bookingCalendar(input: CalendarInput): string {
  const t = translator(input.locale);
  const cancel = input.method === 'CANCEL';
  const calendar = ical({
    prodId: { company: 'Private Gym', product: 'Bookings', language: 'EN' },
    method: cancel ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  for (const booking of input.bookings) {
    const when = describeSlotTime(input.locale, input.branch.timeZone, booking.start, booking.end);
    calendar.createEvent({
      id: bookingEventUid(booking.bookingId, input.publicUrl),
      sequence: booking.sequence,
      stamp: new Date(input.now.epochMilliseconds),
      start: new Date(booking.start.epochMilliseconds),
      end: new Date(booking.end.epochMilliseconds),
      summary: t(TEXTS.event, { branch: input.branch.name }),
      location: input.branch.location,
      description: cancel ? `${t(TEXTS.cancelled)}\n${when}` : `${when}\n${t(TEXTS.code)}`,
      status: cancel ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      organizer: input.organizer,
      attendees: [
        {
          email: input.attendeeEmail,
          role: ICalAttendeeRole.REQ,
          status: cancel ? null : ICalAttendeeStatus.ACCEPTED,
          rsvp: false,
        },
      ],
    });
  }
  return calendar.toString();
}

/**
 * The e-mail's calendar attachments: one per booking, each carrying `bookingCalendar` of that booking alone (a
 * scheduling message with several UIDs is not what calendar clients expect: most import its first event only).
 * The MIME type names the method, as iMIP asks. One booking: `booking.ics` (`cancel.ics`); several, numbered in
 * the order given: `booking-1.ics`, `booking-2.ics`...
 */
export function bookingCalendarAttachments(input: CalendarInput): OutboxAttachment[] {
  const name = input.method === 'CANCEL' ? 'cancel' : 'booking';
  return input.bookings.map((booking, index) => ({
    filename: input.bookings.length === 1 ? `${name}.ics` : `${name}-${index + 1}.ics`,
    contentType: `text/calendar; charset=utf-8; method=${input.method}`,
    content: bookingCalendar({ ...input, bookings: [booking] }),
  }));
}
