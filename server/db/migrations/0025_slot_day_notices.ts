import { sql, type Kysely } from 'kysely';

// Notices of what changes a day's slot listing (issue 33, "Speed at scale"; docs/decisions.md, "the slot
// listing's answers kept until they change"). Each server process keeps the slot listing's rows of the days
// members ask for, and forgets a branch's the moment a notice names it. The database sends the notices itself,
// in the transaction that makes the change (NOTIFY is delivered when it commits, and not at all if it rolls
// back), so no code path can change a listing without telling: every change to what the listing reads is one
// notice on the channel `slot_days` whose payload is the branch's id:
// - a booking placed, removed, or changed in what the listing reads (its status, its hold's expiry, its slot);
// - a slot generated, repriced or removed;
// - a closure announced, changed, reopened or removed;
// - a branch's time zone or activation changed, a branch created or removed;
// and a table emptied at once (TRUNCATE, a test's clean slate) is one notice with an empty payload: every branch.
// PostgreSQL folds identical notices of one transaction into one, so a change of many rows sends one per branch.

const CHANNEL = 'slot_days';

const statements = [
  `create function slot_days_notice() returns trigger language plpgsql as $$
    begin
      perform pg_notify('${CHANNEL}', (case when tg_op = 'DELETE' then old.branch_id else new.branch_id end)::text);
      if tg_op = 'UPDATE' and old.branch_id is distinct from new.branch_id then
        perform pg_notify('${CHANNEL}', old.branch_id::text);
      end if;
      return null;
    end
  $$`,
  `create function branch_slot_days_notice() returns trigger language plpgsql as $$
    begin
      perform pg_notify('${CHANNEL}', (case when tg_op = 'DELETE' then old.id else new.id end)::text);
      return null;
    end
  $$`,
  `create function all_slot_days_notice() returns trigger language plpgsql as $$
    begin
      perform pg_notify('${CHANNEL}', '');
      return null;
    end
  $$`,
  `create trigger bookings_slot_days_placed after insert or delete on bookings
    for each row execute function slot_days_notice()`,
  `create trigger bookings_slot_days_changed after update on bookings
    for each row when (
      old.status is distinct from new.status
      or old.hold_expires_at is distinct from new.hold_expires_at
      or old.slot_id is distinct from new.slot_id
      or old.branch_id is distinct from new.branch_id
    ) execute function slot_days_notice()`,
  `create trigger slots_slot_days after insert or update or delete on slots
    for each row execute function slot_days_notice()`,
  `create trigger branch_closures_slot_days after insert or update or delete on branch_closures
    for each row execute function slot_days_notice()`,
  `create trigger branches_slot_days_placed after insert or delete on branches
    for each row execute function branch_slot_days_notice()`,
  `create trigger branches_slot_days_changed after update on branches
    for each row when (
      old.time_zone is distinct from new.time_zone
      or old.active_with_smart_lock is distinct from new.active_with_smart_lock
    ) execute function branch_slot_days_notice()`,
  ...['bookings', 'slots', 'branch_closures', 'branches'].map(
    (table) => `create trigger ${table}_slot_days_emptied after truncate on ${table}
      for each statement execute function all_slot_days_notice()`,
  ),
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const triggers = [
    ['bookings_slot_days_placed', 'bookings'],
    ['bookings_slot_days_changed', 'bookings'],
    ['slots_slot_days', 'slots'],
    ['branch_closures_slot_days', 'branch_closures'],
    ['branches_slot_days_placed', 'branches'],
    ['branches_slot_days_changed', 'branches'],
    ...['bookings', 'slots', 'branch_closures', 'branches'].map((table) => [
      `${table}_slot_days_emptied`,
      table,
    ]),
  ];
  for (const [trigger, table] of triggers) await sql.raw(`drop trigger ${trigger} on ${table}`).execute(db);
  await sql
    .raw(
      `drop function all_slot_days_notice(); drop function branch_slot_days_notice();
       drop function slot_days_notice()`,
    )
    .execute(db);
}
