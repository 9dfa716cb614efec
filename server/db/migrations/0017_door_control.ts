import { sql, type Kysely } from 'kysely';

// Live door control (issue 32, item 1). An operator opens a door remotely for a member stuck outside: each
// request is one attempt, kept with its reason and outcome (the audit log has the same, with the operator), and
// its request id is unique, so a replayed or double-clicked request answers the first attempt instead of opening
// the door again. Each branch has an on-call e-mail and phone for its door alerts (OPERATOR_EMAIL when none).

const statements = [
  `create table door_unlocks (
    id integer generated always as identity primary key,
    -- Chosen by the console for one press of 'Open now': the same id again is the same attempt.
    request_id uuid not null unique,
    branch_id integer not null references branches (id),
    device_id text not null,
    operator_id integer references operators (id),
    operator_email text not null,
    reason text not null check (length(btrim(reason)) between 1 and 500),
    -- 'opening' while the lock is being asked; then what it answered.
    outcome text not null default 'opening' check (outcome in ('opening', 'opened', 'offline', 'failed')),
    error text check (error is null or length(error) <= 300),
    requested_at timestamptz not null,
    finished_at timestamptz,
    constraint door_unlocks_finished check ((outcome = 'opening') = (finished_at is null))
  )`,
  `create index door_unlocks_by_branch on door_unlocks (branch_id, requested_at desc)`,
  `create index lock_events_by_device on lock_events (device_id, occurred_at desc)`,
  `alter table branches add column on_call_email text check (on_call_email is null or length(on_call_email) between 3 and 254)`,
  `alter table branches add column on_call_phone text check (on_call_phone is null or length(on_call_phone) between 5 and 20)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
