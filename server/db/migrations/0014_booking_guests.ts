import { sql, type Kysely } from 'kysely';

// A door code for every guest (issue 31, item 4). A member adds guests to an active booking, up to the branch's
// limit (`branches.guest_limit`); each guest gets a code of their own (a `lock_codes` row of the branch, programmed
// on its doors for the booking's window like the member's). A guest's code opens the door only while the guest is
// on the booking (`removed_at` null) and the booking is confirmed: removing the guest, cancelling or moving the
// booking releases it as a booking's code is released. The guest's contact is deleted with the member's account.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `alter table branches add column guest_limit smallint not null default 4 check (guest_limit between 0 and 20)`,
    )
    .execute(db);
  await sql
    .raw(
      `create table booking_guests (
        id integer generated always as identity primary key,
        booking_id integer not null references bookings (id),
        name text not null check (length(name) between 1 and 80),
        email text check (email is null or length(email) <= 254),
        phone_number text check (phone_number is null or length(phone_number) <= 20),
        -- The guest's code while they have one (null once removed, or the booking ended or was cancelled).
        lock_code_id integer references lock_codes (id),
        created_at timestamptz not null default now(),
        removed_at timestamptz,
        -- The guest's first opening of the door with their code, inside the booking's window.
        entered_at timestamptz,
        -- An account's deletion forgets its guests' names and contacts.
        forgotten_at timestamptz,
        check (forgotten_at is not null or email is not null or phone_number is not null)
      )`,
    )
    .execute(db);
  await sql.raw(`create index booking_guests_booking_id on booking_guests (booking_id)`).execute(db);
  await sql
    .raw(
      `create index booking_guests_lock_code_id on booking_guests (lock_code_id) where lock_code_id is not null`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`drop table booking_guests`).execute(db);
  await sql.raw(`alter table branches drop column guest_limit`).execute(db);
}
