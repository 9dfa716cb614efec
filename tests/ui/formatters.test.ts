import { describe, expect, it } from 'vitest';
import { formatDay, formatMonth, weekdayNames } from '../../src/booking/dates.ts';
import { formatEuros, formatPercent } from '../../src/i18n/format.ts';

// The formatters are made once per language and options and reused (the booking modal formats dozens of days
// and prices per render): what they write must not depend on which was asked for first.

describe('the interface’s formatters', () => {
  it('write whole euros without decimals and anything else with two, whatever came before', () => {
    expect(formatEuros(15, 'en')).toBe('€15');
    expect(formatEuros(12.5, 'en')).toBe('€12.50');
    expect(formatEuros(15, 'en')).toBe('€15');
    expect(formatEuros(9, 'de')).toBe('9\u00a0€');
    expect(formatEuros(12.5, 'de')).toBe('12,50\u00a0€');
  });

  it('write a percent with the space French, German and Slovak put before the sign (issue 30: "(100%)")', () => {
    expect(formatPercent(100, 'pt')).toBe('100%');
    expect(formatPercent(50, 'en')).toBe('50%');
    expect(formatPercent(100, 'fr')).toBe('100\u00a0%');
    expect(formatPercent(50, 'de')).toBe('50\u00a0%');
    expect(formatPercent(100, 'sk')).toBe('100\u00a0%');
  });

  it('write days, months and weekdays in each language asked for', () => {
    expect(formatDay('2026-11-24', 'pt')).toBe('terça-feira, 24 de novembro de 2026');
    expect(formatDay('2026-11-24', 'en')).toMatch(/^Tuesday,? 24 November 2026$/);
    expect(formatDay('2026-11-25', 'pt')).toBe('quarta-feira, 25 de novembro de 2026');
    expect(formatMonth('2026-11', 'fr')).toBe('novembre 2026');
    expect(weekdayNames('en')[0]).toEqual({ short: 'Mon', long: 'Monday' });
    expect(weekdayNames('de')[6]).toEqual({ short: 'So', long: 'Sonntag' });
    expect(weekdayNames('pt').map((day) => day.short)).toEqual([
      'seg',
      'ter',
      'qua',
      'qui',
      'sex',
      'sáb',
      'dom',
    ]);
    expect(weekdayNames('pt')[6]!.long).toBe('domingo');
  });
});
