import type { CompanyDetails } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { LocaleCode, TaxDocumentKind, TaxDocumentLine } from '../../db/schema.ts';

// Who issues the tax documents (docs/decisions.md, "Invoices and credit notes"): a certified invoicing service
// (InvoiceXpress) or the local look-alike. One interface; the invoicing module (server/invoicing) decides what
// each document says and when it is issued, the provider only issues it.

/** A document to issue, as recorded when its ledger row was written. */
export type DocumentToIssue = {
  kind: TaxDocumentKind;
  /** The ledger row, as the provider keeps it: issuing twice with it must never make two documents. */
  externalReference: string;
  /** The day it is dated, 'YYYY-MM-DD' in Lisbon. */
  date: string;
  seller: CompanyDetails;
  buyer: { name: string; taxId: string | null };
  lines: readonly TaxDocumentLine[];
  currency: string;
  totalCents: number;
  vatRate: number;
  vatCents: number;
  /** A credit note's invoice, as the provider issued it. */
  credited: { providerDocumentId: string; number: string; date: string } | null;
  /** The language of a PDF the server renders itself (a certified service writes its own, in Portuguese). */
  locale: LocaleCode;
};

export type IssuedDocument = {
  providerDocumentId: string;
  /** The document's number in its series, e.g. 'FR 2026/12'. */
  number: string;
  atcud: string;
  /** What the document's QR code says (Portaria 195/2020), or where the provider's QR code image is. */
  qrPayload: string;
  pdf: Uint8Array;
  /** The provider's page for the document, if it has one. */
  permalink: string | null;
};

/** Where an earlier attempt got to, so an attempt that timed out is resumed instead of issuing twice. */
export type IssueProgress = {
  /** The provider's id of the document, once an attempt created it. */
  providerDocumentId: string | null;
  /** An earlier attempt may have created the document without hearing the answer: look it up first. */
  mayExist: boolean;
  /** Keeps the provider's id as soon as it is known (its own transaction), for the next attempt. */
  created(providerDocumentId: string): Promise<void>;
};

export type InvoicingProvider = {
  readonly name: 'local' | 'invoicexpress';
  /**
   * The local provider numbers documents in the database: it issues inside the transaction that stores the
   * document (`trx` given), so a number is never taken without its document. A service is called outside any
   * transaction.
   */
  readonly issuesInTransaction: boolean;
  issue(document: DocumentToIssue, progress: IssueProgress, trx: Db | null): Promise<IssuedDocument>;
};

/** The provider cannot be reached or answers an error worth trying again (a timeout, 5xx, 429, 401): retried. */
export class InvoicingUnavailableError extends Error {
  override name = 'InvoicingUnavailableError';
}

/** The provider refused the document for good (422): the operator is told, it is not tried again. */
export class InvoicingRefusedError extends Error {
  override name = 'InvoicingRefusedError';
}
