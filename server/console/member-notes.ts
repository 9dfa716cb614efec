import { recordAudit, type Actor } from '../kernel/audit.ts';
import { dateFromInstant, type Clock } from '../kernel/clock.ts';
import { AppError } from '../kernel/errors.ts';
import type { Db } from '../db/database.ts';
import type { components } from '../../openapi/schema.gen.ts';

// Notes on a member (issue 32, item 3): what operators write about a member (why blocked, an incident), listed on
// the member's console page with author and time. Operators read them; the member's own account never shows them.
// They are personal data about the member, so an access request's export carries them and erasure deletes them
// (docs/decisions.md, 'Issue 32 — talking to members').

type Schemas = components['schemas'];

async function requireMember(db: Db, memberId: string): Promise<void> {
  const member = await db.selectFrom('users').select('id').where('id', '=', memberId).executeTakeFirst();
  if (!member) throw new AppError('member_not_found');
}

function noteView(row: { id: number; body: string; created_at: Date; created_by_email: string }) {
  return {
    id: row.id,
    body: row.body,
    created_at: row.created_at.toISOString(),
    created_by: row.created_by_email,
  } satisfies Schemas['MemberNote'];
}

/** The notes on a member, newest first. */
export async function listMemberNotes(db: Db, memberId: string): Promise<Schemas['MemberNote'][]> {
  await requireMember(db, memberId);
  const rows = await db
    .selectFrom('member_notes')
    .select(['id', 'body', 'created_at', 'created_by_email'])
    .where('user_id', '=', memberId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(noteView);
}

/** The use case: one note, its author the operator, audited (the audit row names the note, not its words). */
export async function addMemberNote(
  trx: Db,
  deps: { clock: Clock },
  input: { actor: Actor; memberId: string; body: string },
): Promise<Schemas['MemberNote']> {
  await requireMember(trx, input.memberId);
  const at = dateFromInstant(deps.clock.now());
  const row = await trx
    .insertInto('member_notes')
    .values({
      user_id: input.memberId,
      body: input.body.trim(),
      created_at: at,
      created_by: input.actor.operatorId,
      created_by_email: input.actor.email ?? '',
    })
    .returning(['id', 'body', 'created_at', 'created_by_email'])
    .executeTakeFirstOrThrow();
  await recordAudit(
    trx,
    input.actor,
    { action: 'member.note', entityType: 'member', entityId: input.memberId, after: { note_id: row.id } },
    at,
  );
  return noteView(row);
}

/** Erases the notes on a member: a step of the account's erasure (modules.ts). */
export async function forgetMemberNotes(trx: Db, memberId: string): Promise<void> {
  await trx.deleteFrom('member_notes').where('user_id', '=', memberId).execute();
}
