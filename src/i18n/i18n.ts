import { i18n } from '@lingui/core';
import type { Locale } from './locales.ts';

const catalogs = import.meta.glob<{ messages: Record<string, string> }>('../../locales/*/messages.po');

/** Loads the locale's compiled catalog (one chunk per language) and makes it the active one. */
export async function activateLocale(locale: Locale): Promise<void> {
  const load = catalogs[`../../locales/${locale}/messages.po`];
  if (!load) throw new Error(`No catalog for locale ${locale}`);
  const { messages } = await load();
  i18n.loadAndActivate({ locale, messages });
  document.documentElement.lang = locale;
}

export { i18n };
