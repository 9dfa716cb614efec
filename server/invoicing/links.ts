import { timingSafeEqual } from 'node:crypto';

// The signed link to a document's PDF (docs/decisions.md, "Documents and the accountant's export"): the key is a
// keyed hash of the document's id under the server's secret, so the link opens from an e-mail without signing in,
// and knowing one document's link tells nothing of another's.

export type DocumentLinks = {
  key(documentId: number): string;
  url(documentId: number): string;
  verify(documentId: number, key: string): boolean;
};

export function createDocumentLinks(deps: {
  publicUrl: string;
  keyedHash: (purpose: string, value: string) => string;
}): DocumentLinks {
  const key = (documentId: number) => deps.keyedHash('tax-document-pdf', String(documentId));
  const base = deps.publicUrl.replace(/\/+$/, '');
  return {
    key,
    url: (documentId) => `${base}/api/documents/${documentId}/pdf?key=${key(documentId)}`,
    verify: (documentId, given) => {
      const expected = Buffer.from(key(documentId));
      const actual = Buffer.from(given);
      return expected.length === actual.length && timingSafeEqual(expected, actual);
    },
  };
}
