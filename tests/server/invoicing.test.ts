import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/database.ts';
import {
  createBookingOverHttp,
  newClient,
  startAccountApp,
  verifiedAccount,
  type AccountApp,
} from './support/accounts.ts';
import { loggedInOperator } from './support/operators.ts';
import { PGLITE_ONLY } from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';
import {
  bookAndPay,
  documentEmails,
  documents,
  isPdf,
  ledgerRows,
  moveAndPay,
  slotAt,
} from './support/invoicing.ts';

// Issue 29, items 1–3 with no provider configured: the `local` provider issues look-alike documents in its own
// series, with an ATCUD, the QR code's text and a PDF marked as not valid for tax, so `npm start` shows the whole
// flow. Every payment (a checkout, a dearer move's difference) gets a fatura-recibo, every refund a credit note
// naming it; each document is recorded with its ledger row and issued by the queue's job; the member receives
// its PDF; documents outlive the account.

describe.each(PGLITE_ONLY)('invoices and credit notes from the local provider on %s', (target) => {
  let server: AccountApp;
  let branchId: number;
  const db = (): Db => server.app.db;

  beforeAll(async () => {
    server = await startAccountApp(target, { OPERATOR_EMAIL: 'ops@gym.example' });
    branchId = await createBranch(db());
  });
  afterAll(async () => server?.close());

  it('gives every payment a fatura-recibo and every refund a credit note naming it, one document per ledger row', async () => {
    const client = newClient(server.app);
    const member = await verifiedAccount(client, server.app, { locale: 'en' });

    // Two slots in one checkout: 13.50 + 22.00.
    const first = await slotAt(db(), branchId, '2026-03-26T10:00:00Z', 13.5);
    const second = await slotAt(db(), branchId, '2026-03-26T12:00:00Z', 22);
    const [x] = (await bookAndPay(server, client, member.token, [first, second], 35.5)) as [number, number];

    // Recorded pending in the paying transaction, before any job ran.
    let [invoice] = await documents(db());
    expect(invoice).toMatchObject({
      kind: 'invoice_receipt',
      status: 'pending',
      provider: 'local',
      buyer_name: 'Final consumer',
      buyer_tax_id: null,
      total_cents: 3550,
      number: null,
    });

    await server.app.jobs.runDue();
    [invoice] = await documents(db());
    expect(invoice).toMatchObject({ status: 'issued', number: 'FR LOCAL/1', atcud: 'LOCALFR0-1' });
    expect(invoice!.lines).toHaveLength(2);
    expect(invoice!.lines[0]).toMatchObject({ amount_cents: 1350, base_cents: 1350 });
    expect(invoice!.lines[0]!.description).toContain('booking');
    expect(invoice!.lines[1]!.amount_cents).toBe(2200);
    // The QR code's text as Portaria 195/2020 lays it out: seller, buyer (final consumer), type, date, number, ATCUD.
    expect(invoice!.qr_payload).toMatch(
      /^A:512345678\*B:999999990\*C:PT\*D:FR\*E:N\*F:20260320\*G:FR LOCAL\/1\*H:LOCALFR0-1\*I1:PT\*I7:28\.86\*I8:6\.64\*N:6\.64\*O:35\.50\*Q:0000\*R:0$/,
    );
    expect(isPdf(invoice!.pdf)).toBe(true);
    const pdf = await PDFDocument.load(invoice!.pdf!);
    expect(pdf.getTitle()).toBe('Invoice-receipt FR LOCAL/1');

    // The member receives it, the PDF attached.
    let emails = await documentEmails(db(), member.email);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.subject).toContain('FR LOCAL/1');
    expect(emails[0]!.text_body).toContain('not valid for tax');
    expect(emails[0]!.attachments).toHaveLength(1);
    const attachment = emails[0]!.attachments[0]!;
    expect(attachment).toMatchObject({ contentType: 'application/pdf', encoding: 'base64' });
    expect(Buffer.from(attachment.content, 'base64').equals(Buffer.from(invoice!.pdf!))).toBe(true);

    // A move to a dearer slot: its 6.30 difference gets an invoice of its own.
    const dearer = await slotAt(db(), branchId, '2026-03-27T10:00:00Z', 19.8);
    await moveAndPay(client, member.token, x, dearer, 6.3);
    // The member cancels x, six days ahead: 19.80 back, from the move's payment (6.30) and the checkout (13.50).
    const canceled = await client.json(
      'POST',
      '/api/bookings/cancel-bookings',
      { booking: [{ booking_id: x, expected_refund_eur: 19.8 }] },
      member.token,
    );
    expect(canceled.statusCode, canceled.body).toBe(200);
    await server.app.jobs.runDue();

    const ledger = await ledgerRows(db());
    const all = await documents(db());
    // Exactly one document per ledger row.
    expect(all.map((document) => document.ledger_entry_id)).toEqual(ledger.map((row) => row.id));
    expect(all.every((document) => document.status === 'issued')).toBe(true);
    const move = all.find((document) => document.total_cents === 630)!;
    expect(move).toMatchObject({ kind: 'invoice_receipt', number: 'FR LOCAL/2' });
    expect(move.lines[0]!.description).toContain('move');
    const creditNotes = all.filter((document) => document.kind === 'credit_note');
    expect(creditNotes.map((note) => note.total_cents).sort()).toEqual([1350, 630].sort());
    for (const note of creditNotes) {
      const refund = ledger.find((row) => row.id === note.ledger_entry_id)!;
      const paid = all.find((document) => document.ledger_entry_id === refund.refunded_entry_id)!;
      // Each credit note names the invoice of the payment its refund pays back, for the same buyer.
      expect(note.credited_document_id).toBe(paid.id);
      expect(note.buyer_name).toBe(paid.buyer_name);
      expect(note.number).toMatch(/^NC LOCAL\/[12]$/);
      expect(note.qr_payload).toContain('*D:NC*');
      // Its line names the slot its invoice named for the booking: the checkout's credit note the 26 March slot x
      // was bought for (x has moved to the 27th since), the move's credit note the slot the difference paid for.
      const invoiced = paid.lines.find((line) => line.booking_id === x)!;
      expect(note.lines).toEqual([
        expect.objectContaining({ booking_id: x, detail: invoiced.detail, amount_cents: note.total_cents }),
      ]);
    }
    // ...which are two different slots: the checkout's note does not describe x at the time it moved to.
    const [checkoutNote, moveNote] = [1350, 630].map((cents) =>
      creditNotes.find((n) => n.total_cents === cents)!,
    );
    expect(checkoutNote!.lines[0]!.detail).not.toBe(moveNote!.lines[0]!.detail);
    emails = await documentEmails(db(), member.email);
    expect(emails).toHaveLength(4);

    // Running the jobs again issues nothing twice.
    await server.app.jobs.runDue();
    expect(await documents(db())).toHaveLength(4);
    expect(await documentEmails(db(), member.email)).toHaveLength(4);
  });

  it("names a member who gave a NIF, at the branch's own VAT rate, and keeps the documents after the account's deletion", async () => {
    const client = newClient(server.app);
    const member = await verifiedAccount(client, server.app, { locale: 'pt' });
    const user = await db()
      .updateTable('users')
      .set({ tax_id: '123456789' })
      .where('email', '=', member.email.toLowerCase())
      .returning(['id', 'first_name', 'last_name'])
      .executeTakeFirstOrThrow();
    const reduced = await createBranch(db(), { slug: 'reduced-vat', name: 'Porto' });
    await db().updateTable('branches').set({ vat_rate: 0.06 }).where('id', '=', reduced).execute();

    await bookAndPay(
      server,
      client,
      member.token,
      [await slotAt(db(), reduced, '2026-03-28T10:00:00Z', 21.2)],
      21.2,
    );
    await server.app.jobs.runDue();
    const [invoice] = (await documents(db())).filter((document) => document.user_id === user.id);
    expect(invoice).toMatchObject({
      status: 'issued',
      buyer_name: `${user.first_name} ${user.last_name}`,
      buyer_tax_id: '123456789',
      vat_rate: 0.06,
      vat_cents: 120,
    });
    expect(invoice!.qr_payload).toContain('*B:123456789*');
    expect(invoice!.qr_payload).toContain('*I3:20.00*I4:1.20*');
    // The local provider writes the member's language; a certified service writes Portuguese.
    expect(invoice!.lines[0]!.description).toBe('Reserva de sala de treino – Porto');

    // The account is deleted: its upcoming booking is refunded (a credit note), the documents stay as issued.
    const deleted = await client.call({
      method: 'DELETE',
      url: '/api/auth/delete-account',
      headers: { authorization: `Bearer ${member.token}` },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    await server.app.jobs.runDue();
    const mine = (await documents(db())).filter((document) => document.user_id === user.id);
    expect(mine.map((document) => [document.kind, document.status])).toEqual([
      ['invoice_receipt', 'issued'],
      ['credit_note', 'issued'],
    ]);
    expect(mine[1]).toMatchObject({ buyer_name: invoice!.buyer_name, buyer_tax_id: '123456789' });
    const erased = await db()
      .selectFrom('users')
      .select(['email', 'tax_id', 'deleted_at'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(erased.email).toBeNull();
    expect(erased.tax_id).toBeNull();
    expect(erased.deleted_at).not.toBeNull();
  });
});

describe.each(PGLITE_ONLY)('faturas simplificadas where the operator enables them on %s', (target) => {
  let server: AccountApp;
  let branchId: number;
  const db = (): Db => server.app.db;

  beforeAll(async () => {
    server = await startAccountApp(target, { INVOICING_SIMPLIFIED: 'true' });
    branchId = await createBranch(db());
  });
  afterAll(async () => server?.close());

  it('issues a fatura simplificada up to 100 € for a buyer without a NIF, a fatura-recibo above it', async () => {
    const client = newClient(server.app);
    const member = await verifiedAccount(client, server.app, { locale: 'de' });
    await bookAndPay(
      server,
      client,
      member.token,
      [await slotAt(db(), branchId, '2026-03-26T10:00:00Z', 100)],
      100,
    );
    await bookAndPay(
      server,
      client,
      member.token,
      [
        await slotAt(db(), branchId, '2026-03-26T12:00:00Z', 60),
        await slotAt(db(), branchId, '2026-03-26T14:00:00Z', 40.01),
      ],
      100.01,
    );
    await server.app.jobs.runDue();
    const [simplified, full] = await documents(db());
    expect(simplified).toMatchObject({ kind: 'simplified_invoice', number: 'FS LOCAL/1', status: 'issued' });
    expect(simplified!.qr_payload).toContain('*D:FS*');
    expect(full).toMatchObject({ kind: 'invoice_receipt', number: 'FR LOCAL/1', status: 'issued' });
    const subjects = (await documentEmails(db(), member.email)).map((email) => email.subject).sort();
    expect(subjects).toEqual([
      'Rechnung mit Quittung Nr. FR LOCAL/1 – Private Gym',
      'Vereinfachte Rechnung Nr. FS LOCAL/1 – Private Gym',
    ]);
  });
});

describe.each(PGLITE_ONLY)('a Multibanco voucher paid days later on %s', (target) => {
  let server: AccountApp;
  let branchId: number;
  const db = (): Db => server.app.db;

  beforeAll(async () => {
    server = await startAccountApp(target);
    branchId = await createBranch(db());
  });
  afterAll(async () => server?.close());

  it('issues no invoice while the money is awaited, then one dated the day it arrived, with its row in the accountant’s CSV', async () => {
    const client = newClient(server.app);
    const member = await verifiedAccount(client, server.app, { locale: 'pt' });
    // Booked on 20 March for the 30th, far enough ahead for a voucher.
    const slot = await slotAt(db(), branchId, '2026-03-30T09:00:00Z', 25);
    const { sessionId } = await createBookingOverHttp(client, member.token, [slot], 25);
    const voucher = await client.json('POST', `/api/checkout/local/${sessionId}/complete`, {
      method: 'multibanco',
    });
    expect(voucher.json()).toMatchObject({ outcome: 'awaiting_payment' });
    await server.app.jobs.runDue();
    expect(await documents(db())).toEqual([]);

    // Two days later the member pays it at an ATM.
    server.clock.set('2026-03-22T18:40:00Z');
    // The development endpoint answers loopback callers only (the test client calls from elsewhere).
    const paid = await server.app.inject({
      method: 'POST',
      url: `/api/dev/checkout/${sessionId}/pay-voucher`,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    await server.app.jobs.runDue();
    const [invoice] = await documents(db());
    expect(invoice).toMatchObject({ kind: 'invoice_receipt', status: 'issued', total_cents: 2500 });
    expect(invoice!.qr_payload).toContain('*F:20260322*');
    expect(invoice!.issued_at?.toISOString()).toBe('2026-03-22T18:40:00.000Z');

    const owner = await loggedInOperator(server.app, server.clock, 'owner-month@gym.example', 'owner');
    const csv = await owner.client.get(
      '/api/admin/reports/ledger/csv?from=2026-03-01&to=2026-03-31',
      owner.token,
    );
    expect(csv.statusCode).toBe(200);
    const [header, ...lines] = csv.body.trimEnd().split('\r\n');
    const columns = header!.split(',');
    const row = Object.fromEntries(
      lines[0]!.split(',').map((value, i): [string, string] => [columns[i]!, value]),
    );
    expect(lines).toHaveLength(1);
    expect(row).toMatchObject({
      local_date: '2026-03-22',
      kind: 'payment',
      amount_eur: '25.00',
      payment_method: 'multibanco',
      document_kind: 'invoice_receipt',
      document_number: invoice!.number,
      atcud: invoice!.atcud,
    });
  });
});
