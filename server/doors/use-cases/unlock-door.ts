import type { FastifyBaseLogger } from 'fastify';
import { DoorOfflineError, type LockProvider } from '../../adapters/locks/provider.ts';
import { recordAudit, type Actor } from '../../kernel/audit.ts';
import { dateFromInstant, type Clock } from '../../kernel/clock.ts';
import { AppError } from '../../kernel/errors.ts';
import { runTransaction } from '../../kernel/transactions.ts';
import type { Db } from '../../db/database.ts';
import * as control from '../control-repository.ts';
import { listBranchDoorSources } from '../doors-repository.ts';

// 'Open now' (issue 32, item 1): an operator opens a door remotely for a member stuck outside. One request is
// one attempt: its request id is kept unique, so a replayed or double-sent request answers the first attempt
// and never opens the door twice; two operators pressing at once are two attempts, each audited. The attempt is
// written before the lock is asked (outside any transaction: a lock can take seconds) and ended with what the
// lock answered; the audit row carries the reason and the outcome, success or not.

export type UnlockDoorDependencies = {
  db: Db;
  clock: Clock;
  provider: LockProvider;
  log: FastifyBaseLogger;
};

export type UnlockDoorInput = {
  actor: Actor;
  branchId: number;
  deviceId: string;
  reason: string;
  requestId: string;
};

export async function unlockDoor(
  deps: UnlockDoorDependencies,
  input: UnlockDoorInput,
): Promise<control.DoorUnlockRow> {
  const { db, provider, log } = deps;
  const now = () => dateFromInstant(deps.clock.now());
  const reason = input.reason.trim();
  if (reason === '') throw new AppError('reason_required');
  const [branch] = await listBranchDoorSources(db, input.branchId);
  if (!branch) throw new AppError('branch_not_found');
  if (!provider.doorsOf(branch).includes(input.deviceId)) throw new AppError('door_not_found');

  const attemptId = await control.insertUnlockAttempt(db, {
    requestId: input.requestId,
    branchId: branch.id,
    deviceId: input.deviceId,
    operatorId: input.actor.operatorId,
    operatorEmail: input.actor.email ?? '?',
    reason,
    at: now(),
  });
  if (attemptId === null) return replayed(await control.findUnlockByRequest(db, input.requestId), input);

  let outcome: 'opened' | 'offline' | 'failed' = 'opened';
  let error: string | null = null;
  try {
    await provider.unlock(input.deviceId);
  } catch (failure) {
    outcome = failure instanceof DoorOfflineError ? 'offline' : 'failed';
    error = (failure instanceof Error ? failure.message : String(failure)).slice(0, 300);
  }
  const finished = await finish(deps, attemptOf(attemptId, input, branch.id), { outcome, error });
  const line = { branchId: branch.id, deviceId: input.deviceId, operator: input.actor.email, outcome, error };
  if (outcome === 'opened') log.info(line, 'door opened remotely by an operator');
  else log.warn(line, 'remote door opening failed');
  // Ended meanwhile by the sweep (a lock slower than STALLED_UNLOCK_MS): the attempt answers as it was recorded.
  return answer(finished ?? (await control.findUnlockByRequest(db, input.requestId))!);
}

/**
 * How long an attempt may stay 'opening': the lock's own wait (10 s, and 15 s of HTTP timeout) many times over.
 * Older, its server stopped (a crash, a deploy) before the lock answered, and nobody will end it.
 */
export const STALLED_UNLOCK_MS = 2 * 60_000;
const INTERRUPTED = 'interrupted: the server stopped before the lock answered';

/**
 * Ends every attempt stalled at 'opening' as failed, audited as any attempt: the door sweep runs it, so the door
 * page never shows an opening forever and the attempt's replay says it failed instead of 'in progress'. Whether
 * the door opened is unknown; the operator, told it failed, asks again.
 */
export async function endStalledUnlocks(deps: Omit<UnlockDoorDependencies, 'provider'>): Promise<number> {
  const before = new Date(dateFromInstant(deps.clock.now()).getTime() - STALLED_UNLOCK_MS);
  let ended = 0;
  for (const row of await control.listStalledUnlocks(deps.db, before)) {
    const attempt = {
      id: row.id,
      actor: { operatorId: row.operator_id, email: row.operator_email },
      branchId: row.branch_id,
      deviceId: row.device_id,
      reason: row.reason,
      requestId: row.request_id,
    };
    if (await finish(deps, attempt, { outcome: 'failed', error: INTERRUPTED })) ended += 1;
  }
  if (ended > 0) deps.log.warn({ ended }, 'remote door openings interrupted by a stop: ended as failed');
  return ended;
}

type Attempt = {
  id: number;
  actor: Actor;
  branchId: number;
  deviceId: string;
  reason: string;
  requestId: string;
};

const attemptOf = (id: number, input: UnlockDoorInput, branchId: number): Attempt => ({
  id,
  actor: input.actor,
  branchId,
  deviceId: input.deviceId,
  reason: input.reason.trim(),
  requestId: input.requestId,
});

/** Ends an attempt still opening with its outcome, and audits it; undefined when something else ended it. */
async function finish(
  deps: Omit<UnlockDoorDependencies, 'provider'>,
  attempt: Attempt,
  result: { outcome: 'opened' | 'offline' | 'failed'; error: string | null },
): Promise<control.DoorUnlockRow | undefined> {
  const at = dateFromInstant(deps.clock.now());
  return runTransaction(deps.db, { name: 'finishDoorUnlock', log: deps.log }, async (trx) => {
    const row = await control.finishUnlockAttempt(trx, attempt.id, { ...result, at });
    if (!row) return undefined;
    await recordAudit(
      trx,
      attempt.actor,
      {
        action: 'door.unlock',
        entityType: 'door',
        entityId: attempt.deviceId,
        reason: attempt.reason,
        after: { branch_id: attempt.branchId, ...result, request_id: attempt.requestId },
      },
      at,
    );
    return row;
  });
}

/** The first attempt's answer: its outcome, or its failure again; never a second opening. */
function replayed(row: control.DoorUnlockRow | undefined, input: UnlockDoorInput): control.DoorUnlockRow {
  // A request id is one press of one operator on one door: the same id for anything else is not a replay.
  if (!row || row.device_id !== input.deviceId || row.operator_id !== input.actor.operatorId)
    throw new AppError('door_unlock_in_progress');
  if (row.outcome === 'opening') throw new AppError('door_unlock_in_progress');
  return answer(row);
}

function answer(row: control.DoorUnlockRow): control.DoorUnlockRow {
  if (row.outcome === 'offline') throw new AppError('door_offline');
  if (row.outcome === 'failed') throw new AppError('door_unlock_failed');
  return row;
}
