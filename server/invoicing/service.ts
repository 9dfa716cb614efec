import type { FastifyBaseLogger } from 'fastify';
import type { CompanyDetails } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Clock } from '../kernel/clock.ts';
import { dateFromInstant, instantFromDate } from '../kernel/clock.ts';
import type { Locale } from '../kernel/i18n.ts';
import { recordAudit, type Actor } from '../kernel/audit.ts';
import { AppError } from '../kernel/errors.ts';
import { runTransaction } from '../kernel/transactions.ts';
import {
  InvoicingRefusedError,
  type DocumentToIssue,
  type InvoicingProvider,
  type IssuedDocument,
} from '../adapters/invoicing/index.ts';
import { documentFileName, queueDocumentEmail, queueRefusalAlert } from './messages.ts';
import { recordPendingDocument, type DocumentScheduler } from './record.ts';
import * as repository from './repository.ts';
import type { DocumentLinks } from './links.ts';

// Invoices and credit notes (docs/decisions.md, "Invoices and credit notes"): recorded `pending` with their
// ledger row, issued by a durable job (server/jobs/queue.ts, `invoiceIssue`) one document at a time. The provider
// being down only delays documents (the job is retried with backoff, and a sweep queues again whatever is still
// pending); a refusal marks the document `refused` and alerts the operator; nothing here ever holds up a booking.

/** Documents are dated in the business's calendar. */
const DOCUMENT_TIME_ZONE = 'Europe/Lisbon';

/** A credit note waits while its invoice is not issued yet; the job is retried. */
export class InvoiceNotIssuedYetError extends Error {
  override name = 'InvoiceNotIssuedYetError';
}

export type InvoicingDependencies = {
  db: Db;
  clock: Clock;
  provider: InvoicingProvider;
  company: CompanyDetails;
  companyName: string;
  simplifiedInvoices: boolean;
  operatorEmail: string | null;
  operatorLocale: Locale;
  log: FastifyBaseLogger;
  /** The signed links to documents' PDFs, for the links in the member's e-mails. */
  links: DocumentLinks;
  /** The queue's scheduler, once the queue is open (the composition root opens it after this service). */
  schedule: () => DocumentScheduler | null;
};

