import { sql, type Kysely } from 'kysely';

// The indexes the console's query plans ask for on a real business's data (issue 33, "Speed at scale": 1,000,000
// bookings, bench/seed-large.ts; the plans before and after are in bench/plans):
// - a branch's bookings by start: the today view reads one branch's local day as a range of start times, and
//   the door-code and reminder jobs read a branch's coming bookings; without it every day scans all the
//   branch's bookings;
// - every booking by start: the bookings list's order (start, id, newest first), so a page is read from the index
//   rather than sorting every booking (and working out each one's member's block) to keep 50;
// - the bookings of a door code: the door-code jobs find the bookings a code opens the door for, which walked
//   every booking (only bookings given a code are in the index);
// - a member's checkout sessions (their history, erasure, a member's export), which had no index;
// - trigrams of a member's e-mail, phone number and name, for the searches by a fragment of them (members, and
//   bookings by their member), which read every member: pg_trgm, in PostgreSQL's contrib (a trusted extension
//   since PostgreSQL 13: a database owner may create it) and in PGlite's (loaded in server/db/database.ts);
// - the booking ids an outbox message's dedupe key names (`booking_confirmed:12,13`, `access_code:sms:12:…`,
//   `booking_moved:12:1`…), as text, for a booking's page: its messages were found by a regular expression over
//   every message. Text, never cast to a number, so no key can make an insert fail.

const statements = [
  `create index bookings_by_branch_start on bookings (branch_id, start_time)`,
  `create index bookings_by_start on bookings (start_time, id)`,
  `create index bookings_by_lock_code on bookings (lock_code_id) where lock_code_id is not null`,
  `create index checkout_sessions_by_user on checkout_sessions (user_id)`,
  `create extension if not exists pg_trgm`,
  // The expressions the searches match with ILIKE (server/console/repository.ts).
  `create index users_email_trigrams on users using gin (email gin_trgm_ops)`,
  `create index users_phone_number_trigrams on users using gin (phone_number gin_trgm_ops)`,
  `create index users_name_trigrams on users using gin ((first_name || ' ' || last_name) gin_trgm_ops)`,
  // The same expression as messagesOfBooking's (server/console/repository.ts), or the index goes unused.
  `create index outbox_by_booking_ids on outbox using gin
    ((string_to_array(substring(dedupe_key from '^[a-z_]+:(?:(?:email|sms):)?([0-9]+(?:,[0-9]+)*)'), ',')))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** Its indexes, newest first; pg_trgm stays (dropping an extension is not this migration's to undo). */
const createdIndexes = [
  'outbox_by_booking_ids',
  'users_name_trigrams',
  'users_phone_number_trigrams',
  'users_email_trigrams',
  'checkout_sessions_by_user',
  'bookings_by_lock_code',
  'bookings_by_start',
  'bookings_by_branch_start',
];

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of createdIndexes) await sql.raw(`drop index ${index}`).execute(db);
}
