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
// - a member's checkout sessions (their history, erasure, a member's export), which had no index.

const statements = [
  `create index bookings_by_branch_start on bookings (branch_id, start_time)`,
  `create index bookings_by_start on bookings (start_time, id)`,
  `create index bookings_by_lock_code on bookings (lock_code_id) where lock_code_id is not null`,
  `create index checkout_sessions_by_user on checkout_sessions (user_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `drop index checkout_sessions_by_user; drop index bookings_by_lock_code; drop index bookings_by_start;
        drop index bookings_by_branch_start`,
    )
    .execute(db);
}
