import { Temporal } from 'temporal-polyfill';
import { inAcceptedYears } from '../kernel/clock.ts';
import { AppError } from '../kernel/errors.ts';
import { translate, type Message } from '../kernel/i18n.ts';
import type { BookingPosition } from './repository.ts';

// The bookings list's cursors (issue 33): a place in the list, newest start first, handed out as `next` and
// `previous` and read back from `after` and `before`. A cursor is a place, not a permission: the search's filters
// and the caller's branches are applied again on every page, so any well-formed place is a fair question.

/** What a cursor holds, base64url-encoded: the start to the microsecond (UTC) and the booking's id. */
const CURSOR_TEXT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)_(\d{1,10})$/;
const LARGEST_ID = 2_147_483_647;

const notACursor: Message = /*i18n*/ {
  id: 'validation.notACursor',
  message: '«{field}» não é um lugar desta lista: use o «next» ou o «previous» de uma resposta',
};
const cursorsTogether: Message = /*i18n*/ {
  id: 'validation.cursorsTogether',
  message: '«after» e «before» não podem ser pedidos juntos',
};

/** The cursor that names a place. */
export function bookingCursor(position: BookingPosition): string {
  return Buffer.from(`${position.startTime}_${position.id}`, 'utf8').toString('base64url');
}

function refused(field: string): AppError {
  return new AppError(
    'validation_failed',
    { problems: (locale) => translate(locale, notACursor, { field }) },
    { fields: [{ field, problem: 'format' }] },
  );
}

/**
 * The place a cursor names; `validation_failed` (422) naming the parameter when it is not one this list hands out
 * (not base64url, another shape, an instant that does not exist or lies outside the accepted years, an id past
 * the column's range).
 */
export function readBookingCursor(cursor: string, field: string): BookingPosition {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = CURSOR_TEXT.exec(text);
  // Decoding forgives stray characters and padding: only the cursor's own spelling of the place is accepted.
  if (!match || bookingCursor({ startTime: match[1]!, id: Number(match[2]) }) !== cursor)
    throw refused(field);
  const id = Number(match[2]);
  try {
    // Temporal refuses the 30th of February and the 25th hour that PostgreSQL's cast would also refuse (a 500).
    Temporal.Instant.from(match[1]!);
  } catch {
    throw refused(field);
  }
  if (!inAcceptedYears(match[1]!) || id < 1 || id > LARGEST_ID) throw refused(field);
  return { startTime: match[1]!, id };
}

/** The places `after` and `before` name, at most one of them. */
export function readBookingCursors(query: { after?: string; before?: string }): {
  after?: BookingPosition;
  before?: BookingPosition;
} {
  if (query.after !== undefined && query.before !== undefined) {
    throw new AppError(
      'validation_failed',
      { problems: (locale) => translate(locale, cursorsTogether) },
      { fields: [{ field: 'before', problem: 'not_allowed' }] },
    );
  }
  if (query.after !== undefined) return { after: readBookingCursor(query.after, 'after') };
  if (query.before !== undefined) return { before: readBookingCursor(query.before, 'before') };
  return {};
}
