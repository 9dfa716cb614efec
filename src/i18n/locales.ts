export const LOCALES = ['pt', 'en', 'fr', 'de', 'sk'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'pt';
const LOCALE_COOKIE = 'locale';
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** How each locale names itself in the language selector. */
export const LOCALE_NAMES: Record<Locale, string> = {
  pt: 'Português',
  en: 'English',
  fr: 'Français',
  de: 'Deutsch',
  sk: 'Slovenčina',
};

// The client's one map from interface language to Intl tag: European Portuguese, British English.
const INTL_TAGS: Record<Locale, string> = { pt: 'pt-PT', en: 'en-GB', fr: 'fr-FR', de: 'de-DE', sk: 'sk-SK' };

/** The Intl tag of a language: how its numbers and dates are formatted and its plurals chosen. */
export function intlTag(locale: Locale): string {
  return INTL_TAGS[locale];
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The primary subtag of a language tag, lower-cased: `pt-PT` -> `pt`. */
function primarySubtag(tag: string): string {
  return tag.trim().split(/[-_]/)[0]?.toLowerCase() ?? '';
}

/** The first path segment when it is shaped like a locale (two lowercase letters), supported or not. */
export function localeSegment(pathname: string): string | null {
  const segment = pathname.split('/')[1] ?? '';
  return /^[a-z]{2}$/.test(segment) ? segment : null;
}

function readLocaleCookie(cookieHeader: string): string | null {
  for (const part of cookieHeader.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === LOCALE_COOKIE) return decodeURIComponent(value.join('='));
  }
  return null;
}

export function localeCookie(locale: Locale): string {
  return `${LOCALE_COOKIE}=${locale}; Max-Age=${ONE_YEAR_SECONDS}; Path=/; SameSite=Lax`;
}

export type DetectionSources = {
  pathname: string;
  cookie: string;
  /** The browser's preferred languages, most preferred first (`navigator.languages`). */
  languages: readonly string[];
};

/** The locale detection order (docs/decisions.md, 'Client'): the URL path segment, the `locale` cookie, the browser's languages, pt. */
export function detectLocale({ pathname, cookie, languages }: DetectionSources): Locale {
  const fromPath = localeSegment(pathname);
  if (isLocale(fromPath)) return fromPath;
  const fromCookie = readLocaleCookie(cookie);
  if (isLocale(fromCookie)) return fromCookie;
  for (const language of languages) {
    const subtag = primarySubtag(language);
    if (isLocale(subtag)) return subtag;
  }
  return DEFAULT_LOCALE;
}

/** Replaces the leading locale segment of a path (or prefixes one) and keeps the rest. */
export function switchLocaleInPath(pathname: string, locale: Locale): string {
  const segment = localeSegment(pathname);
  const rest = segment === null ? pathname : pathname.slice(segment.length + 1);
  const tail = rest === '' || rest === '/' ? '' : rest.startsWith('/') ? rest : `/${rest}`;
  return `/${locale}${tail}`;
}
