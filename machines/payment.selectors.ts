import type { PaymentContext, SessionBooking } from './payment.machine.ts';

// What the payment result says (docs/decisions.md, 'Messages about a booking'): never "successful" for slots
// the member does not have.

/**
 * What a completed checkout came to: `booked` (at least one slot confirmed), `refunded` (the payment arrived
 * after the hold ended and was paid back: nothing was booked), `processing` (complete but not yet paid, e.g. a
 * bank transfer), or `ended` (its bookings were cancelled or released since).
 */
export type PaymentOutcome = 'booked' | 'refunded' | 'processing' | 'ended';

export function bookedSlots(context: PaymentContext): SessionBooking[] {
  return context.bookings.filter((booking) => booking.status === 'confirmed');
}

/** Slots paid for after their hold ended, and refunded. */
export function refundedSlots(context: PaymentContext): SessionBooking[] {
  return context.bookings.filter((booking) => booking.status === 'expired' && booking.refunded_eur > 0);
}

export function paymentOutcome(context: PaymentContext): PaymentOutcome {
  if (bookedSlots(context).length > 0) return 'booked';
  if (refundedSlots(context).length > 0) return 'refunded';
  if (context.bookings.some((booking) => booking.status === 'pending')) return 'processing';
  return 'ended';
}

/**
 * What a checkout that sells a prepaid pack came to (issue 31): `credited` (paid: the credit is in the wallet until
 * its expiry), `awaiting` (complete but its money not yet arrived: a Multibanco voucher, an MB WAY request), or null
 * when it sells no pack or is not complete (open, expired: said as for any checkout).
 */
export function packOutcome(context: PaymentContext): 'credited' | 'awaiting' | null {
  if (!context.creditPack || context.status !== 'complete') return null;
  return context.creditPack.expires_at === null ? 'awaiting' : 'credited';
}

/**
 * What a checkout that sells a gift voucher came to (issue 31): `sent` (paid: the voucher has its code and was
 * e-mailed to its recipient), `awaiting` (complete but its money not yet arrived), or null when it sells no voucher
 * or is not complete.
 */
export function giftOutcome(context: PaymentContext): 'sent' | 'awaiting' | null {
  if (!context.giftVoucher || context.status !== 'complete') return null;
  return context.giftVoucher.code === null ? 'awaiting' : 'sent';
}
