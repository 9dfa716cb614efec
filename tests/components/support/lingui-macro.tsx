import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { i18n } from '@lingui/core';
import type { ReactNode } from 'react';

// Lingui's macros at run time, for the component tests. Vitest's configuration (vitest.config.ts) runs no
// Lingui macro transform, so each component test mocks `@lingui/react/macro` and `@lingui/core/macro` with
// this module. Every `t` text is looked up in the real Portuguese catalogs (locales/pt/*.po): a text the
// catalogs lack fails the test; what is shown is the catalog's translation. `<Trans>` shows its children,
// which are the Portuguese source (pt is the source locale, so the catalog holds the same words).

const CATALOGS = path.resolve(import.meta.dirname, '../../../locales/pt');

function unquote(lines: string): string {
  return lines
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line.trim()) as string)
    .join('');
}

/** Every message of the Portuguese catalogs: its source text (msgid) and its translation (msgstr). */
const catalog = new Map<string, string>();
for (const file of readdirSync(CATALOGS).filter((name) => name.endsWith('.po'))) {
  const text = readFileSync(path.join(CATALOGS, file), 'utf8');
  for (const block of text.split(/\n\s*\n/)) {
    const match = /^msgid ((?:".*"\n?)+)msgstr ((?:".*"\n?)+)/m.exec(`${block}\n`);
    if (!match?.[1] || !match[2]) continue;
    const id = unquote(match[1]);
    if (id !== '') catalog.set(id, unquote(match[2]) || id);
  }
}

// A placeholder of a message: `{name}` or an ICU argument with one level of nesting (`{n, plural, ...}`).
const PLACEHOLDER = String.raw`\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const lookups = new Map<string, { id: string; translation: string }>();

/** The catalog message a template's static parts belong to (its placeholders may have any name). */
function find(parts: readonly string[]): { id: string; translation: string } {
  const key = parts.join('\u0000');
  const known = lookups.get(key);
  if (known) return known;
  const pattern = new RegExp(`^${parts.map(escape).join(PLACEHOLDER)}$`);
  const exact = parts.length === 1 ? catalog.get(parts[0]!) : undefined;
  const id =
    exact !== undefined ? parts[0]! : [...catalog.keys()].find((candidate) => pattern.test(candidate));
  if (id === undefined)
    throw new Error(`The text ${JSON.stringify(parts.join('{…}'))} is not in the Portuguese catalogs.`);
  const found = { id, translation: catalog.get(id)! };
  lookups.set(key, found);
  return found;
}

function translate(parts: readonly string[], values: unknown[]): string {
  const { translation } = find(parts);
  let index = 0;
  return translation.replace(new RegExp(PLACEHOLDER, 'g'), () => {
    const value = values[index++];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  });
}

function t(strings: TemplateStringsArray | string | { message?: string; id?: string }, ...values: unknown[]) {
  if (typeof strings === 'string') return translate([strings], []);
  if ('raw' in strings) return translate(strings, values);
  return translate([strings.message ?? strings.id ?? ''], []);
}

type PluralForms = { value: number; offset?: number; other: string } & Record<string, unknown>;

function pluralText(value: number, forms: Omit<PluralForms, 'value'>): string {
  const exact = forms[`_${value}`] ?? forms[`=${value}`];
  const chosen = exact ?? forms[new Intl.PluralRules('pt').select(value)] ?? forms.other;
  return String(chosen).replaceAll('#', new Intl.NumberFormat('pt').format(value));
}

export function plural(value: number, forms: Omit<PluralForms, 'value'>): string {
  return pluralText(value, forms);
}

export { t };

export function useLingui() {
  return { t, i18n, _: i18n._.bind(i18n) };
}

export function Trans({ children }: { children?: ReactNode }) {
  return <>{children}</>;
}

export function Plural({ value, ...forms }: PluralForms) {
  return <>{pluralText(value, forms)}</>;
}
