import { defineHandlers } from '../http/operations.ts';
import { AppError } from '../kernel/errors.ts';
import type { DocumentLinks } from './links.ts';
import type { InvoicingService } from './service.ts';

// The document's PDF by its signed link: no sign-in (an e-mail's link), the key checked, private and not cached
// by anything shared.

export function invoicingHandlers(deps: { invoicing: InvoicingService; links: DocumentLinks }) {
  return defineHandlers({
    getDocumentPdf: async (request, reply) => {
      const id = request.params.document_id;
      if (!deps.links.verify(id, request.query.key)) throw new AppError('not_found');
      const { pdf, fileName } = await deps.invoicing.pdfFile(id);
      return reply
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `inline; filename="${fileName}"`)
        .header('x-robots-tag', 'noindex')
        .type('application/pdf')
        .send(Buffer.from(pdf));
    },
  });
}
