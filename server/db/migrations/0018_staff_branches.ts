import { sql, type Kysely } from 'kysely';

// Staff limited to some branches (issue 32, item 2). An operator with rows here sees and acts on those branches
// only; an operator without rows has every branch (owners always: their rows are never read, and staff added
// before this migration keep working as they did). Owners set the rows through one use case, audited.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create table operator_branches (
        operator_id integer not null references operators (id),
        branch_id integer not null references branches (id),
        primary key (operator_id, branch_id)
      )`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`drop table operator_branches`).execute(db);
}
