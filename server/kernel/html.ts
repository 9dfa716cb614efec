/** Text made safe to put into HTML, in element content and in quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/**
 * The CSP of a page this server renders itself: nothing but its own nonce-bearing script and style, and calls back
 * to this server; `directives` adds the page's own (where its forms post, who may frame it).
 */
export function noncePagePolicy(nonce: string, directives: readonly string[]): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "base-uri 'none'",
    ...directives,
  ].join('; ');
}
