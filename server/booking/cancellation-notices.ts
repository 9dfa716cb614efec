import { documentLinksOf } from './document-links.ts';
import type { DocumentRecorder } from './ledger.ts';
import { instantFromDate } from '../kernel/clock.ts';
import { insertOutboxMessage } from '../kernel/outbox.ts';
import { findSessionCards } from './checkout/repository.ts';
import type { Db } from '../db/database.ts';
import { messageAddressee, messageBookingTimes, findMessageContext } from '../notifications/index.ts';
import type { CalendarInput } from './calendar.ts';
import {
  bookingCancellationEmail,
  bookingCancellationSms,
  type CancellationReason,
} from './cancellation-message.ts';
import { endingRefundsOfBookings } from './ledger-repository.ts';
import { reviseCalendarEvents } from './repository.ts';
import { creditReturnedToBookings } from './wallet/repository.ts';

// Every path that ends a booking without it taking place (the member's cancellation, an account's deletion, an
// operator, a late payment refunded) tells the member through this one function, in the transaction of the
// change: the outbox delivers what that transaction committed, once (docs/decisions.md, 'Messages about a
// booking').

export type NoticeDependencies = {
  publicUrl: string;
  companyName: string;
  /** The e-mails' sender, named as the calendar events' ORGANIZER. */
  organizer: CalendarInput['organizer'];
  /** The links to the refunds' credit notes (the invoicing module); none without. */
  documents?: DocumentRecorder | null;
  /** How members reach the business (the company's e-mail, the support line). */
  contact: { email: string; phone: string | null };
};

const KIND: Record<CancellationReason, string> = {
  member: 'booking_canceled',
  account_deleted: 'booking_canceled',
  operator: 'booking_canceled',
  closure: 'booking_canceled',
  blocked: 'booking_canceled',
  late_payment: 'late_payment_refunded',
};

/**
 * Writes the cancellation e-mail (and the SMS for a booking due within 24 hours) of each member and branch
 * among the `ended` bookings, raising each booking's calendar SEQUENCE. What each says was refunded, and the
 * payments it went back to, are the ledger's rows of the refunds that ended the booking (written earlier in the
 * same transaction). A closed account gets nothing (no address is kept).
 */
export async function queueCancellationNotices(
  trx: Db,
  deps: NoticeDependencies,
  ended: readonly number[],
  reason: CancellationReason,
  now: Date,
  /** What the operator told the member (a cancellation's or a closure's reason). */
  note: string | null = null,
): Promise<void> {
  if (ended.length === 0) return;
  const refunds = await endingRefundsOfBookings(trx, ended);
  const creditBack = await creditReturnedToBookings(trx, ended);
  const revised = await reviseCalendarEvents(trx, [...new Set(ended)]);
  const groups = new Map<string, typeof revised>();
  for (const row of revised) {
    if (row.user_id === null) continue;
    const key = `${row.user_id}/${row.branch_id}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  /** The payments refunded; with no refund, the booking's own checkout. */
  const sessionsOf = (row: (typeof revised)[number]) =>
    refunds.get(row.id)?.sessionIds ?? (row.checkout_session_id ? [row.checkout_session_id] : []);
  const cards = await findSessionCards(trx, revised.flatMap(sessionsOf));
  for (const rows of groups.values()) {
    const first = rows[0]!;
    const context = await findMessageContext(trx, first.user_id!, first.branch_id);
    if (!context) continue;
    const sessions = [...new Set(rows.flatMap(sessionsOf))];
    const sessionCards = sessions.flatMap((id) => cards.get(id) ?? []);
    const sameCard =
      sessionCards.length === sessions.length &&
      sessionCards.every(
        (card) => card.last4 === sessionCards[0]?.last4 && card.brand === sessionCards[0]?.brand,
      );
    const input = {
      reason,
      ...messageAddressee(context),
      bookings: rows.map((row) => ({
        ...messageBookingTimes(row),
        refundCents: refunds.get(row.id)?.cents ?? 0,
        creditBackCents: creditBack.get(row.id) ?? 0,
        sequence: row.calendar_sequence,
      })),
      card: sameCard ? (sessionCards[0] ?? null) : null,
      paymentReference: sessions.length > 0 ? sessions.join(', ') : null,
      companyName: deps.companyName,
      organizer: deps.organizer,
      attendeeEmail: context.email ?? '',
      publicUrl: deps.publicUrl,
      note,
      contact: deps.contact,
      now: instantFromDate(now),
      documentUrls: await documentLinksOf(
        trx,
        deps.documents,
        rows.map((row) => row.id),
        now,
      ),
    };
    const ids = rows.map((row) => row.id).sort((a, b) => a - b);
    const dedupe = `${KIND[reason]}:${ids.join(',')}`;
    const common = { locale: context.locale, kind: KIND[reason], created_at: now, next_attempt_at: now };
    if (context.email) {
      const email = bookingCancellationEmail(input);
      await insertOutboxMessage(trx, {
        ...common,
        channel: 'email',
        recipient: context.email,
        subject: email.subject,
        text_body: email.text,
        html_body: email.html,
        attachments: JSON.stringify(email.attachments),
        dedupe_key: dedupe,
      });
    }
    const sms = context.phone_number ? bookingCancellationSms(input) : null;
    if (context.phone_number && sms) {
      await insertOutboxMessage(trx, {
        ...common,
        channel: 'sms',
        recipient: context.phone_number,
        subject: null,
        text_body: sms,
        html_body: null,
        dedupe_key: `${dedupe}:sms`,
      });
    }
  }
}
