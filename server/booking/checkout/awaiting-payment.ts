import { Temporal } from 'temporal-polyfill';
import { formatLocalTime } from '../../catalog/index.ts';
import { instantFromDate } from '../../kernel/clock.ts';
import { centsToEuros } from '../../kernel/money.ts';
import type { components } from '../../../openapi/schema.gen.ts';
import type { CheckoutSessionRow } from './repository.ts';

// What a member awaiting a Multibanco voucher's or an MB WAY approval's money is shown: the result dialog
// (session status) and My bookings read it alike.

/**
 * A checkout completed without its money whose bookings still hold their slots: what the member must pay and
 * until when. Undefined otherwise (paid, failed, released, never completed).
 */
export function awaitingPaymentOf(
  session: CheckoutSessionRow,
  bookings: readonly { status: string; hold_expires_at: Date | null; time_zone: string }[],
  now: Date,
): components['schemas']['AwaitingPayment'] | undefined {
  if (session.status !== 'complete' || session.payment_status !== 'unpaid') return undefined;
  if (session.payment_method !== 'multibanco' && session.payment_method !== 'mb_way') return undefined;
  const held = bookings.filter(
    (booking) =>
      booking.status === 'pending' && booking.hold_expires_at !== null && booking.hold_expires_at > now,
  );
  const first = held[0];
  if (!first) return undefined;
  const heldUntil = Math.min(...held.map((booking) => booking.hold_expires_at!.getTime()));
  const voucher =
    session.payment_method === 'multibanco' && session.voucher_entity && session.voucher_reference
      ? {
          entity: session.voucher_entity,
          reference: session.voucher_reference,
          expires_at: formatLocalTime(instantFromDate(session.voucher_expires_at!), first.time_zone),
          voucher_url: session.voucher_url,
        }
      : null;
  return {
    method: session.payment_method,
    amount_eur: centsToEuros(session.amount_cents),
    held_until: formatLocalTime(Temporal.Instant.fromEpochMilliseconds(heldUntil), first.time_zone),
    voucher,
  };
}
