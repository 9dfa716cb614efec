import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/database.ts';
import { setWhereStillNull } from '../kernel/queries.ts';
import type { UsersTable, VerificationCodesTable } from '../db/schema.ts';
import { readSetting } from '../catalog/index.ts';

// SQL for accounts, their verification codes, reset tokens and blocked contacts. `db` may be a transaction.

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserPatch = Updateable<UsersTable>;
export type CodeChannel = VerificationCodesTable['channel'];

export async function readOrCreateSetting(db: Db, key: string, value: unknown): Promise<unknown> {
  // Several processes may start at once: the first insert wins and everybody reads the winner.
  await db
    .insertInto('settings')
    .values({ key, value: JSON.stringify(value) })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
  const stored = await readSetting(db, key);
  // The row stands after the insert above: nothing deletes settings. A missing one is a fault, never a value.
  if (stored === undefined) throw new Error(`setting ${key} is missing after its insert`);
  return stored;
}

/** Accounts not deleted; callers say which and what of them. */
export function liveUsers(db: Db) {
  return db.selectFrom('users').where('deleted_at', 'is', null);
}

export async function findLiveUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return liveUsers(db).selectAll().where('email', '=', email).executeTakeFirst();
}

/**
 * `forUpdate` locks the row against every other lock; `forNoKeyUpdate` against the other account changes only,
 * not against the foreign-key checks of rows that name the user (a booking, a door code, a redemption).
 */
export async function findLiveUserById(
  db: Db,
  id: string,
  options: { forUpdate?: boolean; forNoKeyUpdate?: boolean } = {},
): Promise<UserRow | undefined> {
  let query = liveUsers(db).selectAll().where('id', '=', id);
  if (options.forUpdate) query = query.forUpdate();
  else if (options.forNoKeyUpdate) query = query.forNoKeyUpdate();
  return query.executeTakeFirst();
}

/** Which of these contacts other accounts use (deleted accounts have none). */
export async function findContactOwners(
  db: Db,
  contacts: { email: string; phoneNumber: string },
): Promise<{ id: string; email: string | null; phone_number: string | null }[]> {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'phone_number'])
    .where((eb) => eb.or([eb('email', '=', contacts.email), eb('phone_number', '=', contacts.phoneNumber)]))
    .execute();
}

export async function isAnyContactBlocked(
  db: Db,
  contacts: { email?: string; phoneNumber?: string },
): Promise<boolean> {
  const conditions: { kind: 'email' | 'phone'; value: string }[] = [];
  if (contacts.email) conditions.push({ kind: 'email', value: contacts.email });
  if (contacts.phoneNumber) conditions.push({ kind: 'phone', value: contacts.phoneNumber });
  if (conditions.length === 0) return false;
  const row = await db
    .selectFrom('blocked_contacts')
    .select('id')
    .where((eb) =>
      eb.or(conditions.map(({ kind, value }) => eb.and([eb('kind', '=', kind), eb('value', '=', value)]))),
    )
    .executeTakeFirst();
  return Boolean(row);
}

export async function insertUser(db: Db, user: NewUserRow): Promise<UserRow> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
}

export async function updateUser(db: Db, id: string, patch: UserPatch): Promise<UserRow> {
  return db.updateTable('users').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function bumpTokenVersion(db: Db, id: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ token_version: eb('token_version', '+', 1), updated_at: now }))
    .where('id', '=', id)
    .execute();
}

// --- Verification codes ---

/** Retires the account's live codes of a channel: only the newest code sent can be used. */
export async function retireCodes(db: Db, userId: string, channel: CodeChannel, now: Date): Promise<void> {
  await setWhereStillNull(db, 'verification_codes', { user_id: userId, channel }, 'consumed_at', now);
}

/**
 * Stores a code unless an unconsumed code with the same hash exists in the channel (the confirm calls find
 * a code by its value alone). An expired holder of the value is retired first, so it never blocks one.
 * Answers whether the code was stored; the caller draws another on false.
 */
