import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setupI18n, type I18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { parsePo } from 'pofile-ts';

// The server speaks the client's five languages; anything else falls back to Portuguese.
export const LOCALES = ['pt', 'en', 'fr', 'de', 'sk'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'pt';

/**
 * A server text: an explicit id and its Portuguese source in ICU MessageFormat (plurals, selects). Written as
 * `/*i18n*\/ { id, message }` so `npm run i18n:extract` collects it into `locales/{locale}/server.po`
 * without a macro transform (the server runs its TypeScript as is).
 */
export type Message = { readonly id: string; readonly message: string; readonly comment?: string };
export type MessageValues = Record<string, string | number>;

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

const catalogDirectory = path.resolve(import.meta.dirname, '../../locales');

/**
 * A catalog's translated messages, compiled: `locales/{locale}/{name}.po` read with pofile-ts, the parser Lingui's
 * own .po format uses (reading it directly keeps Lingui's CLI configuration loader, jiti and lilconfig, out of the
 * server).
 */
function compiledMessages(locale: Locale, name: 'server' | 'messages') {
  const { items } = parsePo(readFileSync(path.join(catalogDirectory, locale, `${name}.po`), 'utf8'));
  return Object.fromEntries(
    items
      .filter((item) => !item.obsolete && item.msgstr[0])
      .map((item) => [item.msgid, compileMessage(item.msgstr[0]!)]),
  );
}

/** One Lingui instance per language, made on first use (a few milliseconds; nothing is read at startup). */
function perLanguage(make: (locale: Locale) => I18n): (locale: Locale) => I18n {
  const instances = new Map<Locale, I18n>();
  return (locale) => {
    let instance = instances.get(locale);
    if (!instance) instances.set(locale, (instance = make(locale)));
    return instance;
  };
}

/**
 * The server's catalog (`locales/{locale}/server.po`, by explicit ids). A message missing from a catalog falls
 * back to its Portuguese source, compiled when it is used.
 */
const catalog = perLanguage((locale) => {
  const intlLocale = INTL_LOCALES[locale];
  const i18n = setupI18n({
    locale: intlLocale,
    messages: { [intlLocale]: compiledMessages(locale, 'server') },
  });
  i18n.setMessagesCompiler(compileMessage);
  return i18n;
});

/**
 * The app's own main catalog (`locales/{locale}/messages.po`, keyed by each message's Portuguese source): for
 * text the server writes into the app's prerendered pages, which the app then adopts, so both say it in the same
 * words from the same translation. Keyed by the app's locale, with the region's plural rules, as the app activates
 * it (src/i18n/i18n.ts).
 */
const appCatalog = perLanguage((locale) =>
  setupI18n({
    locale,
    locales: [INTL_LOCALES[locale]],
    messages: { [locale]: compiledMessages(locale, 'messages') },
  }),
);

/**
 * One of the app's texts (its Portuguese source, as the app's code writes it) in a language, its placeholders
 * filled. Throws when the app's catalog has no such text: its source changed and the server's copy did not.
 */
export function translateAppText(locale: Locale, source: string, values?: MessageValues): string {
  const i18n = appCatalog(locale);
  if (!(source in i18n.messages)) throw new Error(`The app's ${locale} catalog has no text "${source}"`);
  return i18n._({ id: source, values });
}

/** A server text in a language, its placeholders filled (plural and select rules are the language's). */
export function translate(locale: Locale, message: Message, values?: MessageValues): string {
  return catalog(locale)._({ id: message.id, message: message.message, values });
}

/** `translate` bound to one language. */
export function translator(locale: Locale): (message: Message, values?: MessageValues) => string {
  return (message, values) => translate(locale, message, values);
}

type Translated<T> = { [Key in keyof T]: T[Key] extends readonly Message[] ? string[] : string };

/** Every text of a template (messages and lists of messages) in a language, with the same values. */
export function translateAll<T extends Record<string, Message | readonly Message[]>>(
  locale: Locale,
  template: T,
  values?: MessageValues,
): Translated<T> {
  return Object.fromEntries(
    Object.entries(template).map(([key, value]) => [
      key,
      Array.isArray(value)
        ? value.map((line: Message) => translate(locale, line, values))
        : translate(locale, value as Message, values),
    ]),
  ) as Translated<T>;
}

/** From a table of confirmations, the `{"message": ...}` answer for a key in the caller's language. */
export function messageAnswer<Key extends string>(
  table: Record<Key, Message>,
): (key: Key, locale: Locale) => { message: string } {
  return (key, locale) => ({ message: translate(locale, table[key]) });
}
