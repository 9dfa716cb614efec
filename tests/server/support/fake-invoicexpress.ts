import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// A local HTTP server that behaves as InvoiceXpress's documented API v2 for the documents this server issues
// (https://www.invoicexpress.com/api-v2): `api_key` in the query (401 without the right one), documents created
// as drafts (POST /invoice_receipts.json, /simplified_invoices.json, /credit_notes.json, the body wrapped in the
// type's name), finalised through change-state (an invoice-receipt becomes `settled`, the others `final`; any
// other transition is a 422), read back, listed and searched by text (GET /invoices.json?text=&type[]=), their
// PDF generated asynchronously (GET /api/pdf/:id.json answers 202 first, then 200 with `output.pdfUrl`; 406 for a
// draft) and their QR code (GET /api/qr_codes/:id.json). A 422 carries `{"errors": [{"error": ...}]}`.
//
// Switches for the tests: refuse the next creations (422), answer 429 (the rate limit), go down (every connection
// dropped), and hang after creating a document (the document exists, the answer comes after the client gave up).

type DocumentRoot = 'invoice_receipt' | 'simplified_invoice' | 'credit_note';
// Each series (a document type in the account's series) has its own validation code from the tax authority.
const ROOTS: Record<string, { root: DocumentRoot; type: string; code: string; validation: string }> = {
  invoice_receipts: { root: 'invoice_receipt', type: 'InvoiceReceipt', code: 'FR', validation: 'JJ37KPRX' },
  simplified_invoices: {
    root: 'simplified_invoice',
    type: 'SimplifiedInvoice',
    code: 'FS',
    validation: 'JJ9MW2QT',
  },
  credit_notes: { root: 'credit_note', type: 'CreditNote', code: 'NC', validation: 'JJC4H7ZN' },
};

export type FakeDocument = {
  id: number;
  type: string;
  root: DocumentRoot;
  status: 'draft' | 'final' | 'settled' | 'canceled' | 'deleted';
  reference: string | null;
  date: string;
  due_date: string;
  sequence_id: string | null;
  sequence_number: string;
  inverted_sequence_number: string | null;
  atcud: string | null;
  owner_invoice_id: number | null;
  client: { name: string; code?: string; fiscal_id?: string; country?: string };
  items: {
    name: string;
    description?: string;
    unit_price: string;
    quantity: string;
    tax: { name: string };
  }[];
  total: number;
  taxes: number;
  permalink: string;
  pdfRequests: number;
};

export type FakeInvoiceXpress = {
  url: string;
  apiKey: string;
  documents: FakeDocument[];
  /** Every request, as `METHOD /path` (no query). */
  requests: string[];
  /** The next `n` creations are refused with a 422. */
  refuseNext(n?: number, message?: string): void;
  /** The next `n` creations create the document and answer only after `ms` (past the client's timeout). */
  hangAfterCreate(n?: number, ms?: number): void;
  /** Every request is answered 429 while on. */
  rateLimited(on: boolean): void;
  /** Every connection is dropped while on. */
  down(on: boolean): void;
  reset(): void;
  close(): Promise<void>;
};

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(body === undefined ? '' : JSON.stringify(body));
}

