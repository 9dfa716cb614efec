import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';
import { formatMoney } from '../../kernel/money.ts';
import { translator, type Message } from '../../kernel/i18n.ts';
import type { TaxDocumentKind } from '../../db/schema.ts';
import type { DocumentToIssue } from './provider.ts';

// The local provider's PDF: the fields a Portuguese invoice carries (seller, buyer, number, ATCUD, date, lines,
// VAT, total, QR code), in the document's language, and across the top in red that it is not valid for tax.

const KIND_TITLES: Record<TaxDocumentKind, Message> = {
  invoice_receipt: /*i18n*/ { id: 'taxDocument.kind.invoiceReceipt', message: 'Fatura-recibo' },
  simplified_invoice: /*i18n*/ { id: 'taxDocument.kind.simplifiedInvoice', message: 'Fatura simplificada' },
  credit_note: /*i18n*/ { id: 'taxDocument.kind.creditNote', message: 'Nota de crédito' },
};

export const TAX_DOCUMENT_TEXTS = {
  notValid: /*i18n*/ {
    id: 'taxDocument.notValidForTax',
    message: 'DOCUMENTO DE DEMONSTRAÇÃO – NÃO VÁLIDO PARA EFEITOS FISCAIS',
    comment: 'Across the top of a document the server issued itself, without a certified invoicing service.',
  },
  notValidNote: /*i18n*/ {
    id: 'taxDocument.notValidNote',
    message: 'Emitido sem serviço de faturação certificado: não substitui a fatura.',
  },
  seller: /*i18n*/ { id: 'taxDocument.seller', message: 'NIF {taxId}' },
  number: /*i18n*/ { id: 'taxDocument.number', message: 'N.º {number}' },
  date: /*i18n*/ { id: 'taxDocument.date', message: 'Data: {date}' },
  atcud: /*i18n*/ { id: 'taxDocument.atcud', message: 'Código ATCUD: {atcud}' },
  buyer: /*i18n*/ { id: 'taxDocument.buyer', message: 'Cliente: {name}' },
  buyerTaxId: /*i18n*/ { id: 'taxDocument.buyerTaxId', message: 'NIF do cliente: {taxId}' },
  finalConsumer: /*i18n*/ { id: 'taxDocument.finalConsumer', message: 'Consumidor final' },
  credits: /*i18n*/ {
    id: 'taxDocument.credits',
    message: 'Retifica {number} de {date}',
    comment: 'A credit note names the invoice it corrects.',
  },
  beforeCoupon: /*i18n*/ { id: 'taxDocument.beforeCoupon', message: 'Preço sem cupão: {price}' },
  vat: /*i18n*/ {
    id: 'taxDocument.vat',
    message: 'IVA {rate} %: base {base}, imposto {vat}',
  },
  total: /*i18n*/ { id: 'taxDocument.total', message: 'Total: {total}' },
} as const;

export function kindTitle(kind: TaxDocumentKind): Message {
  return KIND_TITLES[kind];
}

const WIN_ANSI_EXTRA = '€–—‘’“”•…ŠšŽžŒœŸ';

/** The letters the standard PDF fonts (WinAnsi) can draw; others lose their accent ('č' is drawn 'c'), or are '?'. */
export function winAnsiText(text: string): string {
  const drawable = (char: string) => char.codePointAt(0)! < 0x100 || WIN_ANSI_EXTRA.includes(char);
  return [...text]
    .map((char) => {
      if (drawable(char)) return char;
      const bare = char.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      return [...bare].every(drawable) ? bare : '?';
    })
    .join('');
}

export type PdfFields = {
  document: DocumentToIssue;
  number: string;
  atcud: string;
  qrPayload: string;
  /** The red marking of a document no certified service issued. */
  notValidForTax: boolean;
};

function formatDay(locale: DocumentToIssue['locale'], isoDate: string): string {
  const [year, month, day] = isoDate.split('-');
  return locale === 'en' ? `${year}-${month}-${day}` : `${day}/${month}/${year}`;
}

