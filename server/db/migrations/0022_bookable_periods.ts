import { sql, type Kysely } from 'kysely';

// When each branch took bookings (issue 32, item 6: occupancy counts only the hours a branch was bookable). Slots
// are generated for every branch, bookable or not (a branch "opening soon" has its calendar ready), so the slots
// alone cannot say whether an hour was open to members: a not-yet-open branch counted as open around the clock.
// A period starts when the branch is made bookable and ends when it is made unbookable; one period at most is
// open (`ends_at` null) per branch. A branch bookable before this migration, or created bookable, is bookable
// since it exists ('-infinity': no slot of it is older than the branch).

const statements = [
  `create table branch_bookable_periods (
    id integer generated always as identity primary key,
    branch_id integer not null references branches (id) on delete cascade,
    starts_at timestamptz not null,
    ends_at timestamptz,
    constraint branch_bookable_periods_order check (ends_at is null or ends_at >= starts_at)
  )`,
  `create unique index branch_bookable_periods_one_open on branch_bookable_periods (branch_id) where ends_at is null`,
  `create index branch_bookable_periods_by_branch on branch_bookable_periods (branch_id, starts_at)`,
  `insert into branch_bookable_periods (branch_id, starts_at)
    select id, '-infinity' from branches where active_with_smart_lock`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`drop table branch_bookable_periods`).execute(db);
}
