import type { Db } from '../../db/database.ts';
import type { CreditUnit } from '../../db/schema.ts';
import { dateFromInstant, instantFromDate } from '../../kernel/clock.ts';
import type { MoneyActor } from '../ledger.ts';
import * as repository from './repository.ts';
import { planCreditSpends, type CreditSpend, type SlotToCover } from './scope.ts';

// The credit ledger's writes (migration 0015_credit_wallet): every change of a lot is one movement, written in
// the transaction that causes it, with the lot's balance changed beside it. Spending happens in the booking's
// own transaction (createBooking), giving back in the cancellation's (cancelAndRefund), and a hold that ends
// unpaid gives its credit back in the database itself, whatever ends it.

function actorColumns(actor: MoneyActor) {
  return { actor_type: actor.type, actor_id: actor.id, actor_name: actor.name };
}

/**
 * What the member's credit pays of `slots` now, with their lots locked in `trx` until it commits: the plan the
 * booking then writes with `spendCredit`. Another booking of the member waits for these locks and sees what this
 * one left, so no lot can be spent twice.
 */
export async function lockCreditPlan(
  trx: Db,
  userId: string,
  slots: readonly SlotToCover[],
  now: Date,
): Promise<CreditSpend[]> {
  // Holds of the member's whose time is up give their credit back first (the database does it as they expire).
  await repository.expireStaleCreditHolds(trx, userId, now);
  const lots = await repository.spendableLots(trx, userId, now, { lock: true });
  return planCreditSpends(lots, slots);
}

/** What the member's credit would pay of `slots` now, without locking or spending anything. */
export async function previewCreditPlan(
  db: Db,
  userId: string,
  slots: readonly SlotToCover[],
  now: Date,
): Promise<CreditSpend[]> {
  return planCreditSpends(await repository.spendableLots(db, userId, now, { lock: false }), slots);
}

/** Writes a plan's spends, each against the booking at its slot's index, in the booking's transaction. */
export async function spendCredit(
  trx: Db,
  spends: readonly CreditSpend[],
  bookingIds: readonly number[],
  actor: MoneyActor,
  at: Date,
): Promise<void> {
  for (const spend of spends) {
    // The lot was locked when the plan was made: it holds the amount. Should it not, nothing is spent.
    if (!(await repository.takeFromLot(trx, spend.lotId, spend.amount))) {
      throw new Error(`credit lot ${spend.lotId} does not hold ${spend.amount}`);
    }
    await repository.insertMovement(trx, {
      lot_id: spend.lotId,
      kind: 'spend',
      amount: spend.amount,
      value_cents: spend.valueCents,
      booking_id: bookingIds[spend.index]!,
      ...actorColumns(actor),
      occurred_at: at,
    });
  }
}

/**
 * A cancelled booking's credit back to its lots, `ratio` of it (the refund policy's tier, 1 for a closure or a
 * full refund, 0 for none), rounded down to whole minutes or cents; once per booking ever. Answers the value, in
 * cents of the booking's price, that came back.
 */
export async function returnCredit(
  trx: Db,
  bookingId: number,
  ratio: number,
  actor: MoneyActor,
  at: Date,
  reason: string | null = null,
): Promise<number> {
  const held = await repository.creditHeldByBooking(trx, bookingId);
  if (held.some((part) => part.returned)) return 0;
  let value = 0;
  for (const part of held) {
    const amount = Math.floor(part.amount * ratio + 1e-9);
    if (amount <= 0) continue;
    const valueCents = Math.floor(part.value_cents * ratio + 1e-9);
    await repository.addToLot(trx, part.lot_id, amount);
    await repository.insertMovement(trx, {
      lot_id: part.lot_id,
      kind: 'return',
      amount,
      value_cents: valueCents,
      booking_id: bookingId,
      ...actorColumns(actor),
      reason,
      occurred_at: at,
    });
    value += valueCents;
  }
  return value;
}

/**
 * When credit bought (or a voucher paid) at `paidAt` and valid `validityDays` stops covering sessions: the end of
 * the local day `validityDays` after the payment, in `timeZone` (its last second). The e-mails, the invoice, the
 * wallet and the console name that day ("valid until 21 April"), so a session starting any time that day is covered,
 * not only those before the hour of the payment.
 */
export function creditExpiry(paidAt: Date, validityDays: number, timeZone: string): Date {
  const lastDay = instantFromDate(paidAt)
    .toZonedDateTimeISO(timeZone)
    .toPlainDate()
    .add({ days: validityDays });
  const nextDayStarts = lastDay.add({ days: 1 }).toZonedDateTime({ timeZone }).toInstant();
  return dateFromInstant(nextDayStarts.subtract({ seconds: 1 }));
}

/** A new lot with its first movement (the grant), in the transaction of the payment that bought it. */
export async function grantLot(
  trx: Db,
  lot: {
    userId: string;
    creditPackId: number | null;
    name: string;
    unit: CreditUnit;
    amount: number;
    scope: {
      branch_ids: number[] | null;
      weekdays: number[] | null;
      from_minute: number | null;
      to_minute: number | null;
    };
    ledgerEntryId: number | null;
    checkoutSessionId: string | null;
    expiresAt: Date;
  },
  actor: MoneyActor,
  at: Date,
): Promise<number> {
  const lotId = await repository.insertLot(trx, {
    user_id: lot.userId,
    credit_pack_id: lot.creditPackId,
    name: lot.name,
    unit: lot.unit,
    initial: lot.amount,
    remaining: lot.amount,
    ...lot.scope,
    ledger_entry_id: lot.ledgerEntryId,
    checkout_session_id: lot.checkoutSessionId,
    expires_at: lot.expiresAt,
    created_at: at,
  });
  await repository.insertMovement(trx, {
    lot_id: lotId,
    kind: 'grant',
    amount: lot.amount,
    ...actorColumns(actor),
    occurred_at: at,
  });
  return lotId;
}

/** Writes off what is left of lots whose time is up; answers how many. Runs in `trx`, lots locked. */
export async function expireLots(trx: Db, now: Date, limit = 200): Promise<number> {
  const lots = await repository.lockLotsToExpire(trx, now, limit);
  for (const lot of lots) {
    await trx.updateTable('credit_lots').set({ remaining: 0 }).where('id', '=', lot.id).execute();
    await repository.insertMovement(trx, {
      lot_id: lot.id,
      kind: 'expire',
      amount: lot.remaining,
      actor_type: 'system',
      occurred_at: now,
    });
  }
  return lots.length;
}
