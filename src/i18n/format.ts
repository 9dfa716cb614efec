import { intlTag, type Locale } from './locales.ts';

// A 12-hour clock in English only. The Intl tag of each language is locales.ts' (the catalogs' plurals use it too).
export { intlTag };

function usesTwelveHourClock(locale: Locale): boolean {
  return locale === 'en';
}

/**
 * The clock of a language: '9:00 pm' in English, '09:00' elsewhere. Spelled out because Intl engines disagree on
 * a two-digit hour with a 12-hour clock ('09:00 pm' in Node, '9:00 pm' in Chromium); the server's messages use
 * the same options (server/kernel/time-format.ts).
 */
export function clockOptions(locale: Locale): Intl.DateTimeFormatOptions {
  const twelveHour = usesTwelveHourClock(locale);
  return { hour: twelveHour ? 'numeric' : '2-digit', minute: '2-digit', hour12: twelveHour };
}

// Making an Intl formatter costs far more than using one, and a page uses the same few many times (the booking
// modal's calendar and slot grid, dozens per render): each is made once per language and options.
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

/** The language's date and time formatter with these options (made once, then reused). */
export function dateTimeFormat(locale: Locale, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = dateTimeFormats.get(key);
  if (!format) dateTimeFormats.set(key, (format = new Intl.DateTimeFormat(intlTag(locale), options)));
  return format;
}

function numberFormat(locale: Locale, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(intlTag(locale), options)));
  return format;
}

const euros = (locale: Locale, whole: boolean) =>
  numberFormat(locale, {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  });

/** A euro amount: whole euros without decimals, anything else with two. */
export function formatEuros(amount: number, locale: Locale): string {
  return euros(locale, Number.isInteger(amount)).format(amount);
}

/**
 * Makes the language's euro formatter ahead of its first use. The first currency formatter of a page costs more than
 * any later one (the language's number data is read then): made in a task of its own while the page waits for its
 * data, it is not part of the task that then shows the prices (issue 33).
 */
export function prepareEuros(locale: Locale): void {
  euros(locale, true);
}

/** A whole percent as the language writes it: '100%' in pt and en, '100 %' in fr, de and sk. */
export function formatPercent(percent: number, locale: Locale): string {
  return numberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(percent / 100);
}
