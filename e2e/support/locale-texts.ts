import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

// The interface texts of each locale, read from the catalogs the app is built from (the message id is the
// Portuguese source), and the checks that what a user sees is in one language.

export const JOURNEY_LOCALES = ['pt', 'fr', 'en', 'de', 'sk'] as const;
export type JourneyLocale = (typeof JOURNEY_LOCALES)[number];

export const INTL_TAGS: Record<JourneyLocale, string> = {
  pt: 'pt-PT',
  en: 'en-GB',
  fr: 'fr-FR',
  de: 'de-DE',
  sk: 'sk-SK',
};

export const LANGUAGE_NAMES: Record<JourneyLocale, string> = {
  pt: 'Português',
  en: 'English',
  fr: 'Français',
  de: 'Deutsch',
  sk: 'Slovenčina',
};

// Later catalogs win for an id in several: the account catalog's 'Iniciar sessão' is the login view's title.
const CATALOGS = ['messages', 'booking', 'account'];

function unquote(line: string): string {
  return JSON.parse(line.trim()) as string;
}

/** msgid -> msgstr of a .po file (continuation lines joined). */
function readPo(file: string): Map<string, string> {
  const entries = new Map<string, string>();
  let id: string | null = null;
  let current: 'id' | 'str' | null = null;
  let str = '';
  const flush = () => {
    if (id) entries.set(id, str);
    id = null;
    str = '';
  };
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('msgid ')) {
      flush();
      id = unquote(line.slice(6));
      current = 'id';
    } else if (line.startsWith('msgstr ')) {
      str = unquote(line.slice(7));
      current = 'str';
    } else if (line.startsWith('"')) {
      if (current === 'id') id = `${id ?? ''}${unquote(line)}`;
      else if (current === 'str') str += unquote(line);
    } else current = null;
  }
  flush();
  return entries;
}

const cache = new Map<JourneyLocale, Map<string, string>>();

export function catalog(locale: JourneyLocale): Map<string, string> {
  let entries = cache.get(locale);
  if (!entries) {
    entries = new Map();
    for (const name of CATALOGS)
      for (const [id, str] of readPo(path.join('locales', locale, `${name}.po`))) entries.set(id, str);
    cache.set(locale, entries);
  }
  return entries;
}

/** The locale's text for a Portuguese message id, with its placeholders filled in. */
export function tr(locale: JourneyLocale, id: string, values: Record<string, string | number> = {}): string {
  const text = catalog(locale).get(id);
  if (text === undefined || text === '') throw new Error(`no ${locale} text for "${id}"`);
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/**
 * Common English interface words. A word that is also that language's own word is left out of its list:
 * 'Total' is Portuguese and French too, and 'Menu' is also Portuguese, French and Slovak.
 */
const ENGLISH_WORDS = [
  'Login',
  'Log in',
  'Log out',
  'Sign up',
  'Password',
  'Book',
  'Booking',
  'Bookings',
  'Cancel',
  'Confirm',
  'Settings',
  'Delete',
  'Profile',
  'Total',
  'Close',
  'Register',
  'Verify',
  'Payment',
  'Apply',
  'Coupon',
  'Account',
  'Branch',
  'Refunded',
  'Paid',
  'Next',
  'Previous',
  'Language',
  'Menu',
];
const SAME_WORDS: Partial<Record<JourneyLocale, string[]>> = {
  pt: ['Total', 'Menu'],
  fr: ['Total', 'Menu'],
  sk: ['Menu'],
};

function englishWordsIn(text: string, locale: JourneyLocale): string[] {
  if (locale === 'en') return [];
  const same = SAME_WORDS[locale] ?? [];
  return ENGLISH_WORDS.filter(
    (word) => !same.includes(word) && new RegExp(`(^|[^\\p{L}])${word}(?![\\p{L}])`, 'u').test(text),
  );
}

/** Portuguese source texts (the message ids) shown untranslated, and raw placeholders or tags. */
function untranslatedIn(text: string, locale: JourneyLocale): string[] {
  const found: string[] = [];
  const raw = text.match(/\{[A-Za-z]\w*(, ?plural[^}]*)?\}|<\/?\d+>|\b(?:legal|meta)\.[a-z][\w.]+/g);
  if (raw) found.push(...raw);
  if (locale !== 'pt')
    for (const [id, translated] of catalog(locale)) {
      // Short ids ('E-mail', 'Total') may be the same word in the locale: only sentences and phrases count.
      if (id.length < 12 || id === translated || /[{<]/.test(id)) continue;
      if (text.includes(id)) found.push(id);
    }
  return found;
}

/** What a user sees in `scope` (a dialog, or the page) is in `locale`: no source ids, no English words. */
export async function expectInLocale(scope: Locator, locale: JourneyLocale, what: string): Promise<void> {
  const text = await scope.innerText();
  expect(text.trim().length, `${what}: has text`).toBeGreaterThan(0);
  expect(untranslatedIn(text, locale), `${what}: untranslated texts (${locale})`).toEqual([]);
  expect(englishWordsIn(text, locale), `${what}: English words in ${locale}`).toEqual([]);
}

/** The visible text of the page outside any modal (the landing page). */
export function pageBody(page: Page): Locator {
  return page.locator('body');
}

/** An amount in euros as the app formats it (whole euros without decimals), formatted by the browser. */
export async function euros(page: Page, locale: JourneyLocale, amount: number): Promise<string> {
  return page.evaluate(
    ([value, tag]) =>
      new Intl.NumberFormat(tag, {
        style: 'currency',
        currency: 'EUR',
        minimumFractionDigits: Number.isInteger(value) ? 0 : 2,
      }).format(value),
    [amount, INTL_TAGS[locale]] as const,
  );
}

/** A calendar day as the booking calendar labels its day buttons, formatted by the browser. */
export async function dayName(page: Page, locale: JourneyLocale, date: string): Promise<string> {
  return page.evaluate(
    ([value, tag]) =>
      new Intl.DateTimeFormat(tag, {
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(new Date(`${value}T12:00:00Z`)),
    [date, INTL_TAGS[locale]] as const,
  );
}

/** The slot price after a percentage coupon, rounded half up to the cent as the server does. */
export function discounted(price: number, percent: number): number {
  return Math.floor((Math.round(price * 100) * (10000 - percent * 100) + 5000) / 10000) / 100;
}

/** How many times the calendar's 'next month' leads from one yyyy-MM-dd date's month to another's. */
export function monthsBetween(from: string, to: string): number {
  const month = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7));
  return month(to) - month(from);
}
