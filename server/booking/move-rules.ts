import type { components } from '../../openapi/schema.gen.ts';

// What refuses a slot as a booking's new slot: one list, read by the move itself (moves.ts, which turns a refusal
// into its error) and by the console's move picker (the slots of a day, each with why it cannot be chosen), so the
// picker never offers a slot the move refuses, nor greys out one it would take.

export type MoveRefusal = NonNullable<components['schemas']['AdminMoveOption']['unavailable']>;

export type MoveTarget = {
  id: number;
  start_time: Date;
  price_cents: number;
  /** A closure in force covers it. */
  closed: boolean;
  /** A live booking holds it (the move learns this from the database's exclusion constraint instead). */
  taken: boolean;
};

/**
 * Why `slot` cannot take `booking`, in the order the move checks: its own slot, started, closed, taken, and (for
 * an operator, who moves at the same price) another base price; null when it can.
 */
export function moveRefusal(
  booking: { slot_id: number; base_price_cents: number },
  slot: MoveTarget,
  now: Date,
  by: 'member' | 'operator',
): MoveRefusal | null {
  if (slot.id === booking.slot_id) return 'current';
  if (slot.start_time <= now) return 'started';
  if (slot.closed) return 'closed';
  if (slot.taken) return 'taken';
  if (by === 'operator' && slot.price_cents !== booking.base_price_cents) return 'price_differs';
  return null;
}
