import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { TaxDocumentKind } from '../../db/schema.ts';
import { renderDocumentPdf } from './pdf.ts';
import type { DocumentToIssue, InvoicingProvider } from './provider.ts';

// Without a certified service (INVOICING_PROVIDER unset), documents are issued by the server itself so the whole
// flow works offline: numbered in a series of its own ('FR LOCAL/1'), with an ATCUD-shaped code, the QR code's
// text as Portaria 195/2020 lays it out, and a PDF marked in red as not valid for tax.

export const LOCAL_SERIES = 'LOCAL';

/**
 * The ATCUD's first part: the code the tax authority gives each series when it is registered, at least eight
 * characters, different for every series, so that no two documents share an ATCUD. The local series get
 * look-alikes: 'LOCALFR0', 'LOCALNC0', 'LOCALFS0'.
 */
export function localValidationCode(type: 'FR' | 'FS' | 'NC'): string {
  return `${LOCAL_SERIES}${type}0`;
}

/** SAF-T's document types: fatura-recibo, fatura simplificada, nota de crédito. */
export const SAFT_TYPES: Record<TaxDocumentKind, 'FR' | 'FS' | 'NC'> = {
  invoice_receipt: 'FR',
  simplified_invoice: 'FS',
  credit_note: 'NC',
};

/** The NIF a document without one names ('Consumidor final'), as the tax authority asks. */
export const FINAL_CONSUMER_TAX_ID = '999999990';

function euros(cents: number): string {
  return (cents / 100).toFixed(2);
}

/**
 * The QR code's text (Portaria 195/2020, annex): seller and buyer NIF, the buyer's country, type, status, date,
 * the document's id, ATCUD, the VAT region and its base and tax in the band of the rate (I3/I4 reduced, I5/I6
 * intermediate, I7/I8 normal; I2 exempt), total VAT, total, four characters of the signature and the software's
 * certificate number. The local provider signs nothing and has no certificate: '0000' and '0'.
 */
export function qrPayload(document: DocumentToIssue, number: string, atcud: string): string {
  const base = document.totalCents - document.vatCents;
  const percent = Math.round(document.vatRate * 100);
  const band =
    document.vatCents === 0
      ? [`I2:${euros(base)}`]
      : percent <= 6
        ? [`I3:${euros(base)}`, `I4:${euros(document.vatCents)}`]
        : percent <= 13
          ? [`I5:${euros(base)}`, `I6:${euros(document.vatCents)}`]
          : [`I7:${euros(base)}`, `I8:${euros(document.vatCents)}`];
  return [
    `A:${document.seller.taxId}`,
    `B:${document.buyer.taxId ?? FINAL_CONSUMER_TAX_ID}`,
    'C:PT',
    `D:${SAFT_TYPES[document.kind]}`,
    'E:N',
    `F:${document.date.replaceAll('-', '')}`,
    `G:${number}`,
    `H:${atcud}`,
    'I1:PT',
    ...band,
    `N:${euros(document.vatCents)}`,
    `O:${euros(document.totalCents)}`,
    'Q:0000',
    'R:0',
  ].join('*');
}

/** The next number of a series and kind, taken in the caller's transaction (the counter's row stays locked). */
async function nextNumber(trx: Db, series: string, kind: string): Promise<number> {
  const { rows } = await sql<{ last_number: number }>`
    insert into tax_document_counters (series, kind, last_number) values (${series}, ${kind}, 1)
    on conflict (series, kind) do update set last_number = tax_document_counters.last_number + 1
    returning last_number`.execute(trx);
  return Number(rows[0]!.last_number);
}

export function createLocalInvoicingProvider(): InvoicingProvider {
  return {
    name: 'local',
    issuesInTransaction: true,
    async issue(document, _progress, trx) {
      if (!trx) throw new Error('the local invoicing provider issues inside the storing transaction');
      const type = SAFT_TYPES[document.kind];
      const sequence = await nextNumber(trx, LOCAL_SERIES, type);
      const number = `${type} ${LOCAL_SERIES}/${sequence}`;
      const atcud = `${localValidationCode(type)}-${sequence}`;
      const payload = qrPayload(document, number, atcud);
      const pdf = await renderDocumentPdf({
        document,
        number,
        atcud,
        qrPayload: payload,
        notValidForTax: true,
      });
      return {
        providerDocumentId: `local-${type}-${sequence}`,
        number,
        atcud,
        qrPayload: payload,
        pdf,
        permalink: null,
      };
    },
  };
}
