import type { Temporal } from 'temporal-polyfill';
import type { CompanyDetails } from '../config.ts';
import { escapeHtml } from '../kernel/html.ts';
import { INTL_LOCALES, type Locale, type Message, translator } from '../kernel/i18n.ts';
import { formatMoney } from '../kernel/money.ts';
import { describeSlotTime } from '../kernel/time-format.ts';

// The receipt in the confirmation e-mail: who sold what to whom, each slot's price, the coupon, the VAT the
// prices include and the payment's reference. The total and its VAT are the payment's row of the money ledger. It is not a certified tax invoice (docs/operations.md says how an
// invoicing service would issue one).

export type ReceiptSlot = {
  start: Temporal.Instant;
  end: Temporal.Instant;
  basePriceCents: number;
  finalPriceCents: number;
};

export type ReceiptInput = {
  locale: Locale;
  company: CompanyDetails;
  customer: { firstName: string; lastName: string; taxId: string | null };
  timeZone: string;
  slots: readonly ReceiptSlot[];
  coupon: { code: string; discount: number } | null;
  /**
   * The payment as the ledger recorded it (its amount, the VAT it includes at its rate, the checkout session as
   * its reference), or null for a booking that cost nothing.
   */
  payment: { reference: string; amountCents: number; vatCents: number; vatRate: number } | null;
  /** The signed link to the payment's invoice (PDF), once the invoicing module recorded one. */
  documentUrl?: string | null;
};

/**
 * The VAT contained in a price that includes it, in cents: the price less its net, the net being the price
 * divided by (1 + rate) rounded half up to the cent. Computed once on the total (one rate applies to every
 * slot), so the receipt's lines and its VAT never disagree by a rounded cent per line.
 */
export function includedVatCents(totalCents: number, rate: number): number {
  if (!Number.isInteger(totalCents) || totalCents < 0) throw new RangeError(`not cents: ${totalCents}`);
  // The rate in basis points keeps the division in integers (0.23 -> 2300 of 10 000).
  const rateScaled = Math.round(rate * 10_000);
  const netCents = Math.floor(
    (totalCents * 10_000 * 2 + (10_000 + rateScaled)) / ((10_000 + rateScaled) * 2),
  );
  return totalCents - netCents;
}

const TEXTS = {
  title: /*i18n*/ { id: 'receipt.title', message: 'Recibo (não é uma fatura)' },
  seller: /*i18n*/ { id: 'receipt.seller', message: 'Vendedor: {name}, {address}, NIF {taxId}' },
  customer: /*i18n*/ { id: 'receipt.customer', message: 'Cliente: {name}' },
  customerTaxId: /*i18n*/ { id: 'receipt.customerTaxId', message: 'Cliente: {name}, NIF {taxId}' },
  coupon: /*i18n*/ { id: 'receipt.coupon', message: 'Cupão {code}: -{percent} em cada hora abrangida' },
  total: /*i18n*/ { id: 'receipt.total', message: 'Total (IVA incluído): {total}' },
  vat: /*i18n*/ { id: 'receipt.vat', message: 'IVA {rate} incluído: {vat}' },
  reference: /*i18n*/ { id: 'receipt.reference', message: 'Referência do pagamento: {reference}' },
  free: /*i18n*/ { id: 'receipt.free', message: 'Sem pagamento (total 0).' },
  document: /*i18n*/ {
    id: 'receipt.document',
    message: 'A fatura desta compra (PDF, disponível assim que for emitida): {url}',
  },
} as const satisfies Record<string, Message>;

function percent(locale: Locale, fraction: number): string {
  return new Intl.NumberFormat(INTL_LOCALES[locale], { style: 'percent', maximumFractionDigits: 2 }).format(
    fraction,
  );
}

/** The receipt as lines of text (the e-mail's text part) and as HTML (its HTML part). */
export function bookingReceipt(input: ReceiptInput): { text: string[]; html: string } {
  const t = translator(input.locale);
  const { locale, company } = input;
  const name = `${input.customer.firstName} ${input.customer.lastName}`.trim();
  const slots = [...input.slots].sort((a, b) => a.start.epochMilliseconds - b.start.epochMilliseconds);
  const slotLines = slots.map((slot) => {
    const when = describeSlotTime(locale, input.timeZone, slot.start, slot.end);
    const price =
      slot.finalPriceCents === slot.basePriceCents
        ? formatMoney(locale, slot.finalPriceCents)
        : `${formatMoney(locale, slot.basePriceCents)} -> ${formatMoney(locale, slot.finalPriceCents)}`;
    return `${when}: ${price}`;
  });
  const totalCents = input.payment?.amountCents ?? slots.reduce((sum, slot) => sum + slot.finalPriceCents, 0);
  const vatRate = input.payment?.vatRate ?? company.vatRate;
  const lines = [
    t(TEXTS.title),
    t(TEXTS.seller, { name: company.name, address: company.address, taxId: company.taxId }),
    input.customer.taxId
      ? t(TEXTS.customerTaxId, { name, taxId: input.customer.taxId })
      : t(TEXTS.customer, { name }),
    ...slotLines.map((line) => `- ${line}`),
    ...(input.coupon
      ? [t(TEXTS.coupon, { code: input.coupon.code, percent: percent(locale, input.coupon.discount) })]
      : []),
    t(TEXTS.total, { total: formatMoney(locale, totalCents) }),
    t(TEXTS.vat, {
      rate: percent(locale, vatRate),
      vat: formatMoney(locale, input.payment?.vatCents ?? includedVatCents(totalCents, vatRate)),
    }),
    input.payment ? t(TEXTS.reference, { reference: input.payment.reference }) : t(TEXTS.free),
    ...(input.documentUrl ? [t(TEXTS.document, { url: input.documentUrl })] : []),
  ];
  const [title, ...rest] = lines;
  const html = [
    `<h2 style="font-size:1.1em">${escapeHtml(title!)}</h2>`,
    `<p>${rest
      .slice(0, 2)
      .map((line) => escapeHtml(line))
      .join('<br>')}</p>`,
    `<ul>${slotLines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    `<p>${rest
      .slice(2 + slotLines.length, input.documentUrl ? -1 : undefined)
      .map((line) => escapeHtml(line))
      .join('<br>')}</p>`,
    ...(input.documentUrl
      ? [
          `<p><a href="${escapeHtml(input.documentUrl)}">${escapeHtml(t(TEXTS.document, { url: input.documentUrl }))}</a></p>`,
        ]
      : []),
  ].join('\n');
  return { text: lines, html };
}
