import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { setWhereStillNull } from '../kernel/queries.ts';
import type { OperatorsTable } from '../db/schema.ts';

export type OperatorRow = Selectable<OperatorsTable>;

/** Operators not removed; callers say which. */
function liveOperators(db: Db) {
  return db.selectFrom('operators').selectAll().where('removed_at', 'is', null);
}

export async function findLiveOperatorByEmail(db: Db, email: string): Promise<OperatorRow | undefined> {
  return liveOperators(db).where('email', '=', email).executeTakeFirst();
}

export async function findLiveOperator(
  db: Db,
  id: number,
  options: { lock?: boolean } = {},
): Promise<OperatorRow | undefined> {
  const query = liveOperators(db).where('id', '=', id);
  return options.lock ? query.forUpdate().executeTakeFirst() : query.executeTakeFirst();
}

export async function listLiveOperators(db: Db): Promise<OperatorRow[]> {
  return liveOperators(db).orderBy('id').execute();
}

/** The live owners' rows, locked (id order): removing one must not race removing the other. */
export async function lockLiveOwners(db: Db): Promise<OperatorRow[]> {
  return liveOperators(db).where('role', '=', 'owner').orderBy('id').forUpdate().execute();
}

export async function insertOperator(db: Db, row: Insertable<OperatorsTable>): Promise<OperatorRow> {
  return db.insertInto('operators').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function markOperatorRemoved(db: Db, id: number, now: Date): Promise<void> {
  await db.updateTable('operators').set({ removed_at: now }).where('id', '=', id).execute();
}

export async function setOperatorPassword(db: Db, id: number, passwordHash: string): Promise<void> {
  await db.updateTable('operators').set({ password_hash: passwordHash }).where('id', '=', id).execute();
}

export async function insertSetupToken(
  db: Db,
  row: { operator_id: number; token_hash: string; expires_at: Date },
): Promise<void> {
  await db.insertInto('operator_setup_tokens').values(row).execute();
}

/** Marks a usable token used and answers its operator; undefined when it is unknown, used or expired. */
export async function consumeSetupToken(db: Db, tokenHash: string, now: Date): Promise<number | undefined> {
  const row = await db
    .updateTable('operator_setup_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('operator_id')
    .executeTakeFirst();
  return row?.operator_id;
}

export async function retireSetupTokens(db: Db, operatorId: number, now: Date): Promise<void> {
  await setWhereStillNull(db, 'operator_setup_tokens', { operator_id: operatorId }, 'used_at', now);
}

/** The latest TOTP step that logged this operator in, or null. */
export async function latestTotpStep(db: Db, operatorId: number): Promise<number | null> {
  const row = await db
    .selectFrom('operator_totp_steps')
    .select((eb) => eb.fn.max('step').as('step'))
    .where('operator_id', '=', operatorId)
    .executeTakeFirst();
  return row?.step === null || row?.step === undefined ? null : Number(row.step);
}

/** Answers false when the step was used already (the primary key decides, whoever comes second). */
export async function useTotpStep(db: Db, operatorId: number, step: number, now: Date): Promise<boolean> {
  const inserted = await db
    .insertInto('operator_totp_steps')
    .values({ operator_id: operatorId, step, used_at: now })
    .onConflict((conflict) => conflict.columns(['operator_id', 'step']).doNothing())
    .returning('step')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function insertSession(
  db: Db,
  row: {
    id: string;
    operator_id: number;
    created_at: Date;
    expires_at: Date;
    ip: string;
    user_agent: string | null;
  },
): Promise<void> {
  await db.insertInto('operator_sessions').values(row).execute();
}

/** Sessions neither ended nor expired at `now`. */
function liveSessions(db: Db, now: Date) {
  return db
    .selectFrom('operator_sessions as session')
    .where('session.ended_at', 'is', null)
    .where('session.expires_at', '>', now);
}

export async function findLiveSession(db: Db, id: string, now: Date) {
  return liveSessions(db, now).selectAll().where('session.id', '=', id).executeTakeFirst();
}

export async function listLiveSessions(db: Db, now: Date, operatorId?: number) {
  let query = liveSessions(db, now)
    .innerJoin('operators as operator', 'operator.id', 'session.operator_id')
    .select([
      'session.id',
      'session.operator_id',
      'operator.email as operator_email',
      'session.created_at',
      'session.expires_at',
      'session.ip',
      'session.user_agent',
    ]);
  if (operatorId !== undefined) query = query.where('session.operator_id', '=', operatorId);
  return query.orderBy('session.created_at', 'desc').execute();
}

/** Ends a live session; answers false when there was none to end. */
export async function endSession(db: Db, id: string, endedBy: number | null, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('operator_sessions')
    .set({ ended_at: now, ended_by: endedBy })
    .where('id', '=', id)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function endSessionsOf(
  db: Db,
  operatorId: number,
  endedBy: number | null,
  now: Date,
): Promise<void> {
  await db
    .updateTable('operator_sessions')
    .set({ ended_at: now, ended_by: endedBy })
    .where('operator_id', '=', operatorId)
    .where('ended_at', 'is', null)
    .execute();
}

/** The branch ids each operator is limited to (an operator without rows is absent: every branch). */
export async function branchesOfOperators(
  db: Db,
  operatorIds: readonly number[],
): Promise<Map<number, number[]>> {
  const limited = new Map<number, number[]>();
  if (operatorIds.length === 0) return limited;
  const rows = await db
    .selectFrom('operator_branches')
    .select(['operator_id', 'branch_id'])
    .where('operator_id', 'in', [...operatorIds])
    .orderBy('branch_id')
    .execute();
  for (const row of rows)
    limited.set(row.operator_id, [...(limited.get(row.operator_id) ?? []), row.branch_id]);
  return limited;
}

export async function replaceOperatorBranches(
  db: Db,
  operatorId: number,
  branchIds: readonly number[],
): Promise<void> {
  await db.deleteFrom('operator_branches').where('operator_id', '=', operatorId).execute();
  if (branchIds.length === 0) return;
  await db
    .insertInto('operator_branches')
    .values(branchIds.map((branchId) => ({ operator_id: operatorId, branch_id: branchId })))
    .execute();
}

/** The ids among these that name no branch. */
export async function unknownBranchIds(db: Db, branchIds: readonly number[]): Promise<number[]> {
  if (branchIds.length === 0) return [];
  const found = await db
    .selectFrom('branches')
    .select('id')
    .where('id', 'in', [...branchIds])
    .execute();
  const known = new Set(found.map((row) => row.id));
  return branchIds.filter((id) => !known.has(id));
}
