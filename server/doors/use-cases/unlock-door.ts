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
  const finished = await runTransaction(db, { name: 'finishDoorUnlock', log }, async (trx) => {
    const row = await control.finishUnlockAttempt(trx, attemptId, { outcome, error, at: now() });
    if (!row) throw new Error(`door unlock ${attemptId} was ended twice`);
    await recordAudit(
      trx,
      input.actor,
      {
        action: 'door.unlock',
        entityType: 'door',
        entityId: input.deviceId,
        reason,
        after: { branch_id: branch.id, outcome, error, request_id: input.requestId },
      },
      now(),
    );
    return row;
  });
  const line = { branchId: branch.id, deviceId: input.deviceId, operator: input.actor.email, outcome, error };
  if (outcome === 'opened') log.info(line, 'door opened remotely by an operator');
  else log.warn(line, 'remote door opening failed');
  return answer(finished);
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
