import type { Locale } from './locales.ts';

// The client's one map from interface language to Intl tag: European Portuguese, and a 12-hour clock in
// English only.
const INTL_TAGS: Record<Locale, string> = { pt: 'pt-PT', en: 'en-GB', fr: 'fr-FR', de: 'de-DE', sk: 'sk-SK' };

export function intlTag(locale: Locale): string {
  return INTL_TAGS[locale];
}

export function usesTwelveHourClock(locale: Locale): boolean {
  return locale === 'en';
}

/** A euro amount: whole euros without decimals, anything else with two. */
export function formatEuros(amount: number, locale: Locale): string {
  const whole = Number.isInteger(amount);
  return new Intl.NumberFormat(intlTag(locale), {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(amount);
}
