import { sql, type Kysely } from 'kysely';

// The door-code message goes out once per booking, ever: the job that sends it marks every booking its
// message covers (a run of back-to-back bookings shares one code and one message) in the same transaction
// as the outbox rows, so a repeated or concurrent run finds nothing left to send.

export async function up(db: Kysely<unknown>): Promise<void> {
  // `access_code_sent_for` is the lock code the message named: a booking whose code is later replaced (a
  // cancelled booking split its run) has not been told its new code.
  await sql
    .raw(
      `alter table bookings add column access_code_sent_at timestamptz, add column access_code_sent_for bigint`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`alter table bookings drop column access_code_sent_at, drop column access_code_sent_for`)
    .execute(db);
}
