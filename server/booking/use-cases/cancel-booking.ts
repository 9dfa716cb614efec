import { recordAudit, type Actor } from '../../kernel/audit.ts';
import { dateFromInstant, type Clock } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../kernel/errors.ts';
import { translate, type Message } from '../../kernel/i18n.ts';
import { centsToEuros, formatMoney } from '../../kernel/money.ts';
import {
  cancelLiveBookings,
  refundOfMode,
  creditRatioOfMode,
  type CancellationDependencies,
  type OperatorRefundMode,
} from '../cancellation.ts';
import { operatorActor } from '../ledger.ts';
import * as repository from '../repository.ts';

// An operator's cancellation (the console's POST /admin/bookings/{id}/cancel): a confirmed (or held) booking that
// has not ended, refunded by the policy, in full, not at all, or by an amount up to what the gym holds of it. The
// same cancellation as the member's (cancellation.ts), as an operator with the refund they chose. The booking row
// is locked, so a member cancelling at the same moment either finds it cancelled (and refunds nothing) or makes
// this one a 409. Audited with the reason.

export type OperatorRefundChoice =
  { mode: OperatorRefundMode } | { mode: 'amount'; amountCents: number | null };

export type CancelBookingInput = {
  actor: Actor;
  bookingId: number;
  refund: OperatorRefundChoice;
  reason: string;
};

export type CancelBookingDependencies = CancellationDependencies & { clock: Clock };

const amountRequired: Message = /*i18n*/ {
  id: 'validation.refundAmountRequired',
  message: '«refund.amount_eur» é obrigatório quando «refund.mode» é «amount»',
};

export async function cancelBooking(
  trx: Db,
  deps: CancelBookingDependencies,
  input: CancelBookingInput,
): Promise<{ refundedCents: number }> {
  const { refund } = input;
  if (refund.mode === 'amount' && refund.amountCents === null) {
    throw new AppError(
      'validation_failed',
      { problems: (locale) => translate(locale, amountRequired) },
      { fields: [{ field: 'refund.amount_eur', problem: 'required' }] },
    );
  }
  const at = deps.clock.now();
  const atDate = dateFromInstant(at);
  const [row] = await repository.lockBookings(trx, [input.bookingId]);
  if (!row) throw new AppError('booking_not_found');
  const ended = row.end_time <= atDate;
  const live = row.status === 'confirmed' || row.status === 'pending';
  if (!live || ended) throw new AppError('booking_not_cancelable');
  const [canceled] = await cancelLiveBookings(trx, deps, {
    bookingIds: [row.id],
    refundOf: (booking, policyCents, held) => {
      if (refund.mode !== 'amount') return refundOfMode(refund.mode)(booking, policyCents, held);
      if (refund.amountCents! > held) {
        throw new AppError('refund_exceeds_paid', { paid: (locale) => formatMoney(locale, held) });
      }
      return refund.amountCents!;
    },
    creditRatio: creditRatioOfMode(refund.mode),
    canceledBy: input.actor.email ?? 'cli',
    cause: { purpose: 'operator', actor: operatorActor(input.actor), reason: input.reason },
    notice: 'operator',
    at,
  });
  const refundedCents = canceled?.refundCents ?? 0;
  await recordAudit(
    trx,
    input.actor,
    {
      action: 'booking.cancel',
      entityType: 'booking',
      entityId: row.id,
      reason: input.reason,
      before: { status: row.status },
      after: {
        status: row.status === 'pending' ? 'expired' : 'canceled',
        refund_mode: refund.mode,
        refunded_eur: centsToEuros(refundedCents),
      },
    },
    atDate,
  );
  return { refundedCents };
}