function unprocessable(response: ServerResponse, ...errors: string[]): void {
  json(response, 422, { errors: errors.map((error) => ({ error })) });
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A small but real PDF naming the document. */
function pdfOf(document: FakeDocument): Buffer {
  const text = `InvoiceXpress ${document.type} ${document.inverted_sequence_number} ATCUD ${document.atcud}`;
  const stream = `BT /F1 12 Tf 50 780 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

export async function startFakeInvoiceXpress(
  options: { apiKey?: string; serie?: string } = {},
): Promise<FakeInvoiceXpress> {
  const apiKey = options.apiKey ?? 'fake-invoicexpress-key';
  const serie = options.serie ?? 'A2026';
  const documents: FakeDocument[] = [];
  const requests: string[] = [];
  const counters = new Map<string, number>();
  const sockets = new Set<Socket>();
  let nextId = 1000;
  let refusals: { left: number; message: string } = { left: 0, message: '' };
  let hangs = { left: 0, ms: 0 };
  let limited = false;
  let isDown = false;
  let url = '';

  const view = (document: FakeDocument) => {
    const { pdfRequests: _requests, root: _root, ...shown } = document;
    return shown;
  };

  function finalise(document: FakeDocument): void {
    const { code, validation } = ROOTS[`${document.root}s`]!;
    const number = (counters.get(code) ?? 0) + 1;
    counters.set(code, number);
    document.status = document.root === 'invoice_receipt' ? 'settled' : 'final';
    document.sequence_number = `${number}/${serie}`;
    document.inverted_sequence_number = `${code} ${serie}/${number}`;
    // The series' validation code from the tax authority, then the number (Portaria 195/2020).
    document.atcud = `${validation}-${number}`;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const address = new URL(request.url ?? '/', 'http://fake');
    const path = address.pathname;
    requests.push(`${request.method} ${path}`);
    if (isDown) {
      request.socket.destroy();
      return;
    }
    if (path.startsWith('/files/')) {
      const id = Number(/^\/files\/(\d+)\.pdf$/.exec(path)?.[1]);
      const document = documents.find((each) => each.id === id);
      if (!document) return json(response, 404, { errors: [{ error: 'Not found' }] });
      response.writeHead(200, { 'content-type': 'application/pdf' });
      response.end(pdfOf(document));
      return;
    }
    if (address.searchParams.get('api_key') !== apiKey) {
      return json(response, 401, { errors: [{ error: 'Access denied' }] });
    }
    if (limited) return json(response, 429, { errors: [{ error: 'Too many requests' }] });

    let match: RegExpExecArray | null;
    if (request.method === 'POST' && (match = /^\/(\w+)\.json$/.exec(path)) && ROOTS[match[1]!]) {
      const { root, type } = ROOTS[match[1]!]!;
      const body = (await readBody(request)) as Record<string, Record<string, unknown>> | null | undefined;
      const input = body?.[root];
      if (!input) return unprocessable(response, `Missing ${root}`);
      if (refusals.left > 0) {
        refusals.left -= 1;
        return unprocessable(response, refusals.message);
      }
      const client = input.client as FakeDocument['client'] | undefined;
      const items = input.items as FakeDocument['items'] | undefined;
      const problems: string[] = [];
      if (!client?.name) problems.push('Client name can not be blank');
      if (!Array.isArray(items) || items.length === 0) problems.push('Items can not be empty');
      for (const item of items ?? []) {
        if (!/^\d+(\.\d+)?$/.test(String(item.unit_price))) problems.push('Unit price is not a number');
        if (!/^IVA\d+$/.test(item.tax?.name ?? '')) problems.push(`Tax ${item.tax?.name} does not exist`);
      }
      if (!/^\d{2}\/\d{2}\/\d{4}$/.test(String(input.date))) problems.push('Date is invalid');
      const ownerId = input.owner_invoice_id === undefined ? null : Number(input.owner_invoice_id);
      if (root === 'credit_note') {
        const owner = documents.find((each) => each.id === ownerId);
        if (!owner || owner.status === 'draft') problems.push('Owner invoice must be a finalized document');
      }
      if (problems.length > 0) return unprocessable(response, ...problems);
      const before = (items ?? []).reduce(
        (sum, item) => sum + Number(item.unit_price) * Number(item.quantity),
        0,
      );
      const taxes = (items ?? []).reduce(
        (sum, item) =>
          sum + Number(item.unit_price) * Number(item.quantity) * (Number(item.tax.name.slice(3)) / 100),
        0,
      );
      nextId += 1;
      const document: FakeDocument = {
        id: nextId,
        type,
        root,
        status: 'draft',
        reference: (input.reference as string | undefined) ?? null,
        date: String(input.date),
        due_date: String(input.due_date ?? input.date),
        sequence_id:
          typeof input.sequence_id === 'string' || typeof input.sequence_id === 'number'
            ? String(input.sequence_id)
            : null,
        sequence_number: 'rascunho',
        inverted_sequence_number: null,
        atcud: null,
        owner_invoice_id: ownerId,
        client: client!,
        items: items!,
        total: Math.round((before + taxes) * 100) / 100,
        taxes: Math.round(taxes * 100) / 100,
        permalink: `${url}/documents/${nextId}`,
        pdfRequests: 0,
      };
      documents.push(document);
      if (hangs.left > 0) {
        hangs.left -= 1;
        await new Promise((resolve) => setTimeout(resolve, hangs.ms));
        if (response.destroyed || response.socket?.destroyed) return;
      }
      return json(response, 201, { [root]: view(document) });
    }
    if ((match = /^\/(\w+)\/(\d+)(\/change-state)?\.json$/.exec(path)) && ROOTS[match[1]!]) {
      const { root } = ROOTS[match[1]!]!;
      const document = documents.find((each) => each.id === Number(match![2]) && each.root === root);
      if (!document) return json(response, 404, { errors: [{ error: 'Not found' }] });
      if (request.method === 'GET' && !match[3]) return json(response, 200, { [root]: view(document) });
      if (request.method === 'PUT' && match[3]) {
        const body = (await readBody(request)) as Record<string, { state?: string }> | null | undefined;
        const state = (body?.[root] ?? body?.invoice)?.state;
        if (state === 'finalized' && document.status === 'draft') {
          finalise(document);
          return json(response, 200, { [root]: view(document) });
        }
        return unprocessable(response, `Can not change state from ${document.status} to ${state}`);
      }
    }
    if (request.method === 'GET' && path === '/invoices.json') {
      const text = address.searchParams.get('text') ?? '';
      const types = address.searchParams.getAll('type[]');
      const found = documents.filter(
        (document) =>
          (types.length === 0 || types.includes(document.type)) &&
          (text === '' || document.reference?.includes(text) || document.client.name.includes(text)),
      );
      return json(response, 200, {
        invoices: found.map(view),
        pagination: { total_entries: found.length, current_page: 1, total_pages: 1, per_page: 50 },
      });
    }
    if (request.method === 'GET' && (match = /^\/api\/(pdf|qr_codes)\/(\d+)\.json$/.exec(path))) {
      const document = documents.find((each) => each.id === Number(match![2]));
      if (!document) return json(response, 404, { errors: [{ error: 'Not found' }] });
      if (document.status === 'draft') return json(response, 406, { errors: [{ error: 'Invalid state' }] });
      if (match[1] === 'qr_codes') {
        return json(response, 200, { qr_code: { url: `${url}/files/${document.id}-qr.png` } });
      }
      document.pdfRequests += 1;
      // Generated asynchronously: the first request starts it.
      if (document.pdfRequests === 1) return json(response, 202, undefined);
      return json(response, 200, { output: { pdfUrl: `${url}/files/${document.id}.pdf` } });
    }
    return json(response, 404, { errors: [{ error: 'Not found' }] });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) json(response, 500, { errors: [{ error: String(error) }] });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    apiKey,
    documents,
    requests,
    refuseNext(n = 1, message = 'Client fiscal id is invalid') {
      refusals = { left: n, message };
    },
    hangAfterCreate(n = 1, ms = 1500) {
      hangs = { left: n, ms };
    },
    rateLimited(on) {
      limited = on;
    },
    down(on) {
      isDown = on;
    },
    reset() {
      documents.length = 0;
      requests.length = 0;
      counters.clear();
      refusals = { left: 0, message: '' };
      hangs = { left: 0, ms: 0 };
      limited = false;
      isDown = false;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
