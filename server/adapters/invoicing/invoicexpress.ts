import type { TaxDocumentKind } from '../../db/schema.ts';
import {
  InvoicingRefusedError,
  InvoicingUnavailableError,
  type DocumentToIssue,
  type InvoicingProvider,
} from './provider.ts';

// InvoiceXpress (software certified by the Autoridade Tributária), through its documented REST API v2
// (https://www.invoicexpress.com/api-v2): https://ACCOUNT.app.invoicexpress.com/<resource>.json?api_key=KEY,
// JSON bodies wrapped in the document type's name. There is no SDK here, so the platform's fetch calls it.
//
// A document is created as a draft (POST /<type>s.json, with our ledger row as its `reference`), finalised
// (PUT /<type>s/:id/change-state.json, state `finalized`: the service numbers it, gives it its ATCUD and
// communicates it), read back (GET /<type>s/:id.json), its QR code (GET /api/qr_codes/:id.json) and its PDF
// (GET /api/pdf/:id.json: 202 while it is being generated, then 200 with the file's address) fetched. Each step
// can be resumed: the draft's id is kept as soon as it is known, an attempt after a lost answer first looks the
// reference up (GET /invoices.json?text=<reference>&type[]=...), and a document already final is not finalised
// again. Answers: 401 a wrong key, 404 a wrong account or id, 422 a document the service refuses, 429 the rate
// limit, 5xx its own trouble; all but 422 are tried again later.

type DocumentPath = 'invoice_receipts' | 'simplified_invoices' | 'credit_notes';
type DocumentRoot = 'invoice_receipt' | 'simplified_invoice' | 'credit_note';

const DOCUMENT_TYPES: Record<TaxDocumentKind, { path: DocumentPath; root: DocumentRoot; listType: string }> =
  {
    invoice_receipt: { path: 'invoice_receipts', root: 'invoice_receipt', listType: 'InvoiceReceipt' },
    simplified_invoice: {
      path: 'simplified_invoices',
      root: 'simplified_invoice',
      listType: 'SimplifiedInvoice',
    },
    credit_note: { path: 'credit_notes', root: 'credit_note', listType: 'CreditNote' },
  };

/** A document as the API answers it (the fields read here). */
type ApiDocument = {
  id: number;
  status: string;
  reference?: string | null;
  sequence_number?: string | null;
  inverted_sequence_number?: string | null;
  atcud?: string | null;
  permalink?: string | null;
  type?: string;
};

export type InvoiceXpressOptions = {
  /** https://ACCOUNT.app.invoicexpress.com, or a test server. */
  apiUrl: string;
  apiKey: string;
  /** The sequence (series) documents are numbered in; the account's default when null. */
  sequenceId: string | null;
  /** One call, each try. */
  timeoutMs: number;
  /** How long to wait between polls of a PDF being generated. */
  pdfPollMs?: number;
};

/** 'dd/mm/yyyy', the API's date format. */
function apiDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-');
  return `${day}/${month}/${year}`;
}

/** The price before VAT of a gross amount, to four decimals (the service adds the VAT and rounds the total). */
function netUnitPrice(grossCents: number, vatRate: number): string {
  return (grossCents / 100 / (1 + vatRate)).toFixed(4);
}

/** The name of the account's tax at a rate, as Portuguese accounts have them ('IVA23', 'IVA13', 'IVA6', 'IVA0'). */
export function taxName(vatRate: number): string {
  return `IVA${Math.round(vatRate * 100)}`;
}

function errorsOf(body: unknown): string {
  if (body && typeof body === 'object' && 'errors' in body) {
    const errors = body.errors;
    if (Array.isArray(errors)) {
      return errors
        .map((entry: unknown) =>
          entry && typeof entry === 'object' && 'error' in entry
            ? String(entry.error)
            : JSON.stringify(entry),
        )
        .join('; ');
    }
    return JSON.stringify(errors);
  }
  return JSON.stringify(body ?? null).slice(0, 300);
}

