import type { Db } from '../db/database.ts';
import type { LocaleCode, TaxDocumentKind, TaxDocumentLine } from '../db/schema.ts';
import { instantFromDate } from '../kernel/clock.ts';
import { resolveLocale, translator, type Message } from '../kernel/i18n.ts';
import { describeSlotTime } from '../kernel/time-format.ts';
import { TAX_DOCUMENT_TEXTS } from '../adapters/invoicing/index.ts';
import * as repository from './repository.ts';
import { describeCredit, VOUCHER_TIME_ZONE, walletRepository } from '../booking/index.ts';

// What each ledger row's document says, fixed in the row's own transaction (docs/decisions.md, "Invoices and
// credit notes"): the buyer (the member's name and NIF when the member gave a NIF, else 'Consumidor final'), one
// line per slot (branch, day and time, the price before and after a coupon), the VAT the row recorded. A payment
// gets a fatura-recibo, or a fatura simplificada for a buyer without a NIF up to 100 € where the operator enabled
// them; a refund a credit note naming the document of the payment it pays back, for the same buyer.

/** The day credit stops covering sessions, as its e-mails and the wallet name it: a date of the zone it was counted in. */
function localDay(expiresAt: Date, timeZone: string): string {
  return instantFromDate(expiresAt).toZonedDateTimeISO(timeZone).toPlainDate().toString();
}

/** CIVA art. 40: a fatura simplificada for services is allowed up to 100 €. */
export const SIMPLIFIED_INVOICE_LIMIT_CENTS = 100_00;

const LINE_TEXTS = {
  booking: /*i18n*/ { id: 'taxDocument.line.booking', message: 'Reserva de sala de treino – {branch}' },
  moveDifference: /*i18n*/ {
    id: 'taxDocument.line.moveDifference',
    message: 'Diferença de preço da mudança de reserva – {branch}',
  },
  refund: /*i18n*/ { id: 'taxDocument.line.refund', message: 'Devolução de reserva – {branch}' },
  creditPack: /*i18n*/ { id: 'taxDocument.line.creditPack', message: 'Pacote pré-pago «{name}»' },
  giftVoucher: /*i18n*/ { id: 'taxDocument.line.giftVoucher', message: 'Vale de oferta {code}' },
  giftVoucherDetail: /*i18n*/ {
    id: 'taxDocument.line.giftVoucherDetail',
    message: 'Crédito para sessões em qualquer espaço, válido até {day}',
  },
  creditPackDetail: /*i18n*/ {
    id: 'taxDocument.line.creditPackDetail',
    message: '{credit} de crédito para sessões, válido até {day}',
  },
  coupon: /*i18n*/ { id: 'taxDocument.line.coupon', message: '{slot}; cupão {code}' },
} satisfies Record<string, Message>;

export type DocumentScheduler = {
  /** Queues the document's issuing in the caller's transaction. */
  schedule(trx: Db, documentId: number): Promise<void>;
};

export type RecordDependencies = {
  provider: 'local' | 'invoicexpress';
  simplifiedInvoices: boolean;
  schedule: () => DocumentScheduler | null;
};

/** The reference the provider keeps with a ledger row's document: issuing it twice can never make two. */
export function externalReference(ledgerEntryId: number): string {
  return `ledger-${ledgerEntryId}`;
}

/**
 * Records the document of a ledger row just written, `pending`, and queues its issuing, both in the row's
 * transaction. A refund of money paid before documents were issued (no invoice to credit) records none.
 */
