import { sql, type Kysely } from 'kysely';

// Prices that apply when saved (issue 27): a branch's price grid is its default price with its price rules (the
// grid in force), and a change may be dated. A dated grid waits here until its first day, a date of the branch's
// own calendar: the grid that prices a slot is the latest dated grid starting on or before the slot's local date,
// or else the grid in force. When its first day comes, a dated grid becomes the grid in force and its row goes.
// A slot that a live booking held when its price changed keeps its price and notes the one it takes once free.

const statements = [
  `create table dated_price_grids (
    id integer generated always as identity primary key,
    branch_id integer not null references branches (id) on delete cascade,
    starts_on date not null,
    default_price_cents integer not null check (default_price_cents >= 0),
    -- [{"iso_weekday": 1, "starts_at_minute": 0, "ends_at_minute": 420, "price_cents": 600}, ...], the columns of
    -- price_rules; the one use case that writes them checks them as it checks the grid in force.
    bands jsonb not null check (jsonb_typeof(bands) = 'array'),
    created_at timestamptz not null default now(),
    constraint dated_price_grids_one_per_day unique (branch_id, starts_on)
  )`,
  // The price the grid gives a slot that kept its own because a booking held it; taken when the slot is free.
  `alter table slots add column next_price_cents integer check (next_price_cents >= 0)`,
  `create index slots_with_next_price on slots (id) where next_price_cents is not null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`drop index slots_with_next_price`).execute(db);
  await sql.raw(`alter table slots drop column next_price_cents`).execute(db);
  await sql.raw(`drop table dated_price_grids`).execute(db);
}