export function createInvoiceXpressProvider(options: InvoiceXpressOptions): InvoicingProvider {
  const base = options.apiUrl.replace(/\/+$/, '');
  const pollMs = options.pdfPollMs ?? 1000;

  function url(path: string, query: Record<string, string | string[]> = {}): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      for (const each of Array.isArray(value) ? value : [value]) params.append(key, each);
    }
    params.set('api_key', options.apiKey);
    return `${base}/${path}?${params.toString()}`;
  }

  /** One call: answers status and parsed body, or throws what the job makes of it. */
  async function call(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: unknown,
    query?: Record<string, string | string[]>,
  ): Promise<{ status: number; body: unknown }> {
    let response: Response;
    try {
      response = await fetch(url(path, query), {
        method,
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      // A timeout may come after the service did the work: the next attempt looks before it acts.
      throw new InvoicingUnavailableError(`InvoiceXpress ${method} ${path}: no answer`, { cause: error });
    }
    const text = await response.text().catch(() => '');
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text.slice(0, 300);
    }
    if (response.status === 422) {
      throw new InvoicingRefusedError(`InvoiceXpress refused the document: ${errorsOf(parsed)}`);
    }
    if (response.status >= 400) {
      const what =
        response.status === 401
          ? 'the API key was refused'
          : response.status === 404
            ? 'not found (account or document)'
            : response.status === 429
              ? 'rate limit reached'
              : `answered ${response.status}`;
      throw new InvoicingUnavailableError(`InvoiceXpress ${method} ${path}: ${what}`);
    }
    return { status: response.status, body: parsed };
  }

  function documentIn(body: unknown, root: DocumentRoot): ApiDocument {
    const document = (body as Record<string, ApiDocument | undefined> | null)?.[root];
    if (!document || typeof document.id !== 'number') {
      throw new InvoicingUnavailableError(`InvoiceXpress answered without a ${root}`);
    }
    return document;
  }

  async function findByReference(kind: TaxDocumentKind, reference: string): Promise<string | null> {
    const { listType } = DOCUMENT_TYPES[kind];
    const { body } = await call('GET', 'invoices.json', undefined, {
      text: reference,
      'type[]': [listType],
      per_page: '50',
    });
    const found = ((body as { invoices?: ApiDocument[] } | null)?.invoices ?? []).filter(
      (document) => document.reference === reference && document.status !== 'deleted',
    );
    return found[0] ? String(found[0].id) : null;
  }

  function draftBody(document: DocumentToIssue) {
    const { root } = DOCUMENT_TYPES[document.kind];
    const date = apiDate(document.date);
    return {
      [root]: {
        date,
        due_date: date,
        reference: document.externalReference,
        ...(options.sequenceId ? { sequence_id: options.sequenceId } : {}),
        ...(document.credited ? { owner_invoice_id: document.credited.providerDocumentId } : {}),
        client: {
          name: document.buyer.name,
          // The service keeps clients by code: a member's NIF, or the one final consumer.
          code: document.buyer.taxId ?? 'consumidor-final',
          ...(document.buyer.taxId ? { fiscal_id: document.buyer.taxId } : {}),
          country: 'Portugal',
        },
        items: document.lines.map((line) => ({
          name: line.description.slice(0, 100),
          description: line.detail,
          unit_price: netUnitPrice(line.amount_cents, document.vatRate),
          quantity: '1',
          tax: { name: taxName(document.vatRate) },
        })),
      },
    };
  }

  async function pdfOf(id: string): Promise<Uint8Array> {
    const deadline = Date.now() + Math.max(options.timeoutMs, 5 * pollMs);
    for (;;) {
      const { status, body } = await call('GET', `api/pdf/${id}.json`);
      const pdfUrl = (body as { output?: { pdfUrl?: string } } | null)?.output?.pdfUrl;
      if (status === 200 && pdfUrl) {
        try {
          const response = await fetch(pdfUrl, { signal: AbortSignal.timeout(options.timeoutMs) });
          if (!response.ok) throw new Error(`answered ${response.status}`);
          return new Uint8Array(await response.arrayBuffer());
        } catch (error) {
          throw new InvoicingUnavailableError('InvoiceXpress PDF could not be downloaded', { cause: error });
        }
      }
      // 202: the PDF is being generated; ask again a little later, within this attempt's time.
      if (Date.now() + pollMs > deadline) {
        throw new InvoicingUnavailableError('InvoiceXpress PDF is still being generated');
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  return {
    name: 'invoicexpress',
    issuesInTransaction: false,
    async issue(document, progress) {
      const { path, root } = DOCUMENT_TYPES[document.kind];
      let id = progress.providerDocumentId;
      if (!id && progress.mayExist) id = await findByReference(document.kind, document.externalReference);
      if (!id) {
        const created = documentIn((await call('POST', `${path}.json`, draftBody(document))).body, root);
        id = String(created.id);
        await progress.created(id);
      }
      let current = documentIn((await call('GET', `${path}/${id}.json`)).body, root);
      if (current.status === 'draft') {
        await call('PUT', `${path}/${id}/change-state.json`, { [root]: { state: 'finalized' } });
        current = documentIn((await call('GET', `${path}/${id}.json`)).body, root);
      }
      const number = current.inverted_sequence_number ?? current.sequence_number;
      if (current.status === 'draft' || !number || !current.atcud) {
        throw new InvoicingUnavailableError(`InvoiceXpress ${root} ${id} is not final yet`);
      }
      const qr = (await call('GET', `api/qr_codes/${id}.json`)).body as { qr_code?: { url?: string } } | null;
      const pdf = await pdfOf(id);
      return {
        providerDocumentId: id,
        number,
        atcud: current.atcud,
        qrPayload: qr?.qr_code?.url ?? '',
        pdf,
        permalink: current.permalink ?? null,
      };
    },
  };
}
