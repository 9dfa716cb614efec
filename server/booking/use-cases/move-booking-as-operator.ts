import { recordAudit, type Actor } from '../../kernel/audit.ts';
import { dateFromInstant, type Clock } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import type { BookingService } from '../service.ts';

// An operator's move (the console's POST /admin/bookings/{id}/move): a confirmed booking that has not started to a
// free slot of the same branch and the same price, by the one set of moving rules (moves.ts, moveStep) the member's
// move follows, as an operator: no payment, no refund; the door code follows, the T-30 message is re-timed, the
// member is told. Audited with the reason.

export type MoveBookingAsOperatorInput = { actor: Actor; bookingId: number; slotId: number; reason: string };

export async function moveBookingAsOperator(
  trx: Db,
  deps: { clock: Clock; bookings: Pick<BookingService, 'moveAsOperator'> },
  input: MoveBookingAsOperatorInput,
): Promise<void> {
  const at = dateFromInstant(deps.clock.now());
  const { from, to } = await deps.bookings.moveAsOperator(trx, input.bookingId, input.slotId);
  await recordAudit(
    trx,
    input.actor,
    {
      action: 'booking.move',
      entityType: 'booking',
      entityId: input.bookingId,
      reason: input.reason,
      before: { slot_id: from.slot_id, start_time: from.start_time.toISOString() },
      after: { slot_id: to.id, start_time: to.start_time.toISOString() },
    },
    at,
  );
}
