import { instantFromDate } from '../kernel/clock.ts';
import type { MessageContextRow } from './repository.ts';

// What every booking message (confirmation, cancellation) says the same way: to whom, about which branch, and
// each booking's times.

/** The member a booking message is written to, in their language, and the branch it is about. */
export function messageAddressee(context: MessageContextRow) {
  return {
    locale: context.locale,
    firstName: context.first_name,
    branch: { name: context.branch_name, location: context.location, timeZone: context.time_zone },
  };
}

/** A booking as a message lists it: its id and its start and end. */
export function messageBookingTimes(row: { id: number; start_time: Date; end_time: Date }) {
  return { bookingId: row.id, start: instantFromDate(row.start_time), end: instantFromDate(row.end_time) };
}
