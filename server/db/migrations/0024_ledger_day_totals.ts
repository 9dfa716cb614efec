import { sql, type Kysely } from 'kysely';

// The money ledger's sums per branch and branch-local day (issue 33, "Speed at scale"): the money report of a
// year read 160,000 movements and added them up on the event loop (about 3 s at a real business's size, holding
// up every other request of the process). These sums are the ledger's, kept by the database itself in the
// transaction that writes each ledger row, so no figure is computed another way and none can drift:
// - a row of the ledger adds its amount and one to its branch's day (the day its instant falls on in the
//   branch's time zone), when its transaction commits (a deferred trigger: the day's row is locked for the
//   commit alone, not for the rest of a payment's transaction; two commits adding to one day wait for each
//   other, and a deadlock between two adding to two days in opposite orders is run again like any other);
// - the ledger is never changed or removed (its own triggers refuse it), so nothing is ever taken away;
// - a branch's time zone changed moves its days: its sums are worked out again from its ledger rows in the
//   same transaction;
// - the rows already in the ledger are summed here.
// A test's clean slate (TRUNCATE of every table) empties both.
//
// The ledger's time index also takes the id: every reader orders by (occurred_at, id) (the payments list newest
// first, the ledger export and the reconciliation oldest first), so a page or a batch is read from the index in
// order and stops at its size, rather than every row of the period being joined and sorted to keep 50.

const statements = [
  `drop index ledger_entries_by_time`,
  `create index ledger_entries_by_time on ledger_entries (occurred_at, id)`,
  `create table ledger_day_totals (
    branch_id integer not null references branches (id),
    local_date date not null,
    payments_cents bigint not null default 0,
    payments_count integer not null default 0,
    refunds_cents bigint not null default 0,
    refunds_count integer not null default 0,
    primary key (branch_id, local_date)
  )`,
  `create function ledger_day_totals_add() returns trigger language plpgsql as $$
    begin
      insert into ledger_day_totals as total
        (branch_id, local_date, payments_cents, payments_count, refunds_cents, refunds_count)
      select new.branch_id, (new.occurred_at at time zone branch.time_zone)::date,
        case when new.kind = 'payment' then new.amount_cents else 0 end,
        case when new.kind = 'payment' then 1 else 0 end,
        case when new.kind = 'refund' then new.amount_cents else 0 end,
        case when new.kind = 'refund' then 1 else 0 end
      from branches as branch where branch.id = new.branch_id
      on conflict (branch_id, local_date) do update set
        payments_cents = total.payments_cents + excluded.payments_cents,
        payments_count = total.payments_count + excluded.payments_count,
        refunds_cents = total.refunds_cents + excluded.refunds_cents,
        refunds_count = total.refunds_count + excluded.refunds_count;
      return null;
    end
  $$`,
  `create constraint trigger ledger_entries_day_totals after insert on ledger_entries
    deferrable initially deferred for each row execute function ledger_day_totals_add()`,
  `create function ledger_day_totals_rebuild(of_branch integer) returns void language sql as $$
    delete from ledger_day_totals where branch_id = of_branch or of_branch is null;
    insert into ledger_day_totals
      (branch_id, local_date, payments_cents, payments_count, refunds_cents, refunds_count)
    select entry.branch_id, (entry.occurred_at at time zone branch.time_zone)::date,
      coalesce(sum(entry.amount_cents) filter (where entry.kind = 'payment'), 0),
      count(*) filter (where entry.kind = 'payment'),
      coalesce(sum(entry.amount_cents) filter (where entry.kind = 'refund'), 0),
      count(*) filter (where entry.kind = 'refund')
    from ledger_entries as entry join branches as branch on branch.id = entry.branch_id
    where entry.branch_id = of_branch or of_branch is null
    group by 1, 2
  $$`,
  `create function ledger_day_totals_rezone() returns trigger language plpgsql as $$
    begin
      perform ledger_day_totals_rebuild(new.id);
      return null;
    end
  $$`,
  `create trigger branches_rezone_day_totals after update of time_zone on branches
    for each row when (old.time_zone is distinct from new.time_zone)
    execute function ledger_day_totals_rezone()`,
  `select ledger_day_totals_rebuild(null)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`drop index ledger_entries_by_time`).execute(db);
  await sql.raw(`create index ledger_entries_by_time on ledger_entries (occurred_at)`).execute(db);
  await sql.raw(`drop trigger branches_rezone_day_totals on branches`).execute(db);
  await sql.raw(`drop trigger ledger_entries_day_totals on ledger_entries`).execute(db);
  await sql
    .raw(
      `drop function ledger_day_totals_rezone(); drop function ledger_day_totals_rebuild(integer);
       drop function ledger_day_totals_add(); drop table ledger_day_totals`,
    )
    .execute(db);
}
