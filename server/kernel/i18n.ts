// The server speaks the client's five languages; anything else falls back to Portuguese.
export const LOCALES = ['pt', 'en', 'fr', 'de', 'sk'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'pt';

export type Localised = Record<Locale, string>;

/** From a table of localised confirmations, the `{"message": ...}` answer for a key in the caller's language. */
export function messageAnswer<Key extends string>(
  table: Record<Key, Localised>,
): (key: Key, locale: Locale) => { message: string } {
  return (key, locale) => ({ message: table[key][locale] });
}

/** The region each language is written for, as Intl formats numbers and dates (Portugal for Portuguese). */
export const INTL_LOCALES: Record<Locale, string> = {
  pt: 'pt-PT',
  en: 'en-GB',
  fr: 'fr-FR',
  de: 'de-DE',
  sk: 'sk-SK',
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Reads a `locale` header value (or any user-supplied tag such as `pt-PT`) into a supported locale. */
export function resolveLocale(value: unknown): Locale {
  if (typeof value !== 'string') return DEFAULT_LOCALE;
  const primary = value.trim().slice(0, 2).toLowerCase();
  return isLocale(primary) ? primary : DEFAULT_LOCALE;
}

/** Fills `{name}` placeholders; unknown placeholders stay visible so a missing value is noticed. */
export function format(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}
