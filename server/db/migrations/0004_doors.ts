import { sql, type Kysely } from 'kysely';

// Doors that really open: each branch lists its lock devices; each code is tracked per door through its
// lifecycle (pending → programming → set → revoking → revoked, or failed with the provider's error); door and
// device events are kept once each (a webhook may come twice, and the catch-up reads them again); a booking
// records its first entry, a no-show and an overstay.

const statements = [
  // Seam device ids of the branch's doors, in order. Empty: the local provider's virtual door (or, with Seam,
  // a branch whose codes cannot be programmed until an operator maps its doors).
  `alter table branches add column lock_device_ids text[] not null default '{}'`,

  `create table lock_code_doors (
    lock_code_id integer not null references lock_codes (id),
    device_id text not null,
    state text not null default 'pending'
      check (state in ('pending', 'programming', 'set', 'revoking', 'revoked', 'failed')),
    -- The provider's id of the code on this door (Seam's access_code_id), once created there.
    provider_code_id text,
    -- The window the door was last asked to honour; differs from the code's after a stretch or a shrink.
    programmed_from timestamptz,
    programmed_until timestamptz,
    error text,
    -- A code from the door's backup pool, pulled when this one was not confirmed in time.
    backup_code text,
    backup_provider_code_id text,
    -- The time of the provider's latest event applied to this row: an older event arriving later is ignored.
    last_event_at timestamptz,
    updated_at timestamptz not null default now(),
    primary key (lock_code_id, device_id)
  )`,
  `create index lock_code_doors_provider_code on lock_code_doors (provider_code_id)`,
  `create index lock_code_doors_unsettled on lock_code_doors (state)
     where state in ('pending', 'programming', 'revoking')`,

  `alter table bookings
     add column checked_in_at timestamptz,
     add column no_show_at timestamptz,
     add column overstay_at timestamptz`,

  `create table lock_events (
    id integer generated always as identity primary key,
    provider_event_id text not null unique,
    event_type text not null,
    device_id text,
    provider_code_id text,
    lock_code_id integer references lock_codes (id),
    booking_id integer references bookings (id),
    occurred_at timestamptz not null,
    created_at timestamptz not null default now()
  )`,
  `create index lock_events_device on lock_events (device_id, occurred_at)`,

  // What the operator needs at a glance about each door, kept from device events and provider reads.
  `create table lock_devices (
    device_id text primary key,
    online boolean,
    battery_level real,
    last_event_type text,
    updated_at timestamptz not null default now()
  )`,

  // The virtual doors' own memory (the local provider): what each door would accept, as a real lock keeps it.
  `create table virtual_door_codes (
    provider_code_id text primary key,
    device_id text not null,
    code text not null,
    starts_at timestamptz not null,
    ends_at timestamptz not null
  )`,
  `create index virtual_door_codes_device on virtual_door_codes (device_id, code)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `drop table virtual_door_codes; drop table lock_devices; drop table lock_events; drop table lock_code_doors;
       alter table bookings drop column checked_in_at, drop column no_show_at, drop column overstay_at;
       alter table branches drop column lock_device_ids`,
    )
    .execute(db);
}
