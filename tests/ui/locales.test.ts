import { describe, expect, it } from 'vitest';
import { detectLocale, localeCookie, switchLocaleInPath } from '../../src/i18n/locales.ts';
import { formatLongDateTime, formatTime } from '../../src/i18n/format.ts';

describe('locale detection order', () => {
  it('takes the locale of the URL path first', () => {
    expect(detectLocale({ pathname: '/de/rights', cookie: 'locale=fr', languages: ['en-US'] })).toBe('de');
  });

  it('takes the locale cookie when the path names none', () => {
    expect(detectLocale({ pathname: '/', cookie: 'a=1; locale=fr', languages: ['en-US'] })).toBe('fr');
  });

  it("takes the browser's first supported language by its primary subtag", () => {
    expect(detectLocale({ pathname: '/', cookie: '', languages: ['es-ES', 'sk-SK', 'en'] })).toBe('sk');
  });

  it('falls back to Portuguese', () => {
    expect(detectLocale({ pathname: '/', cookie: 'locale=xx', languages: ['es', 'it'] })).toBe('pt');
  });

  it('skips an unsupported locale in the path and goes on down the order', () => {
    expect(detectLocale({ pathname: '/xx/rights', cookie: 'locale=en', languages: [] })).toBe('en');
  });
});

describe('switching locale in a path', () => {
  it('replaces the leading locale segment and keeps the rest', () => {
    expect(switchLocaleInPath('/pt/rights', 'en')).toBe('/en/rights');
    expect(switchLocaleInPath('/fr', 'de')).toBe('/de');
    expect(switchLocaleInPath('/fr/', 'de')).toBe('/de');
  });

  it('prefixes the locale when the path has none', () => {
    expect(switchLocaleInPath('/', 'sk')).toBe('/sk');
    expect(switchLocaleInPath('/rights', 'sk')).toBe('/sk/rights');
  });
});

describe('locale cookie', () => {
  it('lasts one year on the whole site', () => {
    expect(localeCookie('fr')).toBe('locale=fr; Max-Age=31536000; Path=/; SameSite=Lax');
  });
});

describe('date formats', () => {
  const instant = new Date('2026-11-22T15:05:00Z');

  it('uses a 12-hour clock in English only', () => {
    expect(formatTime(instant, 'en', 'Europe/Lisbon').toLowerCase()).toMatch(/^3:05\s?pm$/);
    expect(formatTime(instant, 'pt', 'Europe/Lisbon')).toBe('15:05');
    expect(formatTime(instant, 'de', 'Europe/Lisbon')).toBe('15:05');
  });

  it('writes the long format with weekday, day, month name, year and time', () => {
    const text = formatLongDateTime(instant, 'pt', 'Europe/Lisbon');
    expect(text).toContain('novembro');
    expect(text).toContain('2026');
    expect(text).toContain('15:05');
  });
});
