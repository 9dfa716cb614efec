import { i18n, type Messages } from '@lingui/core';
import { localeCookie, type Locale } from './locales.ts';

// One chunk per language; the legal texts have their own catalog, loaded only by the rights page.
const mainCatalogs = import.meta.glob<{ messages: Messages }>('../../locales/*/messages.po');
const legalCatalogs = import.meta.glob<{ messages: Messages }>('../../locales/*/legal.po');

async function load(catalogs: typeof mainCatalogs, locale: Locale, name: string): Promise<Messages> {
  const importer = catalogs[`../../locales/${locale}/${name}.po`];
  if (!importer) throw new Error(`No ${name} catalog for locale ${locale}`);
  return (await importer()).messages;
}

/** Loads the locale's catalog and makes it the active one; the page's `lang` follows. */
export async function activateLocale(locale: Locale): Promise<void> {
  if (i18n.locale === locale) return;
  const messages = await load(mainCatalogs, locale, 'messages');
  i18n.load(locale, messages);
  i18n.activate(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

const loadedLegal = new Set<Locale>();

/** Adds the legal texts of the locale to its catalog (the rights page calls this before rendering). */
export async function loadLegalMessages(locale: Locale): Promise<void> {
  if (loadedLegal.has(locale)) return;
  i18n.load(locale, await load(legalCatalogs, locale, 'legal'));
  loadedLegal.add(locale);
}

export function rememberLocale(locale: Locale): void {
  if (typeof document === 'undefined') return;
  document.cookie = localeCookie(locale);
}

export { i18n };