export async function renderDocumentPdf(fields: PdfFields): Promise<Uint8Array> {
  const { document } = fields;
  const t = translator(document.locale);
  const money = (cents: number) => formatMoney(document.locale, cents);
  const pdf = await PDFDocument.create();
  pdf.setTitle(winAnsiText(`${t(KIND_TITLES[document.kind])} ${fields.number}`));
  pdf.setProducer('gym');
  const page = pdf.addPage([595.28, 841.89]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let y = 800;
  const write = (
    text: string,
    options: { font?: PDFFont; size?: number; x?: number; color?: [number, number, number] } = {},
  ) => {
    drawText(page, winAnsiText(text), {
      x: options.x ?? 50,
      y,
      size: options.size ?? 10,
      font: options.font ?? regular,
      color: options.color ?? [0, 0, 0],
    });
    y -= (options.size ?? 10) + 6;
  };

  if (fields.notValidForTax) {
    write(t(TAX_DOCUMENT_TEXTS.notValid), { font: bold, size: 11, color: [0.8, 0, 0] });
    y -= 4;
  }
  write(document.seller.name, { font: bold, size: 14 });
  write(document.seller.address);
  write(t(TAX_DOCUMENT_TEXTS.seller, { taxId: document.seller.taxId }));
  y -= 10;
  write(`${t(KIND_TITLES[document.kind])} – ${t(TAX_DOCUMENT_TEXTS.number, { number: fields.number })}`, {
    font: bold,
    size: 13,
  });
  write(t(TAX_DOCUMENT_TEXTS.date, { date: formatDay(document.locale, document.date) }));
  write(t(TAX_DOCUMENT_TEXTS.atcud, { atcud: fields.atcud }));
  if (document.credited) {
    write(
      t(TAX_DOCUMENT_TEXTS.credits, {
        number: document.credited.number,
        date: formatDay(document.locale, document.credited.date),
      }),
    );
  }
  y -= 6;
  write(t(TAX_DOCUMENT_TEXTS.buyer, { name: document.buyer.name }));
  if (document.buyer.taxId) write(t(TAX_DOCUMENT_TEXTS.buyerTaxId, { taxId: document.buyer.taxId }));
  y -= 10;
  for (const line of document.lines) {
    write(line.description, { font: bold });
    write(line.detail, { size: 9 });
    if (line.base_cents !== line.amount_cents) {
      write(t(TAX_DOCUMENT_TEXTS.beforeCoupon, { price: money(line.base_cents) }), { size: 9 });
    }
    y += 16;
    write(money(line.amount_cents), { x: 470, font: bold });
    y -= 4;
  }
  y -= 6;
  const rate = Math.round(document.vatRate * 10_000) / 100;
  write(
    t(TAX_DOCUMENT_TEXTS.vat, {
      rate: String(rate).replace('.', document.locale === 'en' ? '.' : ','),
      base: money(document.totalCents - document.vatCents),
      vat: money(document.vatCents),
    }),
  );
  write(t(TAX_DOCUMENT_TEXTS.total, { total: money(document.totalCents) }), { font: bold, size: 12 });

  const qr = await QRCode.toBuffer(fields.qrPayload, { type: 'png', errorCorrectionLevel: 'M', margin: 1 });
  const image = await pdf.embedPng(qr);
  const side = 110;
  page.drawImage(image, { x: 50, y: Math.max(40, y - side - 10), width: side, height: side });
  if (fields.notValidForTax) {
    drawText(page, winAnsiText(t(TAX_DOCUMENT_TEXTS.notValidNote)), {
      x: 50,
      y: 25,
      size: 8,
      font: regular,
      color: [0.8, 0, 0],
    });
  }
  return pdf.save();
}

function drawText(
  page: PDFPage,
  text: string,
  options: { x: number; y: number; size: number; font: PDFFont; color: [number, number, number] },
) {
  page.drawText(text, { ...options, color: rgb(...options.color), maxWidth: 500 });
}
