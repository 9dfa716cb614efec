import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/database.ts';
import { newClient, startAccountApp, verifiedAccount, type AccountApp } from './support/accounts.ts';
import { DATABASE_TARGETS } from './support/databases.ts';
import { startFakeInvoiceXpress, type FakeInvoiceXpress } from './support/fake-invoicexpress.ts';
import { createBranch } from './support/fixtures.ts';
import { bookAndPay, documentEmails, documents, isPdf, ledgerRows, slotAt } from './support/invoicing.ts';

// Issue 29, items 1 and 2, against a local HTTP server that behaves as InvoiceXpress's documented API (real
// sockets, tests/server/support/fake-invoicexpress.ts): each ledger row gets exactly one document there, found
// again by its reference after a timeout; an outage or the rate limit only delays documents, never a booking; a
// refusal alerts the operator and is not tried again; a credit note names its invoice; the e-mail carries the
// service's PDF.

describe.each(DATABASE_TARGETS)('invoices through InvoiceXpress on %s', (target) => {
  let fake: FakeInvoiceXpress;
  let server: AccountApp;
  let branchId: number;
  let slotHour = 0;
  const db = (): Db => server.app.db;

  beforeAll(async () => {
    fake = await startFakeInvoiceXpress();
    server = await startAccountApp(target, {
      INVOICING_PROVIDER: 'invoicexpress',
      INVOICEXPRESS_API_URL: fake.url,
      INVOICEXPRESS_API_KEY: fake.apiKey,
      INVOICING_SERIES: '77',
      // Long enough for a loaded machine's normal answer; the hang below (1.5 s) still outlasts it.
      INVOICING_TIMEOUT_MS: '1000',
      OPERATOR_EMAIL: 'ops@gym.example',
    });
    branchId = await createBranch(db(), { name: 'Lisboa' });
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  /** A member's paid booking of one slot at `priceEur`; answers the member and the booking. */
  async function paidBooking(priceEur: number, locale: 'pt' | 'en' = 'en') {
    const client = newClient(server.app);
    const member = await verifiedAccount(client, server.app, { locale });
    slotHour += 2;
    const start = new Date(Date.parse('2026-03-27T06:00:00Z') + slotHour * 3_600_000).toISOString();
    const [bookingId] = (await bookAndPay(
      server,
      client,
      member.token,
      [await slotAt(db(), branchId, start, priceEur)],
      priceEur,
    )) as [number];
    return { client, member, bookingId };
  }

  const documentOf = async (ledgerEntryId: number) =>
    (await documents(db())).find((document) => document.ledger_entry_id === ledgerEntryId)!;
  const lastEntry = async () => (await ledgerRows(db())).at(-1)!;
  /** Moves both clocks past any retry's backoff and runs what is due. */
  const later = async () => {
    server.clock.advance({ hours: 2 });
    await server.app.jobs.runDue(['invoice-issue']);
  };

  it('issues a finalised fatura-recibo there, stores its number, ATCUD, QR code and PDF, mails the PDF; a refund gets a credit note naming it', async () => {
    const { client, member, bookingId } = await paidBooking(15);
    const payment = await lastEntry();
    await server.app.jobs.runDue(['invoice-issue']);

    expect(fake.documents).toHaveLength(1);
    const remote = fake.documents[0]!;
    expect(remote).toMatchObject({
      type: 'InvoiceReceipt',
      status: 'settled',
      reference: `ledger-${payment.id}`,
      sequence_id: '77',
      client: { name: 'Consumidor final', code: 'consumidor-final', country: 'Portugal' },
      total: 15,
    });
    expect(remote.items).toHaveLength(1);
    expect(remote.items[0]).toMatchObject({ quantity: '1', tax: { name: 'IVA23' } });
    expect(remote.items[0]!.name).toBe('Reserva de sala de treino – Lisboa');

    const invoice = await documentOf(payment.id);
    expect(invoice).toMatchObject({
      status: 'issued',
      provider: 'invoicexpress',
      provider_document_id: String(remote.id),
      number: 'FR A2026/1',
      atcud: 'JJ37KPRX-1',
      qr_payload: `${fake.url}/files/${remote.id}-qr.png`,
      permalink: remote.permalink,
    });
    expect(isPdf(invoice.pdf)).toBe(true);
    expect(Buffer.from(invoice.pdf!).toString('latin1')).toContain('FR A2026/1');
    const [email] = await documentEmails(db(), member.email);
    expect(email!.subject).toBe('Invoice-receipt FR A2026/1 – Private Gym');
    expect(email!.text_body).not.toContain('not valid for tax');
    expect(Buffer.from(email!.attachments[0]!.content, 'base64').equals(Buffer.from(invoice.pdf!))).toBe(
      true,
    );

    const canceled = await client.json(
      'POST',
      '/api/bookings/cancel-bookings',
      { booking: [{ booking_id: bookingId, expected_refund_eur: 15 }] },
      member.token,
    );
    expect(canceled.statusCode, canceled.body).toBe(200);
    const refund = await lastEntry();
    expect(refund).toMatchObject({ kind: 'refund', refunded_entry_id: payment.id });
    await server.app.jobs.runDue(['invoice-issue']);

    expect(fake.documents).toHaveLength(2);
    expect(fake.documents[1]).toMatchObject({
      type: 'CreditNote',
      status: 'final',
      reference: `ledger-${refund.id}`,
      owner_invoice_id: remote.id,
      total: 15,
    });
    expect(await documentOf(refund.id)).toMatchObject({
      kind: 'credit_note',
      status: 'issued',
      number: 'NC A2026/1',
      // Its series' own validation code: the first credit note's ATCUD is not the first invoice's.
      atcud: 'JJC4H7ZN-1',
      credited_document_id: invoice.id,
    });
  });

  it('has a credit note wait for its invoice when the refund comes before the invoice was issued', async () => {
    const { client, member, bookingId } = await paidBooking(12);
    const payment = await lastEntry();
    const canceled = await client.json(
      'POST',
      '/api/bookings/cancel-bookings',
      { booking: [{ booking_id: bookingId, expected_refund_eur: 12 }] },
      member.token,
    );
    expect(canceled.statusCode, canceled.body).toBe(200);
    const refund = await lastEntry();
    await server.app.jobs.runDue(['invoice-issue']);
    await later();

    expect(fake.documents.map((document) => [document.type, document.reference])).toEqual([
      ['InvoiceReceipt', `ledger-${payment.id}`],
      ['CreditNote', `ledger-${refund.id}`],
    ]);
    expect(fake.documents[1]!.owner_invoice_id).toBe(fake.documents[0]!.id);
    expect(await documentOf(refund.id)).toMatchObject({ status: 'issued', number: 'NC A2026/1' });
  });

  it('looks a document up after a timeout instead of creating it again', async () => {
    fake.hangAfterCreate(1, 1500);
    await paidBooking(22);
    const payment = await lastEntry();
    await server.app.jobs.runDue(['invoice-issue']);

    // Created there, but the answer never came in time: still pending here, the draft there.
    expect(await documentOf(payment.id)).toMatchObject({ status: 'pending', provider_document_id: null });
    expect(fake.documents.map((document) => document.status)).toEqual(['draft']);

    await later();
    expect(fake.requests).toContain('GET /invoices.json');
    expect(fake.documents).toHaveLength(1);
    expect(fake.documents[0]).toMatchObject({ status: 'settled', reference: `ledger-${payment.id}` });
    expect(await documentOf(payment.id)).toMatchObject({
      status: 'issued',
      provider_document_id: String(fake.documents[0]!.id),
      attempts: 2,
    });
  });

  it('delays documents while the service is down or rate-limited, never a booking', async () => {
    fake.down(true);
    const { bookingId } = await paidBooking(18);
    const payment = await lastEntry();
    // The booking is confirmed and paid whatever the invoicing service does.
    const booking = await db()
      .selectFrom('bookings')
      .select('status')
      .where('id', '=', bookingId)
      .executeTakeFirstOrThrow();
    expect(booking.status).toBe('confirmed');
    await server.app.jobs.runDue(['invoice-issue']);
    expect(await documentOf(payment.id)).toMatchObject({ status: 'pending' });
    expect((await documentOf(payment.id)).last_error).toContain('no answer');

    fake.down(false);
    fake.rateLimited(true);
    await later();
    expect(await documentOf(payment.id)).toMatchObject({ status: 'pending' });
    expect((await documentOf(payment.id)).last_error).toContain('rate limit');

    fake.rateLimited(false);
    await later();
    expect(await documentOf(payment.id)).toMatchObject({ status: 'issued', number: 'FR A2026/1' });
    expect(fake.documents).toHaveLength(1);
  });

  it('marks a refused document, alerts the operator once and does not try it again', async () => {
    fake.refuseNext(1, 'Client fiscal id is invalid');
    await paidBooking(16, 'pt');
    const payment = await lastEntry();
    await server.app.jobs.runDue(['invoice-issue']);
    await later();

    expect(await documentOf(payment.id)).toMatchObject({
      status: 'refused',
      last_error: 'InvoiceXpress refused the document: Client fiscal id is invalid',
    });
    expect(fake.requests.filter((request) => request === 'POST /invoice_receipts.json')).toHaveLength(1);
    expect(fake.documents).toHaveLength(0);
    const alerts = await db()
      .selectFrom('outbox')
      .select(['subject', 'text_body'])
      .where('recipient', '=', 'ops@gym.example')
      .where('kind', '=', 'operator_alert')
      .execute();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.subject).toBe(
      `Documento fiscal recusado pelo serviço de faturação (movimento ${payment.id})`,
    );
    expect(alerts[0]!.text_body).toContain('Client fiscal id is invalid');
  });
});
