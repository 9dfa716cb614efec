import { describe, expect, it } from 'vitest';
import { formatLocalDate, parseLocalDate } from '../../src/admin/dates.tsx';
import { intlTag } from '../../src/i18n/format.ts';

// The console's date fields: typed as the console's language writes a day, kept as ISO for the machines.

describe("the console's date fields", () => {
  it.each([
    ['pt', '26/03/2026'],
    ['en', '26/03/2026'],
    ['fr', '26/03/2026'],
    ['de', '26.03.2026'],
    ['sk', '26. 03. 2026'],
  ] as const)('in %s, show a day as %s and read it back', (locale, shown) => {
    const tag = intlTag(locale);
    expect(formatLocalDate('2026-03-26', tag, false).replace(/\s+/g, ' ')).toBe(shown);
    expect(parseLocalDate(shown, tag, false)).toBe('2026-03-26');
    expect(parseLocalDate(formatLocalDate('2026-12-31T18:30', tag, true), tag, true)).toBe(
      '2026-12-31T18:30',
    );
  });

  it('reads the fields in the order the language writes them, with any separator', () => {
    expect(parseLocalDate('3/4/2026', intlTag('pt'), false)).toBe('2026-04-03');
    expect(parseLocalDate('3-4-2026 7:05', intlTag('de'), true)).toBe('2026-04-03T07:05');
    expect(formatLocalDate('2026-04-03T07:05', intlTag('pt'), true)).toBe('03/04/2026 07:05');
  });

  it('takes no value from a half-typed or impossible date', () => {
    const pt = intlTag('pt');
    expect(parseLocalDate('26/03', pt, false)).toBeNull();
    expect(parseLocalDate('31/02/2026', pt, false)).toBeNull();
    expect(parseLocalDate('29/02/2027', pt, false)).toBeNull();
    expect(parseLocalDate('29/02/2028', pt, false)).toBe('2028-02-29');
    expect(parseLocalDate('26/03/26', pt, false)).toBeNull();
    expect(parseLocalDate('26/03/20266', pt, false)).toBeNull();
    expect(parseLocalDate('26/03/2026 24:00', pt, true)).toBeNull();
    expect(parseLocalDate('26/03/2026 18:60', pt, true)).toBeNull();
    expect(parseLocalDate('26/03/2026', pt, true)).toBeNull();
  });

  it('shows nothing for a value that is no ISO day', () => {
    const pt = intlTag('pt');
    expect(formatLocalDate('', pt, false)).toBe('');
    expect(formatLocalDate('2026-02-31', pt, false)).toBe('');
    expect(formatLocalDate('26/03/2026', pt, false)).toBe('');
    expect(formatLocalDate('2026-03-26', pt, true)).toBe('26/03/2026');
  });
});
