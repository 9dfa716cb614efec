import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/database.ts';
import { runTransaction } from '../kernel/transactions.ts';
import type { LocaleCode, OutboxStatus, OutboxTable, StoredArrivalKit } from '../db/schema.ts';

// SQL of the notifications outbox. `db` may be a transaction: a message is written in the transaction of
// the change that causes it, so both happen or neither does.

export type OutboxRow = Selectable<OutboxTable>;
export type NewOutboxRow = Insertable<OutboxTable>;
export type OutboxChannel = OutboxRow['channel'];

/** Messages recorded in the outbox, newest first, optionally only those to one recipient. */
export async function listOutboxMessages(db: Db, recipient: string | undefined, limit: number) {
  let query = db
    .selectFrom('outbox')
    .select([
      'id',
      'channel',
      'recipient',
      'subject',
      'text_body',
      'html_body',
      'attachments',
      'status',
      'created_at',
    ])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit);
  if (recipient) query = query.where('recipient', '=', recipient.trim().toLowerCase());
  return query.execute();
}

/**
 * Takes up to `limit` due messages for delivery (of one channel, if given) and pushes their next attempt out by
 * `lease`, in one short transaction. `for update skip locked` lets several workers claim at once without taking
 * the same row; the lease makes a message whose worker died mid-delivery due again, so a crash loses nothing.
 */
export async function claimDueMessages(
  db: Db,
  options: { now: Date; leaseUntil: Date; limit: number; channel?: OutboxChannel },
): Promise<OutboxRow[]> {
  return runTransaction(db, { name: 'claimDueMessages' }, async (trx) => {
    let query = trx
      .selectFrom('outbox')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', options.now);
    if (options.channel) query = query.where('channel', '=', options.channel);
    const due = await query
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(options.limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (due.length === 0) return [];
    return trx
      .updateTable('outbox')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: options.leaseUntil }))
      .where(
        'id',
        'in',
        due.map((row) => row.id),
      )
      .returningAll()
      .execute();
  });
}

/** A delivery's outcome changes only a message still pending: one already settled stays as it is. */
async function updatePendingMessage(db: Db, id: number, changes: Updateable<OutboxTable>): Promise<void> {
  await db.updateTable('outbox').set(changes).where('id', '=', id).where('status', '=', 'pending').execute();
}

export async function markDelivered(
  db: Db,
  id: number,
  status: Extract<OutboxStatus, 'sent' | 'logged'>,
  now: Date,
): Promise<void> {
  await updatePendingMessage(db, id, { status, sent_at: now, last_error: null });
}

export async function scheduleRetry(db: Db, id: number, nextAttemptAt: Date, error: string): Promise<void> {
  await updatePendingMessage(db, id, { next_attempt_at: nextAttemptAt, last_error: error });
}

export async function markFailed(db: Db, id: number, error: string): Promise<void> {
  await updatePendingMessage(db, id, { status: 'failed', last_error: error });
}

/** Forgets every message to these addresses: part of erasing a deleted account's personal data. */
export async function deleteMessagesTo(db: Db, recipients: string[]): Promise<void> {
  if (recipients.length === 0) return;
  await db.deleteFrom('outbox').where('recipient', 'in', recipients).execute();
}

/** Whom a booking message goes to and the branch it speaks of; none when the account is closed. */
export type MessageContextRow = {
  email: string | null;
  phone_number: string | null;
  first_name: string;
  locale: LocaleCode;
  branch_name: string;
  location: string;
  time_zone: string;
  map_url: string | null;
  /** The branch's arrival kit as stored (catalog/arrival.ts reads it). */
  arrival: StoredArrivalKit;
};

export async function findMessageContext(
  db: Db,
  userId: string,
  branchId: number,
): Promise<MessageContextRow | undefined> {
  return db
    .selectFrom('users as user')
    .innerJoin('branches as branch', (join) => join.on('branch.id', '=', branchId))
    .select([
      'user.email',
      'user.phone_number',
      'user.first_name',
      'user.locale',
      'branch.name as branch_name',
      'branch.location',
      'branch.time_zone',
      'branch.map_url',
      'branch.arrival',
    ])
    .where('user.id', '=', userId)
    .where('user.deleted_at', 'is', null)
    .executeTakeFirst();
}