export async function insertCodeIfUnique(
  db: Db,
  code: {
    userId: string;
    channel: CodeChannel;
    target: string;
    codeHash: string;
    expiresAt: Date;
    now: Date;
  },
): Promise<boolean> {
  await db
    .updateTable('verification_codes')
    .set({ consumed_at: code.now })
    .where('channel', '=', code.channel)
    .where('code_hash', '=', code.codeHash)
    .where('consumed_at', 'is', null)
    .where('expires_at', '<=', code.now)
    .execute();
  const inserted = await db
    .insertInto('verification_codes')
    .values({
      user_id: code.userId,
      channel: code.channel,
      target: code.target,
      code_hash: code.codeHash,
      expires_at: code.expiresAt,
      created_at: code.now,
    })
    .onConflict((conflict) =>
      conflict.columns(['channel', 'code_hash']).where('consumed_at', 'is', null).doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return Boolean(inserted);
}

export async function findUnconsumedCode(db: Db, channel: CodeChannel, codeHash: string) {
  return db
    .selectFrom('verification_codes')
    .select(['id', 'user_id', 'target', 'expires_at'])
    .where('channel', '=', channel)
    .where('code_hash', '=', codeHash)
    .where('consumed_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export async function consumeCode(db: Db, id: number, now: Date): Promise<boolean> {
  return (await setWhereStillNull(db, 'verification_codes', { id }, 'consumed_at', now)) > 0;
}

// --- Password reset tokens ---

export async function insertResetToken(
  db: Db,
  token: { userId: string; tokenHash: string; expiresAt: Date; now: Date },
): Promise<void> {
  await db
    .insertInto('password_reset_tokens')
    .values({
      user_id: token.userId,
      token_hash: token.tokenHash,
      expires_at: token.expiresAt,
      created_at: token.now,
    })
    .execute();
}

/** An unused, unexpired token, locked so that two requests cannot both use it. */
export async function findUsableResetToken(db: Db, tokenHash: string, now: Date) {
  return db
    .selectFrom('password_reset_tokens')
    .select(['id', 'user_id'])
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .forUpdate()
    .executeTakeFirst();
}

/** Marks every unused reset token of the account used: one reset ends all the links sent before it. */
export async function retireResetTokens(db: Db, userId: string, now: Date): Promise<void> {
  await setWhereStillNull(db, 'password_reset_tokens', { user_id: userId }, 'used_at', now);
}

// --- Deletion and upkeep ---

export async function deleteCodesAndResetTokens(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('verification_codes').where('user_id', '=', userId).execute();
  await db.deleteFrom('password_reset_tokens').where('user_id', '=', userId).execute();
}

/** Erases the personal data of an account; the row stays so bookings and payments keep their owner id. */
export async function anonymiseUser(db: Db, id: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({
      email: null,
      phone_number: null,
      first_name: '',
      last_name: '',
      tax_id: null,
      password_hash: null,
      agree_newsletter: false,
      email_verified_at: null,
      phone_verified_at: null,
      token_version: eb('token_version', '+', 1),
      updated_at: now,
      deleted_at: now,
    }))
    .where('id', '=', id)
    .execute();
}

/** Codes and reset tokens past their expiry are of no use to anyone; deleting them keeps the tables small. */
export async function deleteExpiredSecrets(db: Db, before: Date): Promise<number> {
  const codes = await db.deleteFrom('verification_codes').where('expires_at', '<', before).executeTakeFirst();
  const tokens = await db
    .deleteFrom('password_reset_tokens')
    .where('expires_at', '<', before)
    .executeTakeFirst();
  return Number(codes.numDeletedRows) + Number(tokens.numDeletedRows);
}

export type BlockedContact = { kind: 'email' | 'phone'; value: string };

/** Answers false when the contact was blocked already. */
export async function insertBlockedContact(
  db: Db,
  contact: BlockedContact & { reason: string | null },
): Promise<boolean> {
  const inserted = await db
    .insertInto('blocked_contacts')
    .values(contact)
    .onConflict((conflict) => conflict.columns(['kind', 'value']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Answers false when the contact was not blocked. */
export async function deleteBlockedContact(db: Db, contact: BlockedContact): Promise<boolean> {
  const result = await db
    .deleteFrom('blocked_contacts')
    .where('kind', '=', contact.kind)
    .where('value', '=', contact.value)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listBlockedContacts(db: Db) {
  return db
    .selectFrom('blocked_contacts')
    .select(['kind', 'value', 'reason', 'created_at'])
    .orderBy('kind')
    .orderBy('value')
    .execute();
}

/** An account by id, deleted (anonymised) or not. */
export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The live accounts whose e-mail address or phone number is this contact. */
export async function liveUserIdsWithContact(db: Db, contact: BlockedContact): Promise<string[]> {
  const rows = await liveUsers(db)
    .select('id')
    .where(contact.kind === 'email' ? 'email' : 'phone_number', '=', contact.value)
    .execute();
  return rows.map((row) => row.id);
}

export async function findBlockedContact(db: Db, which: { id: number } | BlockedContact) {
  let query = db.selectFrom('blocked_contacts').selectAll();
  query =
    'id' in which
      ? query.where('id', '=', which.id)
      : query.where('kind', '=', which.kind).where('value', '=', which.value);
  return query.executeTakeFirst();
}

/** The blocks of an account's e-mail address and phone number, oldest first. */
export async function blocksOf(db: Db, contacts: { email: string | null; phone: string | null }) {
  return db
    .selectFrom('blocked_contacts')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('kind', '=', 'email'), eb('value', '=', contacts.email ?? '')]),
        eb.and([eb('kind', '=', 'phone'), eb('value', '=', contacts.phone ?? '')]),
      ]),
    )
    .orderBy('id')
    .execute();
}
