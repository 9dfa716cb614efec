import { escapeHtml } from '../kernel/html.ts';

// Branch descriptions are HTML the client renders. The back office stores only a small, attribute-free subset:
// everything is escaped first, then the allowed bare tags are let through again, so no attribute, script, style
// or link can survive, whatever the input.

const ALLOWED_TAGS = ['p', 'br', 'strong', 'em', 'b', 'i', 'ul', 'ol', 'li', 'h3', 'h4'] as const;

export function sanitizeDescription(html: string): string {
  const allowed = new RegExp(`&lt;(/?)(${ALLOWED_TAGS.join('|')})\\s*/?&gt;`, 'gi');
  return escapeHtml(html.trim()).replace(
    allowed,
    (_whole, closing: string, tag: string) => `<${closing}${tag.toLowerCase()}>`,
  );
}
