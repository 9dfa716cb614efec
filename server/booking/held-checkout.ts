import type { ProviderSession } from '../adapters/payments/provider.ts';
import { dateFromInstant, type Clock } from '../kernel/clock.ts';
import type { Db } from '../db/database.ts';
import { runTransaction, type TransactionRetryLog } from '../kernel/transactions.ts';
import { AppError } from '../kernel/errors.ts';
import * as repository from './repository.ts';

// A checkout over slots held by pending bookings, in the steps that keep the payment provider out of every
// database transaction (docs/decisions.md, issue 15): a short transaction holds the slots (the caller's), the
// provider is called outside any transaction, a second short transaction attaches the session while the holds
// still stand. A new booking and a move to a dearer slot both go this way.

/**
 * How long slots are held before the provider has opened their checkout session: far longer than a bounded
 * provider call (two tries of PAYMENT_PROVIDER_TIMEOUT_MS), short enough that a process dying mid-call blocks
 * its slots for minutes only. The attached session then sets the hold to its own expiry.
 */
export const PROVIDER_CALL_HOLD_MINUTES = 2;

/** 503 for the caller; the provider's own error stays attached for the log. */
export function providerUnavailable(cause: unknown): AppError {
  const error = new AppError('payment_provider_unavailable');
  error.cause = cause;
  return error;
}

/**
 * Steps 2 and 3 of a checkout over the holds `holdIds`, committed by the caller's first transaction.
 * `openSession` calls the provider, outside any transaction; when it fails the holds are removed at once and
 * the caller hears 503. `attach` then runs in a short transaction, with the holds locked, only while every
 * hold is still pending, unattached and unexpired; it records the session and answers true, or answers the
 * refusal the caller hears when something else it checks changed meanwhile (what it wrote before saying so is
 * committed). Holds that ended are never revived: the session stays unknown here, no one gets its secret, and a
 * payment of it would be refunded; the caller hears `holdsEnded()` (503 unless it knows better), unless
 * `whyEnded`, run in that transaction, throws a reason of its own (the member's account deleted meanwhile).
 */
export async function openCheckoutOverHolds(
  deps: { db: Db; clock: Clock; log?: TransactionRetryLog | null },
  holdIds: readonly number[],
  openSession: () => Promise<ProviderSession>,
  attach: (trx: Db, session: ProviderSession) => Promise<true | AppError>,
  {
    holdsEnded = () => providerUnavailable(new Error('the holds ended before the payment provider answered')),
    whyEnded = async () => undefined,
  }: {
    /** `removed`: another request took the holds away; `ended`: they expired or were released meanwhile. */
    holdsEnded?: (how: 'removed' | 'ended') => AppError;
    whyEnded?: (trx: Db) => Promise<unknown>;
  } = {},
): Promise<ProviderSession> {
  let session: ProviderSession;
  try {
    session = await openSession();
  } catch (error) {
    // The caller hears about the provider either way; should the database be gone as well, the holds end
    // with the expiry sweep within PROVIDER_CALL_HOLD_MINUTES.
    await runTransaction(deps.db, { name: 'deleteUnattachedHolds', log: deps.log }, (trx) =>
      repository.deleteUnattachedHolds(trx, holdIds),
    ).catch(() => undefined);
    throw providerUnavailable(error);
  }

  // The session is opened once, above: a deadlock runs only this attaching transaction again.
  const retried = { name: 'attachCheckoutSession', log: deps.log };
  const attached = await runTransaction(deps.db, retried, async (trx) => {
    const holds = await repository.lockBookings(trx, holdIds);
    const now = dateFromInstant(deps.clock.now());
    const stillHeld = holds.every(
      (hold) =>
        hold.status === 'pending' &&
        hold.checkout_session_id === null &&
        hold.hold_expires_at !== null &&
        hold.hold_expires_at > now,
    );
    if (holds.length !== holdIds.length || !stillHeld) {
      await whyEnded(trx);
      return holdsEnded(holds.length !== holdIds.length ? 'removed' : 'ended');
    }
    // Attaching rewrites the hold's row, which PostgreSQL checks against the exclusion index again. A rival
    // booking of the same slot inserting at that moment waits on this rewrite while the rewrite waits on the
    // rival's row: a deadlock, broken after a second by failing one of them, possibly this member's checkout
    // (tests/server/bookings-two-processes.test.ts caught it). Taking the slots' lock first, as every booking of
    // them does (lockSlots), makes the rewrite wait until no rival is inserting, and rivals queue behind it.
    await repository.lockSlots(
      trx,
      holds.map((hold) => hold.slot_id),
    );
    return attach(trx, session);
  });
  if (attached !== true) throw attached;
  return session;
}
