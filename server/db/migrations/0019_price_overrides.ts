import { sql, type Kysely } from 'kysely';

// Prices by date (issue 32, item 5): a branch's price for one date of its own calendar (a holiday, a peak day),
// which wins over the grids that would price that date. Either a whole-day price (`day_price_cents`, no bands) or
// per-hour prices: bands of local wall-clock minutes with their price, the day price for the hours no band covers.
// When it is removed, the date's free slots go back to the grid's price.

const statements = [
  `create table price_overrides (
    branch_id integer not null references branches (id) on delete cascade,
    local_date date not null,
    day_price_cents integer not null check (day_price_cents >= 0),
    -- [{"starts_at_minute": 1080, "ends_at_minute": 1320, "price_cents": 2500}, ...]; the one use case that writes
    -- them checks them as it checks a grid's bands.
    bands jsonb not null default '[]' check (jsonb_typeof(bands) = 'array'),
    created_at timestamptz not null default now(),
    primary key (branch_id, local_date)
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`drop table price_overrides`).execute(db);
}
