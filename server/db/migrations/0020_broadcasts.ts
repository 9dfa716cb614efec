import { sql, type Kysely } from 'kysely';

// Talking to members (issue 32, item 3). A broadcast is one message an operator sends to everyone booked at a
// branch in a period, by e-mail and/or SMS, in each member's language; its messages are outbox rows whose dedupe
// keys name it (`broadcast:<id>:<member>:<channel>`), so their delivery status is read from the outbox. A member
// note is what operators write about a member (why blocked, an incident): operators read them, members never do.

const statements = [
  `create table broadcasts (
    id integer generated always as identity primary key,
    -- One press of 'Send' in the console: a replayed or doubly-submitted request finds its broadcast here.
    idempotency_key uuid not null unique,
    branch_id integer not null references branches (id),
    starts_at timestamptz not null,
    ends_at timestamptz not null,
    by_email boolean not null,
    by_sms boolean not null,
    -- The texts by language, as written: {"pt": {"subject": ..., "body": ...}, ...}; pt is always there.
    texts jsonb not null check (jsonb_typeof(texts) = 'object' and texts ? 'pt'),
    recipients integer not null check (recipients >= 0),
    created_at timestamptz not null,
    created_by integer references operators (id),
    created_by_email text not null,
    constraint broadcasts_period check (ends_at > starts_at),
    constraint broadcasts_channel check (by_email or by_sms)
  )`,
  `create index broadcasts_by_created on broadcasts (created_at desc, id desc)`,
  `create table member_notes (
    id integer generated always as identity primary key,
    user_id uuid not null references users (id),
    body text not null check (length(body) between 1 and 2000),
    created_at timestamptz not null,
    created_by integer references operators (id),
    created_by_email text not null
  )`,
  `create index member_notes_by_member on member_notes (user_id, created_at desc, id desc)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of [`drop table member_notes`, `drop table broadcasts`]) {
    await sql.raw(statement).execute(db);
  }
}
