import type { Config } from '../../config.ts';
import { createInvoiceXpressProvider } from './invoicexpress.ts';
import { createLocalInvoicingProvider } from './local.ts';
import type { InvoicingProvider } from './provider.ts';

export { FINAL_CONSUMER_TAX_ID, LOCAL_SERIES, qrPayload } from './local.ts';
export { TAX_DOCUMENT_TEXTS, kindTitle } from './pdf.ts';
export {
  InvoicingRefusedError,
  InvoicingUnavailableError,
  type DocumentToIssue,
  type InvoicingProvider,
  type IssuedDocument,
  type IssueProgress,
} from './provider.ts';

/** The configured provider: InvoiceXpress when INVOICING_PROVIDER=invoicexpress, else the offline `local` one. */
export function createInvoicingProvider(config: Config): InvoicingProvider {
  const invoicing = config.invoicing;
  return invoicing.provider === 'invoicexpress'
    ? createInvoiceXpressProvider({
        apiUrl: invoicing.apiUrl,
        apiKey: invoicing.apiKey,
        sequenceId: invoicing.series,
        timeoutMs: invoicing.timeoutMs,
      })
    : createLocalInvoicingProvider();
}
