import { expect } from 'vitest';

/**
 * Issue 30: every e-mail the product sends has the one page of server/kernel/email-layout.ts (the confirmation and
 * the door code went out as bare paragraphs while the verification e-mail was styled): the reader's language,
 * light and dark colour schemes, and the body in the card.
 */
export function expectEmailPage(html: string | null | undefined, lang: string): void {
  expect(html).toMatch(new RegExp(`^<!doctype html><html lang="${lang}">`));
  expect(html).toContain('<meta name="color-scheme" content="light dark">');
  expect(html).toContain('@media (prefers-color-scheme: dark)');
  expect(html).toMatch(/<div class="email"[^>]*>[\s\S]*<p>[\s\S]*<\/div><\/body><\/html>$/);
}
