import { sql, type Kysely } from 'kysely';

// Invoices and credit notes (issue 29): every row of the money ledger written from now on gets one tax document,
// recorded `pending` in the transaction that writes the row and issued later by a job through the invoicing
// provider (a certified service, or the local look-alike). A payment gets a fatura-recibo (or a fatura
// simplificada), a refund a credit note naming the payment's document. What the document states (the buyer, its
// lines, the VAT) is fixed when it is recorded, so an account erased before the job runs changes nothing on it;
// documents are kept for the ten years the law asks, whatever happens to the account. Money from before this
// migration has no document here: it was paid before the server issued any.
//
// A branch may have a VAT rate of its own (renting sports facilities is taxed at a rate some contest); null: the
// server's VAT_RATE.

const statements = [
  `alter table branches add column vat_rate numeric(5, 4) check (vat_rate >= 0 and vat_rate <= 1)`,
  `create table tax_documents (
    id integer generated always as identity primary key,
    -- One document per ledger row, ever: the row's id is also the provider's external reference.
    ledger_entry_id integer not null unique references ledger_entries (id),
    kind text not null check (kind in ('invoice_receipt', 'simplified_invoice', 'credit_note')),
    -- pending: recorded, not yet issued; issued: the provider gave it its number; refused: the provider said no
    -- for good (an operator follows up).
    status text not null default 'pending' check (status in ('pending', 'issued', 'refused')),
    provider text not null check (provider in ('local', 'invoicexpress')),
    -- What the provider knows the document by (InvoiceXpress's 'reference'): 'ledger-<id>'.
    external_reference text not null unique,
    -- A credit note's invoice.
    credited_document_id integer references tax_documents (id),
    user_id uuid references users (id),
    -- The language of the local provider's PDF and of the e-mail that carries it.
    locale text not null default 'pt',
    buyer_name text not null,
    buyer_tax_id text,
    -- [{"description": ..., "detail": ..., "base_cents": ..., "amount_cents": ...}] (gross amounts, VAT included).
    lines jsonb not null check (jsonb_typeof(lines) = 'array'),
    currency text not null,
    total_cents integer not null check (total_cents > 0),
    vat_rate numeric(5, 4) not null check (vat_rate >= 0 and vat_rate <= 1),
    vat_cents integer not null check (vat_cents >= 0),
    -- What the provider answered once issued.
    provider_document_id text,
    number text,
    atcud text,
    qr_payload text,
    pdf bytea,
    permalink text,
    issued_at timestamptz,
    attempts integer not null default 0,
    last_error text,
    created_at timestamptz not null,
    updated_at timestamptz not null default now(),
    constraint tax_documents_credit_note_names_invoice check ((kind = 'credit_note') = (credited_document_id is not null)),
    constraint tax_documents_issued_complete check (status <> 'issued' or (number is not null and pdf is not null))
  )`,
  `create index tax_documents_pending on tax_documents (id) where status = 'pending'`,
  `create index tax_documents_by_user on tax_documents (user_id)`,
  // The local provider's own numbering: one counter per series and kind of document, taken in the issuing
  // transaction, so numbers have no gaps and no repeats.
  `create table tax_document_counters (
    series text not null,
    kind text not null,
    last_number integer not null,
    primary key (series, kind)
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`drop table tax_document_counters`).execute(db);
  await sql.raw(`drop table tax_documents`).execute(db);
  await sql.raw(`alter table branches drop column vat_rate`).execute(db);
}