export async function recordPendingDocument(
  trx: Db,
  deps: RecordDependencies,
  ledgerEntryId: number,
  at: Date,
): Promise<number | null> {
  const entry = await repository.findLedgerEntry(trx, ledgerEntryId);
  if (!entry) throw new Error(`ledger entry ${ledgerEntryId} not found`);
  // A certified service writes Portuguese documents; the local look-alike writes the member's language.
  const locale: LocaleCode = deps.provider === 'local' ? resolveLocale(entry.locale) : 'pt';
  const t = translator(locale);
  const bookings = await repository.findEntryBookings(trx, ledgerEntryId);
  const moveTarget =
    entry.purpose === 'move_difference'
      ? await repository.findMoveTarget(trx, entry.checkout_session_id)
      : undefined;
  // A refund credits its payment's document: the buyer, and each line's slot, are the ones that document named
  // (a booking moved since then would otherwise be described at its new time).
  const invoice =
    entry.kind === 'refund' && entry.refunded_entry_id !== null
      ? await repository.findDocumentOfEntry(trx, entry.refunded_entry_id)
      : undefined;
  if (entry.kind === 'refund' && !invoice) return null;
  const invoicedLines = new Map(
    (invoice?.lines ?? []).flatMap((line) =>
      line.booking_id === undefined ? [] : [[line.booking_id, line]],
    ),
  );
  const lines: TaxDocumentLine[] = bookings.map((booking) => {
    const start = moveTarget?.start_time ?? booking.start_time;
    const end = moveTarget?.end_time ?? booking.end_time;
    const slot = describeSlotTime(locale, booking.time_zone, instantFromDate(start), instantFromDate(end));
    if (entry.kind === 'refund')
      return {
        booking_id: booking.booking_id,
        description: t(LINE_TEXTS.refund, { branch: booking.branch_name }),
        detail: invoicedLines.get(booking.booking_id)?.detail ?? slot,
        base_cents: booking.amount_cents,
        amount_cents: booking.amount_cents,
      };
    const text = entry.purpose === 'move_difference' ? LINE_TEXTS.moveDifference : LINE_TEXTS.booking;
    // A checkout's share of a slot is its final price: the price before its coupon is the booking's base price.
    const couponed =
      entry.purpose === 'booking' &&
      booking.coupon_code !== null &&
      booking.amount_cents === booking.final_price_cents;
    return {
      booking_id: booking.booking_id,
      description: t(text, { branch: booking.branch_name }),
      detail: couponed ? t(LINE_TEXTS.coupon, { slot, code: booking.coupon_code! }) : slot,
      base_cents: couponed ? booking.base_price_cents : booking.amount_cents,
      amount_cents: booking.amount_cents,
    };
  });

  // A pack's sale (issue 31) concerns no booking: one line, the credit it bought and until when.
  if (entry.purpose === 'credit_pack') {
    const lot = await walletRepository.findLotOfLedgerEntry(trx, ledgerEntryId);
    if (lot) {
      lines.push({
        description: t(LINE_TEXTS.creditPack, { name: lot.name }),
        detail: t(LINE_TEXTS.creditPackDetail, {
          credit: describeCredit(locale, lot.unit, lot.initial),
          day: localDay(lot.expires_at, lot.time_zone),
        }),
        base_cents: entry.amount_cents,
        amount_cents: entry.amount_cents,
      });
    }
  }

  if (entry.purpose === 'gift_voucher') {
    const voucher = await walletRepository.findVoucherOfLedgerEntry(trx, ledgerEntryId);
    if (voucher?.code) {
      lines.push({
        description: t(LINE_TEXTS.giftVoucher, { code: voucher.code }),
        detail: t(LINE_TEXTS.giftVoucherDetail, { day: localDay(voucher.expires_at!, VOUCHER_TIME_ZONE) }),
        base_cents: entry.amount_cents,
        amount_cents: entry.amount_cents,
      });
    }
  }

  let kind: TaxDocumentKind;
  let creditedId: number | null = null;
  let buyer: { name: string; taxId: string | null };
  if (invoice) {
    kind = 'credit_note';
    creditedId = invoice.id;
    buyer = { name: invoice.buyer_name, taxId: invoice.buyer_tax_id };
  } else {
    const taxId = entry.tax_id ?? null;
    const name = [entry.first_name, entry.last_name].filter(Boolean).join(' ').trim();
    buyer = taxId
      ? { name: name || t(TAX_DOCUMENT_TEXTS.finalConsumer), taxId }
      : { name: t(TAX_DOCUMENT_TEXTS.finalConsumer), taxId: null };
    kind =
      deps.simplifiedInvoices && !taxId && entry.amount_cents <= SIMPLIFIED_INVOICE_LIMIT_CENTS
        ? 'simplified_invoice'
        : 'invoice_receipt';
  }

  const documentId = await repository.insertDocument(trx, {
    ledger_entry_id: ledgerEntryId,
    kind,
    provider: deps.provider,
    external_reference: externalReference(ledgerEntryId),
    credited_document_id: creditedId,
    user_id: entry.user_id,
    locale,
    buyer_name: buyer.name,
    buyer_tax_id: buyer.taxId,
    lines: JSON.stringify(lines),
    currency: entry.currency,
    total_cents: entry.amount_cents,
    vat_rate: Number(entry.vat_rate),
    vat_cents: entry.vat_cents,
    created_at: at,
  });
  if (documentId === undefined) return null;
  await deps.schedule()?.schedule(trx, documentId);
  return documentId;
}
