import type { Locale } from './locales.ts';

// Intl tags per interface language: European Portuguese, and a 12-hour clock in English only.
const INTL_TAGS: Record<Locale, string> = { pt: 'pt-PT', en: 'en-GB', fr: 'fr-FR', de: 'de-DE', sk: 'sk-SK' };

export function intlTag(locale: Locale): string {
  return INTL_TAGS[locale];
}

export function usesTwelveHourClock(locale: Locale): boolean {
  return locale === 'en';
}

/** 'long': short weekday, day, long month, year, hour:minute. */
export function formatLongDateTime(value: Date, locale: Locale, timeZone?: string): string {
  return new Intl.DateTimeFormat(intlTag(locale), {
    weekday: 'short',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: usesTwelveHourClock(locale),
    ...(timeZone ? { timeZone } : {}),
  }).format(value);
}

/** 'timeOnly': hour and minute. */
export function formatTime(value: Date, locale: Locale, timeZone?: string): string {
  return new Intl.DateTimeFormat(intlTag(locale), {
    hour: '2-digit',
    minute: '2-digit',
    hour12: usesTwelveHourClock(locale),
    ...(timeZone ? { timeZone } : {}),
  }).format(value);
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

export function formatPercent(fraction: number, locale: Locale): string {
  return new Intl.NumberFormat(intlTag(locale), { style: 'percent', maximumFractionDigits: 0 }).format(
    fraction,
  );
}
