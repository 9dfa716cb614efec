import { i18n, type Messages } from '@lingui/core';
import { intlTag, localeCookie, type Locale } from './locales.ts';

// One chunk per language; the legal texts have their own catalog, loaded only by the rights page.
const mainCatalogs = import.meta.glob<{ messages: Messages }>('../../locales/*/messages.po');
const legalCatalogs = import.meta.glob<{ messages: Messages }>('../../locales/*/legal.po');
const accountCatalogs = import.meta.glob<{ messages: Messages }>('../../locales/*/account.po');
const bookingCatalogs = import.meta.glob<{ messages: Messages }>('../../locales/*/booking.po');
const adminCatalogs = import.meta.glob<{ messages: Messages }>('../../locales/*/admin.po');

/** Catalogs that load with a feature (its modal), not with the first page. */
const featureCatalogs = { account: accountCatalogs, booking: bookingCatalogs, admin: adminCatalogs } as const;
export type Feature = keyof typeof featureCatalogs;
const requestedFeatures = new Set<Feature>();

async function load(catalogs: typeof mainCatalogs, locale: Locale, name: string): Promise<Messages> {
  const importer = catalogs[`../../locales/${locale}/${name}.po`];
  if (!importer) throw new Error(`No ${name} catalog for locale ${locale}`);
  return (await importer()).messages;
}

let chosenLocale: Locale | null = null;

/**
 * The language the interface is showing, or about to show: the API's `locale` header. Requests made while the
 * catalog still loads (the first token check and branches) already carry the URL's language.
 */
export function requestLocale(): Locale {
  return chosenLocale ?? ((i18n.locale || 'pt') as Locale);
}

/** Loads the locale's catalog and makes it the active one; the page's `lang` follows. */
export async function activateLocale(locale: Locale): Promise<void> {
  chosenLocale = locale;
  if (i18n.locale === locale) return;
  // Features already in use (an open modal) switch language together with the page.
  const [messages, ...features] = await Promise.all([
    load(mainCatalogs, locale, 'messages'),
    ...[...requestedFeatures].map((feature) => load(featureCatalogs[feature], locale, feature)),
  ]);
  i18n.load(locale, Object.assign({}, messages, ...features) as Messages);
  // Plurals by the region's rules, as Intl formats numbers and dates: in Portugal 0 takes the plural ("0 reservas";
  // bare `pt` gives Brazil's "0 reserva").
  i18n.activate(locale, [intlTag(locale)]);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

const loadedLegal = new Set<Locale>();

/** Adds the legal texts of the locale to its catalog (the rights page calls this before rendering). */
export async function loadLegalMessages(locale: Locale): Promise<void> {
  if (loadedLegal.has(locale)) return;
  i18n.load(locale, await load(legalCatalogs, locale, 'legal'));
  loadedLegal.add(locale);
}

/**
 * Adds a feature's texts (the auth and account modals, the booking modal) to the active locale's catalog;
 * once requested, they follow every later change of language. A modal awaits this before it renders.
 */
export async function loadFeatureMessages(feature: Feature): Promise<void> {
  const locale = i18n.locale as Locale;
  const alreadyLoaded = requestedFeatures.has(feature);
  requestedFeatures.add(feature);
  if (alreadyLoaded) return;
  i18n.load(locale, await load(featureCatalogs[feature], locale, feature));
}

export function rememberLocale(locale: Locale): void {
  if (typeof document === 'undefined') return;
  document.cookie = localeCookie(locale);
}

export { i18n };
