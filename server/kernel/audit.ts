import type { components } from '../../openapi/schema.gen.ts';
import { pageWithTotal, type Db } from '../db/database.ts';

/** Who made a change: an operator of the console, or the back-office CLI (no operator). */
export type Actor = { operatorId: number | null; email: string | null };

/**
 * The back-office CLI as an actor: no operator, named `cli:<the OS user who ran it>` (docs/decisions.md,
 * 'CLI changes in the audit log').
 */
export function cliActor(osUser: string): Actor {
  return { operatorId: null, email: `cli:${osUser}` };
}

/** What an audit row says was done: one of the contract's actions, which the console words (AuditAction). */
export type AuditAction = components['schemas']['AuditAction'];

export type AuditRecord = {
  action: AuditAction;
  entityType: string;
  entityId: string | number;
  reason?: string | null;
  before?: unknown;
  after?: unknown;
};

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** Writes one audit row; pass the transaction of the change, so the row exists exactly when the change does. */
export async function recordAudit(trx: Db, actor: Actor, record: AuditRecord, at: Date): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      at,
      operator_id: actor.operatorId,
      operator_email: actor.email,
      action: record.action,
      entity_type: record.entityType,
      entity_id: String(record.entityId),
      reason: record.reason ?? null,
      before: json(record.before),
      after: json(record.after),
    })
    .execute();
}

export type AuditFilter = {
  operatorId?: number;
  action?: string;
  entityType?: string;
  entityId?: string;
  from?: Date;
  until?: Date;
  offset: number;
  limit: number;
};

export async function listAudit(db: Db, filter: AuditFilter) {
  let query = db.selectFrom('audit_log');
  if (filter.operatorId !== undefined) query = query.where('operator_id', '=', filter.operatorId);
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (filter.entityType !== undefined) query = query.where('entity_type', '=', filter.entityType);
  if (filter.entityId !== undefined) query = query.where('entity_id', '=', filter.entityId);
  if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
  if (filter.until !== undefined) query = query.where('at', '<', filter.until);
  return pageWithTotal(query.selectAll().orderBy('at', 'desc').orderBy('id', 'desc'), query, filter);
}
