import { sql, type Kysely } from 'kysely';

// The operator console (issue 18): operators are not members. Each has a role, an argon2 password set through a
// one-time link, and a TOTP secret; a TOTP step once used is kept, so the same code is refused again. Sessions
// are rows (12 hours, ended by the operator or an owner). Every change an operator (or the back-office CLI)
// makes is an audit row written in the change's own transaction. A closure keeps a branch's slots in a period
// unbookable until it is reopened.

const statements = [
  `create table operators (
    id integer generated always as identity primary key,
    email text not null,
    role text not null check (role in ('owner', 'staff')),
    password_hash text,
    totp_secret text not null,
    locale text not null default 'en' check (locale in ('pt', 'en', 'fr', 'de', 'sk')),
    created_at timestamptz not null default now(),
    removed_at timestamptz,
    constraint operators_email_lower_case check (email = lower(email))
  )`,
  // One live operator per e-mail; a removed one may come back as a new row.
  `create unique index operators_live_email on operators (email) where removed_at is null`,

  `create table operator_setup_tokens (
    id integer generated always as identity primary key,
    operator_id integer not null references operators (id),
    token_hash text not null unique,
    expires_at timestamptz not null,
    used_at timestamptz,
    created_at timestamptz not null default now()
  )`,

  `create table operator_sessions (
    id uuid primary key,
    operator_id integer not null references operators (id),
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    ended_at timestamptz,
    ended_by integer references operators (id),
    ip text not null,
    user_agent text
  )`,
  `create index operator_sessions_live on operator_sessions (operator_id) where ended_at is null`,

  // A TOTP time step (30 s) that logged an operator in; the primary key refuses it a second time.
  `create table operator_totp_steps (
    operator_id integer not null references operators (id),
    step bigint not null,
    used_at timestamptz not null default now(),
    primary key (operator_id, step)
  )`,

  `create table audit_log (
    id integer generated always as identity primary key,
    at timestamptz not null default now(),
    operator_id integer references operators (id),
    operator_email text,
    action text not null,
    entity_type text not null,
    entity_id text not null,
    reason text,
    before jsonb,
    after jsonb
  )`,
  `create index audit_log_at on audit_log (at desc)`,
  `create index audit_log_entity on audit_log (entity_type, entity_id)`,

  `create table branch_closures (
    id integer generated always as identity primary key,
    branch_id integer not null references branches (id),
    starts_at timestamptz not null,
    ends_at timestamptz not null,
    reason text not null,
    created_at timestamptz not null default now(),
    created_by integer references operators (id),
    created_by_email text not null,
    reopened_at timestamptz,
    canceled_booking_ids integer[] not null default '{}',
    constraint branch_closures_period check (ends_at > starts_at)
  )`,
  // Closures in force never overlap at one branch (the console says closure_overlaps).
  `alter table branch_closures add constraint branch_closures_no_overlap
     exclude using gist (branch_id with =, tstzrange(starts_at, ends_at, '[)') with &&)
     where (reopened_at is null)`,

  // Who cancelled a booking and why (a member, an operator, a closure, an account deletion).
  `alter table bookings add column canceled_by text`,
  `alter table refunds add column reason text`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `alter table refunds drop column reason; alter table bookings drop column canceled_by;
       drop table branch_closures; drop table audit_log; drop table operator_totp_steps;
       drop table operator_sessions; drop table operator_setup_tokens; drop table operators`,
    )
    .execute(db);
}
