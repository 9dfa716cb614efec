import { sql, type Kysely } from 'kysely';

// Accounts: abuse counters shared by every server process, live verification codes that can be found by
// their code alone, and an outbox status for messages that were only printed to the log.

const statements = [
  // One row per limited thing (an action by an IP address, or on an account), counting hits in a fixed window.
  // `bucket` is a keyed hash, so the table holds no e-mail addresses, phone numbers or IP addresses.
  `create table rate_limit_counters (
    bucket text primary key,
    window_start timestamptz not null,
    hits integer not null check (hits >= 0)
  )`,
  `create index rate_limit_counters_by_window on rate_limit_counters (window_start)`,

  // The confirm calls carry only the code, so a live code must be unique within its channel: it names the
  // account by itself. Codes are replaced (consumed) rather than deleted, hence the partial index.
  `create unique index verification_codes_live_unique on verification_codes (channel, code_hash)
    where consumed_at is null`,

  // 'logged': no e-mail or SMS provider was configured, so the message was printed to the log instead.
  `alter table outbox drop constraint outbox_status_check`,
  `alter table outbox add constraint outbox_status_check check (status in ('pending', 'sent', 'logged', 'failed'))`,
  `create index outbox_by_created on outbox (created_at desc, id desc)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`drop index if exists outbox_by_created`).execute(db);
  await sql.raw(`update outbox set status = 'sent' where status = 'logged'`).execute(db);
  await sql.raw(`alter table outbox drop constraint outbox_status_check`).execute(db);
  await sql
    .raw(
      `alter table outbox add constraint outbox_status_check check (status in ('pending', 'sent', 'failed'))`,
    )
    .execute(db);
  await sql.raw(`drop index if exists verification_codes_live_unique`).execute(db);
  await sql.raw(`drop table if exists rate_limit_counters`).execute(db);
}
