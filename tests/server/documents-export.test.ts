import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema.gen.ts';
import type { Db } from '../../server/db/database.ts';
import { newClient, startAccountApp, verifiedAccount, type AccountApp } from './support/accounts.ts';
import { DATABASE_TARGETS } from './support/databases.ts';
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
import { loggedInOperator } from './support/operators.ts';
import { runAdmin } from '../../server/admin/cli.ts';

type Schemas = components['schemas'];

// Issue 29, item 6: the owner lists the documents of a period or a booking, opens each PDF by its signed link,
// sends one again (audited), and downloads the ledger line by line for the accountant. Figures worked by hand:
// a checkout of 13.50 + 22.00 = 35.50 (VAT 23 % included: 35.50 × 23 / 123 = 6.638 → 6.64), a move's 6.30
// (1.178 → 1.18), then booking x cancelled: 19.80 back, 6.30 (VAT 1.18) from the move's payment and 13.50
// (2.524 → 2.52) from the checkout.

describe.each(DATABASE_TARGETS)("documents and the accountant's export on %s", (target) => {
  let server: AccountApp;
  let branchId: number;
  let owner: Awaited<ReturnType<typeof loggedInOperator>>;
  let staff: Awaited<ReturnType<typeof loggedInOperator>>;
  const db = (): Db => server.app.db;
  const period = 'from=2026-03-01&to=2026-03-31';

  beforeAll(async () => {
    server = await startAccountApp(target);
    branchId = await createBranch(db());
    owner = await loggedInOperator(server.app, server.clock, `owner-docs-${target}@gym.example`, 'owner');
    staff = await loggedInOperator(server.app, server.clock, `staff-docs-${target}@gym.example`, 'staff');
  });
  afterAll(async () => server?.close());

  it('lists, links, resends and exports every payment and refund with its VAT and document', async () => {
    const client = newClient(server.app);
    const member = await verifiedAccount(client, server.app, { locale: 'en' });
    const first = await slotAt(db(), branchId, '2026-03-26T10:00:00Z', 13.5);
    const second = await slotAt(db(), branchId, '2026-03-26T12:00:00Z', 22);
    const [x, y] = (await bookAndPay(server, client, member.token, [first, second], 35.5)) as [
      number,
      number,
    ];
    const dearer = await slotAt(db(), branchId, '2026-03-27T10:00:00Z', 19.8);
    await moveAndPay(client, member.token, x, dearer, 6.3);
    const canceled = await client.json(
      'POST',
      '/api/bookings/cancel-bookings',
      { booking: [{ booking_id: x, expected_refund_eur: 19.8 }] },
      member.token,
    );
    expect(canceled.statusCode, canceled.body).toBe(200);
    await server.app.jobs.runDue();

    const ledger = await ledgerRows(db());
    expect(ledger.map((row) => [row.kind, row.amount_cents])).toEqual(
      expect.arrayContaining([
        ['payment', 3550],
        ['payment', 630],
        ['refund', 630],
        ['refund', 1350],
      ]),
    );
    expect(ledger).toHaveLength(4);
    const checkoutEntry = ledger.find((row) => row.amount_cents === 3550)!;
    const moveEntry = ledger.find((row) => row.kind === 'payment' && row.amount_cents === 630)!;

    // The confirmation, the move and the cancellation e-mails link to their documents' PDFs.
    const linkPattern = /https?:\/\/[^\s"<]+\/api\/documents\/(\d+)\/pdf\?key=[0-9a-f]{64}/g;
    const linksIn = async (kind: string) => {
      const rows = await db()
        .selectFrom('outbox')
        .select(['text_body', 'html_body'])
        .where('kind', '=', kind)
        .where('recipient', '=', member.email.toLowerCase())
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.html_body).toContain('/api/documents/');
      return [...rows[0]!.text_body.matchAll(linkPattern)].map((match) => match[0]);
    };
    const documentOfEntry = async (entryId: number) =>
      (await documents(db())).find((document) => document.ledger_entry_id === entryId)!.id;
    const confirmationLinks = await linksIn('booking_confirmed');
    expect(confirmationLinks).toHaveLength(1);
    expect(confirmationLinks[0]).toContain(
      `/api/documents/${await documentOfEntry(checkoutEntry.id)}/pdf?key=`,
    );
    const moveLinks = await linksIn('booking_moved');
    expect(moveLinks).toHaveLength(1);
    expect(moveLinks[0]).toContain(`/api/documents/${await documentOfEntry(moveEntry.id)}/pdf?key=`);
    const refundEntries = ledger.filter((row) => row.kind === 'refund');
    const cancellationLinks = await linksIn('booking_canceled');
    expect(cancellationLinks).toHaveLength(2);
    for (const entry of refundEntries)
      expect(cancellationLinks.join(' ')).toContain(
        `/api/documents/${await documentOfEntry(entry.id)}/pdf?key=`,
      );
    // The link from the e-mail opens the issued invoice.
    const fromEmail = new URL(confirmationLinks[0]!);
    const opened = await client.get(`${fromEmail.pathname}${fromEmail.search}`);
    expect(opened.statusCode).toBe(200);
    expect(isPdf(opened.rawPayload)).toBe(true);

    // Owners only.
    expect((await staff.client.get(`/api/admin/documents?${period}`, staff.token)).statusCode).toBe(403);
    expect((await staff.client.get(`/api/admin/reports/ledger/csv?${period}`, staff.token)).statusCode).toBe(
      403,
    );
    expect((await client.get(`/api/admin/documents?${period}`, member.token)).statusCode).toBe(401);

    // The period's documents, newest first: two invoices and two credit notes.
    const listed = await owner.client.get(`/api/admin/documents?${period}`, owner.token);
    expect(listed.statusCode, listed.body).toBe(200);
    const page = listed.json<Schemas['TaxDocumentPage']>();
    expect(page.total).toBe(4);
    expect(page.items.map((item) => item.kind).sort()).toEqual([
      'credit_note',
      'credit_note',
      'invoice_receipt',
      'invoice_receipt',
    ]);
    const invoice = page.items.find((item) => item.total_eur === 35.5)!;
    expect(invoice).toMatchObject({
      status: 'issued',
      buyer_name: 'Final consumer',
      vat_rate: 0.23,
      vat_eur: 6.64,
      booking_ids: [x, y].sort((a, b) => a - b),
    });
    expect(invoice.number).toMatch(/^FR LOCAL\/[12]$/);
    expect(invoice.atcud).toMatch(/^LOCAL(FR|FS|NC)0-\d+$/);
    expect(invoice.pdf_url).toMatch(/\/api\/documents\/\d+\/pdf\?key=[0-9a-f]{64}$/);

    // One booking's: y has only the checkout's invoice; x has all four.
    const ofY = (await owner.client.get(`/api/admin/documents?booking_id=${y}`, owner.token)).json<
      Schemas['TaxDocumentPage']
    >();
    expect(ofY.items.map((item) => item.id)).toEqual([invoice.id]);
    const ofX = (
      await owner.client.get(`/api/admin/documents?booking_id=${x}&page_size=2`, owner.token)
    ).json<Schemas['TaxDocumentPage']>();
    expect(ofX).toMatchObject({ total: 4, page: 1, page_size: 2 });
    expect(ofX.items).toHaveLength(2);
    // Another period has none.
    const april = (
      await owner.client.get('/api/admin/documents?from=2026-04-01&to=2026-04-30', owner.token)
    ).json<Schemas['TaxDocumentPage']>();
    expect(april.total).toBe(0);

    // The signed link opens the stored PDF without signing in; a wrong key or another id does not.
    const url = new URL(invoice.pdf_url!);
    const pdf = await client.get(`${url.pathname}${url.search}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(isPdf(pdf.rawPayload)).toBe(true);
    const stored = (await documents(db())).find((document) => document.id === invoice.id)!;
    expect(Buffer.from(pdf.rawPayload).equals(Buffer.from(stored.pdf!))).toBe(true);
    const key = url.searchParams.get('key')!;
    const wrongKey = `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`;
    expect((await client.get(`${url.pathname}?key=${wrongKey}`)).statusCode).toBe(404);
    const other = page.items.find((item) => item.id !== invoice.id)!;
    expect((await client.get(`/api/documents/${other.id}/pdf?key=${key}`)).statusCode).toBe(404);

    // Sent again: a second e-mail with the same PDF, and an audit row naming the owner.
    const before = await documentEmails(db(), member.email);
    const resent = await owner.client.json(
      'POST',
      `/api/admin/documents/${invoice.id}/resend`,
      undefined,
      owner.token,
    );
    expect(resent.statusCode, resent.body).toBe(202);
    const after = await documentEmails(db(), member.email);
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)!.subject).toContain(invoice.number!);
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'entity_id', 'operator_email'])
      .where('action', '=', 'tax_document.resend')
      .execute();
    expect(audit).toEqual([
      { action: 'tax_document.resend', entity_id: String(invoice.id), operator_email: owner.email },
    ]);
    expect(
      (await staff.client.json('POST', `/api/admin/documents/${invoice.id}/resend`, undefined, staff.token))
        .statusCode,
    ).toBe(403);
    expect(
      (await owner.client.json('POST', '/api/admin/documents/999999/resend', undefined, owner.token))
        .statusCode,
    ).toBe(404);

    // The ledger line by line.
    const csv = await owner.client.get(`/api/admin/reports/ledger/csv?${period}`, owner.token);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain('ledger-2026-03-01-2026-03-31.csv');
    const [header, ...lines] = csv.body.trimEnd().split('\r\n');
    expect(header).toBe(
      'date,local_date,entry_id,kind,purpose,booking_ids,branch_id,branch,member_id,amount_eur,vat_rate,vat_eur,net_eur,provider,provider_reference,payment_method,refunded_entry_id,document_kind,document_status,document_number,atcud',
    );
    expect(lines).toHaveLength(4);
    const rows = lines.map((line) => line.split(','));
    const column = (name: string) => header!.split(',').indexOf(name);
    const pick = (row: string[]) =>
      ['kind', 'purpose', 'booking_ids', 'amount_eur', 'vat_rate', 'vat_eur', 'net_eur', 'provider'].map(
        (name) => row[column(name)],
      );
    const ids = [x, y].sort((a, b) => a - b).join(' ');
    // Oldest first: the two payments, then the two refunds of the cancellation (in either order).
    const picked = rows.map(pick);
    expect(picked.slice(0, 2)).toEqual([
      ['payment', 'booking', ids, '35.50', '23.00', '6.64', '28.86', 'local'],
      ['payment', 'move_difference', String(x), '6.30', '23.00', '1.18', '5.12', 'local'],
    ]);
    expect(picked.slice(2).sort((a, b) => a[3]!.localeCompare(b[3]!))).toEqual([
      ['refund', 'cancellation', String(x), '-13.50', '23.00', '-2.52', '-10.98', 'local'],
      ['refund', 'cancellation', String(x), '-6.30', '23.00', '-1.18', '-5.12', 'local'],
    ]);
    // The sums match the ledger: 41.80 paid, 19.80 refunded.
    const total = rows.reduce((sum, row) => sum + Math.round(Number(row[column('amount_eur')]) * 100), 0);
    expect(total).toBe(3550 + 630 - 630 - 1350);
    // Each line names its document; each refund the payment it pays back.
    for (const row of rows) {
      const kind = row[column('kind')];
      expect(row[column('document_status')]).toBe('issued');
      expect(row[column('document_kind')]).toBe(kind === 'payment' ? 'invoice_receipt' : 'credit_note');
      expect(row[column('document_number')]).toMatch(
        kind === 'payment' ? /^FR LOCAL\/[12]$/ : /^NC LOCAL\/[12]$/,
      );
      expect(row[column('atcud')]).toMatch(/^LOCAL(FR|FS|NC)0-\d+$/);
      expect(row[column('provider_reference')]).not.toBe('');
      expect(row[column('payment_method')]).toMatch(/^(card .+)?$/);
      if (kind === 'refund') {
        const refunded = Number(row[column('refunded_entry_id')]);
        expect(refunded).toBe(row[column('amount_eur')] === '-6.30' ? moveEntry.id : checkoutEntry.id);
      }
    }
    // Another branch alone: nothing.
    const otherBranch = await createBranch(db(), { slug: `docs-other-${target}`, name: 'Porto' });
    const none = await owner.client.get(
      `/api/admin/reports/ledger/csv?${period}&branch_id=${otherBranch}`,
      owner.token,
    );
    expect(none.body.trimEnd().split('\r\n')).toHaveLength(1);
  });

  it("sets a branch's VAT rate from the console (owners) and the CLI; new payments take it", async () => {
    const porto = await createBranch(db(), { slug: `vat-${target}`, name: 'Porto' });
    const path = `/api/admin/branches/${porto}`;
    const patch = (operator: typeof owner, payload: object) =>
      operator.client.call({
        method: 'PATCH',
        url: path,
        payload,
        headers: { authorization: `Bearer ${operator.token}` },
      });
    expect((await owner.client.get(path, owner.token)).json<Schemas['AdminBranch']>().vat_rate).toBeNull();
    // Staff change branches, but not their VAT.
    const refused = await patch(staff, { vat_rate: 0.06 });
    expect(refused.statusCode, refused.body).toBe(403);
    const tooHigh = await patch(owner, { vat_rate: 1.5 });
    expect(tooHigh.statusCode, tooHigh.body).toBe(422);
    const set = await patch(owner, { vat_rate: 0.06 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<Schemas['AdminBranch']>().vat_rate).toBe(0.06);
    const audit = await db()
      .selectFrom('audit_log')
      .select(['before', 'after'])
      .where('action', '=', 'branch.update')
      .where('entity_id', '=', String(porto))
      .execute();
    expect(
      audit.map((row) => [
        (row.before as { vat_rate: unknown }).vat_rate,
        (row.after as { vat_rate: unknown }).vat_rate,
      ]),
    ).toEqual([[null, 0.06]]);

    // A payment there: 21.20 at 6 % includes 1.20 of VAT (21.20 × 6 / 106).
    const client = newClient(server.app);
    const member = await verifiedAccount(client, server.app, { locale: 'pt' });
    await bookAndPay(
      server,
      client,
      member.token,
      [await slotAt(db(), porto, '2026-03-28T10:00:00Z', 21.2)],
      21.2,
    );
    const csv = await owner.client.get(
      `/api/admin/reports/ledger/csv?${period}&branch_id=${porto}`,
      owner.token,
    );
    const [header, line] = csv.body.trimEnd().split('\r\n');
    const cells = line!.split(',');
    const column = (name: string) => cells[header!.split(',').indexOf(name)];
    expect([column('amount_eur'), column('vat_rate'), column('vat_eur'), column('net_eur')]).toEqual([
      '21.20',
      '6.00',
      '1.20',
      '20.00',
    ]);

    // The CLI: a percentage, or `default` for the server's rate.
    const cli = async (...argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runAdmin(argv, {
        db: db(),
        clock: server.clock,
        horizonDays: 2,
        io: { out: (text) => out.push(text), err: (text) => err.push(text) },
      });
      return { code, out, err };
    };
    const thirteen = await cli('branch', 'update', String(porto), '--vat-rate', '13');
    expect(thirteen.code, thirteen.err.join('\n')).toBe(0);
    expect(thirteen.out).toContain(`branch ${porto} VAT: 13 % from now on`);
    expect((await owner.client.get(path, owner.token)).json<Schemas['AdminBranch']>().vat_rate).toBe(0.13);
    expect((await cli('branch', 'update', String(porto), '--vat-rate', 'lots')).code).toBe(2);
    const reset = await cli('branch', 'update', String(porto), '--vat-rate', 'default');
    expect(reset.code).toBe(0);
    expect((await owner.client.get(path, owner.token)).json<Schemas['AdminBranch']>().vat_rate).toBeNull();
  });
});
