import { sql, type Kysely } from 'kysely';

// Weekly series (issue 31, item 1): a member books the same slot for several weeks in one checkout. Each week is a
// booking of its own (its price, refund policy, door code and cancellation); the series ties them together so My
// bookings shows them as one group and the console lists them. A series holds no personal data: its member is its
// bookings' (anonymised with them when the account is deleted).

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create table booking_series (
        id integer generated always as identity primary key,
        branch_id integer not null references branches (id),
        -- The branch-local weekday (ISO, 1 Monday) and time of day every week starts at, whatever the offset.
        iso_weekday smallint not null check (iso_weekday between 1 and 7),
        local_time text not null check (local_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
        created_at timestamptz not null default now()
      )`,
    )
    .execute(db);
  await sql
    .raw(`alter table bookings add column series_id integer references booking_series (id)`)
    .execute(db);
  await sql
    .raw(`create index bookings_series_id on bookings (series_id) where series_id is not null`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`alter table bookings drop column series_id`).execute(db);
  await sql.raw(`drop table booking_series`).execute(db);
}
