import { Temporal } from 'temporal-polyfill';
import { recordAudit, type Actor } from '../../kernel/audit.ts';
import { dateFromInstant, type Clock } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import { sqlState, SQLSTATE } from '../../kernel/database-errors.ts';
import { AppError, PERIOD_TOO_LONG } from '../../kernel/errors.ts';
import { centsToEuros } from '../../kernel/money.ts';
import { cancelLiveBookings, refundOfMode, type CancellationDependencies } from '../cancellation.ts';
import { systemActor } from '../ledger.ts';
import * as repository from '../repository.ts';

// Closing a branch for a period (the console's POST /admin/closures): the closure row first (closures in force
// never overlap), then the period's slots are locked as a booking locks them, so a booking racing the closure
// either is found here and cancelled, or waits and then finds the slot closed. Live bookings are cancelled with a
// full refund, by the one cancellation of bookings (cancellation.ts), and each member is told in their language.
// Audited with the reason and what it cancelled.

/** A closure lasts at most this long; closing a branch for longer is deactivating it. */
const CLOSURE_MAX_DAYS = 366;

/** A period's ends as instants; the end after the start, at most CLOSURE_MAX_DAYS later (400 `invalid_period`). */
export function closurePeriod(input: { starts_at: string; ends_at: string }) {
  const from = Temporal.Instant.from(input.starts_at);
  const until = Temporal.Instant.from(input.ends_at);
  if (Temporal.Instant.compare(until, from) <= 0) throw new AppError('invalid_period');
  if (Temporal.Instant.compare(until, from.add({ hours: CLOSURE_MAX_DAYS * 24 })) > 0) {
    throw new AppError('invalid_period', { days: CLOSURE_MAX_DAYS }, {}, { detail: PERIOD_TOO_LONG });
  }
  return { from: dateFromInstant(from), until: dateFromInstant(until) };
}

export type CloseBranchInput = {
  actor: Actor;
  branchId: number;
  /** Instants with their offset (ISO 8601). */
  startsAt: string;
  endsAt: string;
  reason: string;
};

/** Answers the closure's id. */
export async function closeBranch(
  trx: Db,
  deps: CancellationDependencies & { clock: Clock },
  input: CloseBranchInput,
): Promise<number> {
  const period = closurePeriod({ starts_at: input.startsAt, ends_at: input.endsAt });
  const at = deps.clock.now();
  const atDate = dateFromInstant(at);
  if (!(await repository.branchExists(trx, input.branchId))) throw new AppError('branch_not_found');
  let closureId: number;
  try {
    closureId = await repository.insertClosure(trx, {
      branch_id: input.branchId,
      starts_at: period.from,
      ends_at: period.until,
      reason: input.reason,
      created_at: atDate,
      created_by: input.actor.operatorId,
      created_by_email: input.actor.email ?? 'cli',
    });
  } catch (error) {
    if (sqlState(error) === SQLSTATE.exclusionViolation) throw new AppError('closure_overlaps');
    throw error;
  }
  await repository.lockSlotsInPeriod(trx, input.branchId, period.from, period.until);
  const ids = await repository.lockLiveBookingsInPeriod(trx, {
    branchId: input.branchId,
    from: period.from,
    until: period.until,
    now: atDate,
  });
  const canceled = await cancelLiveBookings(trx, deps, {
    bookingIds: ids,
    refundOf: refundOfMode('full'),
    creditRatio: 1,
    canceledBy: `closure:${closureId}`,
    cause: {
      purpose: 'closure',
      actor: systemActor(`closure:${closureId}`, input.actor.email ?? 'cli'),
      reason: input.reason,
    },
    notice: 'closure',
    at,
  });
  await repository.setClosureCanceledBookings(
    trx,
    closureId,
    canceled.map((item) => item.bookingId),
  );
  await recordAudit(
    trx,
    input.actor,
    {
      action: 'closure.create',
      entityType: 'closure',
      entityId: closureId,
      reason: input.reason,
      after: {
        branch_id: input.branchId,
        starts_at: period.from.toISOString(),
        ends_at: period.until.toISOString(),
        canceled_booking_ids: canceled.map((item) => item.bookingId),
        refunded_eur: centsToEuros(canceled.reduce((sum, item) => sum + item.refundCents, 0)),
      },
    },
    atDate,
  );
  return closureId;
}