function lisbonDate(at: Date): string {
  return instantFromDate(at).toZonedDateTimeISO(DOCUMENT_TIME_ZONE).toPlainDate().toString();
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createInvoicingService(deps: InvoicingDependencies) {
  const { db, provider, log } = deps;
  const now = () => dateFromInstant(deps.clock.now());

  async function toIssue(document: repository.TaxDocumentRow): Promise<DocumentToIssue> {
    let credited: DocumentToIssue['credited'] = null;
    if (document.credited_document_id !== null) {
      let invoice = await repository.findDocument(db, document.credited_document_id);
      // Its invoice first, when its own job has not run yet (both were queued; either may come first). Only where
      // issuing takes the document's row lock (the local provider): a service's call is made outside any
      // transaction, so the invoice's own job alone calls it, and the credit note waits for it.
      if (invoice?.status === 'pending' && provider.issuesInTransaction) {
        await issue(invoice.id);
        invoice = await repository.findDocument(db, invoice.id);
      }
      if (!invoice || invoice.status === 'refused') {
        throw new InvoicingRefusedError('the invoice it credits was refused by the invoicing service');
      }
      if (invoice.status !== 'issued' || !invoice.provider_document_id || !invoice.number) {
        throw new InvoiceNotIssuedYetError(`invoice ${invoice.id} is not issued yet`);
      }
      credited = {
        providerDocumentId: invoice.provider_document_id,
        number: invoice.number,
        date: lisbonDate(invoice.created_at),
      };
    }
    return {
      kind: document.kind,
      externalReference: document.external_reference,
      date: lisbonDate(document.created_at),
      seller: deps.company,
      buyer: { name: document.buyer_name, taxId: document.buyer_tax_id },
      lines: document.lines,
      currency: document.currency,
      totalCents: document.total_cents,
      vatRate: Number(document.vat_rate),
      vatCents: document.vat_cents,
      credited,
      locale: document.locale,
    };
  }

  async function settleIssued(trx: Db, documentId: number, issued: IssuedDocument): Promise<void> {
    const at = now();
    if (!(await repository.markIssued(trx, documentId, issued, at))) return;
    const stored = await repository.findDocument(trx, documentId);
    if (stored) await queueDocumentEmail(trx, deps, stored, at);
  }

  async function refuse(document: repository.TaxDocumentRow, reason: string): Promise<void> {
    log.error(
      { documentId: document.id, ledgerEntryId: document.ledger_entry_id, reason },
      'the invoicing service refused a tax document; the operator is alerted',
    );
    await runTransaction(db, { name: 'refuse tax document' }, async (trx) => {
      if (await repository.markRefused(trx, document.id, reason, now())) {
        await queueRefusalAlert(
          trx,
          { operatorEmail: deps.operatorEmail, operatorLocale: deps.operatorLocale },
          document,
          reason,
          now(),
        );
      }
    });
  }

  /**
   * Issues one pending document through the provider and stores its number, ATCUD, QR code and PDF. Throws what
   * should be tried again (the provider unreachable, a credit note's invoice not issued yet): the job retries.
   */
  async function issue(documentId: number): Promise<'issued' | 'refused' | 'not_pending'> {
    const document = await repository.findDocument(db, documentId);
    if (!document || document.status !== 'pending') return 'not_pending';
    let toBeIssued: DocumentToIssue;
    try {
      toBeIssued = await toIssue(document);
    } catch (error) {
      if (error instanceof InvoicingRefusedError) {
        await refuse(document, describe(error));
        return 'refused';
      }
      throw error;
    }
    const earlierAttempts = await repository.countAttempt(db, documentId, now());
    try {
      if (provider.issuesInTransaction) {
        return await runTransaction(db, { name: 'issue tax document' }, async (trx) => {
          const locked = await repository.lockDocument(trx, documentId);
          if (locked?.status !== 'pending') return 'not_pending' as const;
          const issued = await provider.issue(
            toBeIssued,
            { providerDocumentId: null, mayExist: false, created: async () => {} },
            trx,
          );
          await settleIssued(trx, documentId, issued);
          return 'issued' as const;
        });
      }
      const issued = await provider.issue(
        toBeIssued,
        {
          providerDocumentId: document.provider_document_id,
          mayExist: earlierAttempts > 0,
          created: (id) => repository.saveProviderDocumentId(db, documentId, id, now()),
        },
        null,
      );
      await runTransaction(db, { name: 'store tax document' }, (trx) =>
        settleIssued(trx, documentId, issued),
      );
      return 'issued';
    } catch (error) {
      if (error instanceof InvoicingRefusedError) {
        await refuse(document, describe(error));
        return 'refused';
      }
      await repository.noteError(db, documentId, describe(error), now());
      throw error;
    }
  }

  return {
    /** The port booking's ledger records each new row's document through (in the row's transaction). */
    recorder: {
      recordPending: async (trx: Db, ledgerEntryId: number, at: Date) => {
        await recordPendingDocument(
          trx,
          { provider: provider.name, simplifiedInvoices: deps.simplifiedInvoices, schedule: deps.schedule },
          ledgerEntryId,
          at,
        );
      },
      // The link works once the document is issued (404 before): the e-mail is written before any provider is asked.
      linkOf: async (trx: Db, ledgerEntryId: number) => {
        const document = await repository.findDocumentOfEntry(trx, ledgerEntryId);
        return document ? deps.links.url(document.id) : null;
      },
    },
    issue,
    /** Queues again every document still pending (after an outage longer than the job's retries). */
    async sweep(): Promise<number> {
      const scheduler = deps.schedule();
      if (!scheduler) return 0;
      const pending = await repository.listPendingDocumentIds(db, 500);
      for (const id of pending) await scheduler.schedule(db, id);
      return pending.length;
    },
    /** A stored document's PDF, for the member's and the operator's pages. */
    async pdfOf(documentId: number): Promise<Uint8Array | null> {
      return (await repository.findDocument(db, documentId))?.pdf ?? null;
    },
    /** An issued document's PDF and its file name; 404 `not_found` while there is none. */
    async pdfFile(documentId: number): Promise<{ pdf: Uint8Array; fileName: string }> {
      const document = await repository.findDocument(db, documentId);
      if (document?.status !== 'issued' || !document.pdf) throw new AppError('not_found');
      return { pdf: document.pdf, fileName: documentFileName(document) };
    },
    /** The member's e-mail with an issued document, queued again from the console; audited. */
    async resend(actor: Actor, documentId: number): Promise<void> {
      await runTransaction(db, { name: 'resend tax document' }, async (trx) => {
        const document = await repository.findDocument(trx, documentId);
        if (document?.status !== 'issued') throw new AppError('not_found');
        const at = now();
        const key = `tax_document:${document.id}:resent:${at.toISOString()}`;
        if (!(await queueDocumentEmail(trx, deps, document, at, key))) throw new AppError('not_found');
        await recordAudit(
          trx,
          actor,
          { action: 'tax_document.resend', entityType: 'tax_document', entityId: document.id },
          at,
        );
      });
    },
  };
}

export type InvoicingService = ReturnType<typeof createInvoicingService>;
