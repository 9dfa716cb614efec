// The invoicing module's public face: each ledger row's tax document (a fatura-recibo or fatura simplificada for
// a payment, a credit note for a refund), recorded with the row and issued by a job through the invoicing
// provider. Other modules and the composition root import this file, never the files behind it.

export { externalReference, SIMPLIFIED_INVOICE_LIMIT_CENTS } from './record.ts';
export type { DocumentScheduler } from './record.ts';
export { createInvoicingService, InvoiceNotIssuedYetError } from './service.ts';
export type { InvoicingService } from './service.ts';
export { createDocumentLinks } from './links.ts';
export type { DocumentLinks } from './links.ts';
export { invoicingHandlers } from './handlers.ts';
