import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, type Token } from '@messageformat/parser';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const LOCALES = ['pt', 'en', 'fr', 'de', 'sk'];
// Every catalog of the source locale (messages, legal, and one per lazily loaded feature).
const CATALOGS = readdirSync(path.join(root, 'locales', 'pt'))
  .filter((file) => file.endsWith('.po'))
  .map((file) => file.replace(/\.po$/, ''));

function unquote(lines: string[]): string {
  return lines.map((line) => JSON.parse(line.trim()) as string).join('');
}

/** msgid -> msgstr of a .po catalog (the header entry left out). */
function readCatalog(locale: string, catalog: string): Map<string, string> {
  const text = readFileSync(path.join(root, 'locales', locale, `${catalog}.po`), 'utf8');
  const entries = new Map<string, string>();
  for (const block of text.split(/\n\s*\n/)) {
    const match = /^msgid ((?:".*"\n?)+)msgstr ((?:".*"\n?)+)/m.exec(`${block}\n`);
    if (!match?.[1] || !match[2]) continue;
    const id = unquote(match[1].trim().split('\n'));
    if (id === '') continue;
    entries.set(id, unquote(match[2].trim().split('\n')));
  }
  return entries;
}

/** Braces left as text: an apostrophe before `{` quotes it in ICU, so `'{field}'` shows "{field}" to the reader. */
function hasLiteralBraces(tokens: Token[]): boolean {
  return tokens.some((token) =>
    token.type === 'content'
      ? /[{}]/.test(token.value)
      : 'cases' in token && token.cases.some((branch) => hasLiteralBraces(branch.tokens)),
  );
}

function placeholders(message: string): string[] {
  return [
    ...new Set([...message.matchAll(/\{(\w+)\}|<(\d+)>/g)].map((match) => match[1] ?? `<${match[2]}>`)),
  ].sort();
}

describe.each(CATALOGS)('the %s catalogs', (catalog) => {
  const source = readCatalog('pt', catalog);

  it('have messages', () => {
    expect(source.size).toBeGreaterThan(0);
  });

  it.each(LOCALES)('are complete in %s: every message translated, none empty', (locale) => {
    const translated = readCatalog(locale, catalog);
    expect([...translated.keys()].sort()).toEqual([...source.keys()].sort());
    const empty = [...translated].filter(([, value]) => value.trim() === '').map(([id]) => id);
    expect(empty).toEqual([]);
  });

  it.each(LOCALES)('keep the placeholders of the source in %s', (locale) => {
    const translated = readCatalog(locale, catalog);
    for (const [id, value] of translated) {
      const reference = source.get(id) ?? '';
      // Plural and select branches are words, not placeholders; those messages are rendered by the tests of
      // their texts (tests/server/message-plurals.test.ts for the server's).
      if (/\b(plural|select),/.test(reference) || /\b(plural|select),/.test(value)) continue;
      expect(placeholders(value), `${locale}: ${id}`).toEqual(placeholders(reference));
    }
  });

  it.each(LOCALES)('are valid ICU MessageFormat in %s, no placeholder quoted away', (locale) => {
    const invalid = [...readCatalog(locale, catalog)].filter(([, value]) => {
      try {
        return hasLiteralBraces(parse(value, { strict: false }));
      } catch {
        return true;
      }
    });
    expect(invalid.map(([id]) => id)).toEqual([]);
  });
});

describe('translations', () => {
  const english = readCatalog('en', 'messages');
  // Words that are the same in those languages (brand and loan words).
  const shared = new Set(['Cookies', 'Profil', 'Instagram']);

  it.each(['fr', 'de', 'sk'])('leave no English sentence untranslated in %s', (locale) => {
    const translated = readCatalog(locale, 'messages');
    const untranslated = [...translated]
      .filter(
        ([id, value]) =>
          value === english.get(id) && !shared.has(value) && !id.startsWith('meta.') && /\s/.test(value),
      )
      .map(([id]) => id);
    expect(untranslated).toEqual([]);
  });

  it.each(['pt', 'fr', 'de', 'sk'])('leave no English sentence in the server catalog in %s', (locale) => {
    const serverEnglish = readCatalog('en', 'server');
    // The same in every language: labels with a figure or a name ("Wi-Fi" is the word in Portuguese and Slovak
    // too), and a brand name (the MB WAY payment method).
    const sameInEnglish = new Set(['Total: {total}', 'MB WAY', 'Wi-Fi: {network}']);
    const untranslated = [...readCatalog(locale, 'server')]
      .filter(
        ([id, value]) => value === serverEnglish.get(id) && /\s/.test(value) && !sameInEnglish.has(value),
      )
      .map(([id]) => id);
    expect(untranslated).toEqual([]);
  });
});
