// @vitest-environment jsdom
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { activateLocale, loadFeatureMessages } from '../../src/i18n/i18n.ts';
import type { Locale } from '../../src/i18n/locales.ts';
import { useRefundDeadlineText } from '../../src/ui/refund/RefundDeadline.tsx';

// Issue 30: the refund deadlines read before paying and in My bookings, in the five languages, in the branch's
// time, from the real catalogs. The expected sentences are written here by hand.

const HOUR = 3_600_000;
// Thursday 3 December 2026, 18:00 in Lisbon (UTC in winter).
const start = '2026-12-03T18:00:00+00:00';
const startMs = Date.parse(start);
const policy = { '48': 1, '24': 0.5, '0': 0 };
const nbsp = (text: string | undefined) => text?.replace(/[\u00a0\u202f]/g, ' ');

async function deadline(locale: Locale, now: number, ratios: Record<string, number> = policy) {
  await activateLocale(locale);
  await loadFeatureMessages('booking');
  const wrapper = ({ children }: { children: ReactNode }) => (
    <I18nProvider i18n={i18n}>{children}</I18nProvider>
  );
  const { result } = renderHook(() => useRefundDeadlineText(), { wrapper });
  return result.current(ratios, start, 'Europe/Lisbon', locale, now);
}

describe('the refund deadline of a slot', () => {
  it.each([
    [
      'pt',
      'Cancelamento gratuito até terça, 1/12, 18:00, depois 50% até quarta, 2/12, 18:00, depois sem reembolso.',
    ],
    ['en', 'Free cancellation until Tue 1 Dec, 6:00 pm, then 50% until Wed 2 Dec, 6:00 pm, then no refund.'],
    [
      'fr',
      'Annulation gratuite jusqu’au mar. 1 déc., 18:00, puis 50 % jusqu’au mer. 2 déc., 18:00, puis aucun remboursement.',
    ],
    [
      'de',
      'Kostenlose Stornierung bis Di., 1. Dez., 18:00, danach 50 % bis Mi., 2. Dez., 18:00, danach keine Erstattung.',
    ],
    [
      'sk',
      'Bezplatné zrušenie do ut 1. 12., 18:00, potom 50 % do st 2. 12., 18:00, potom bez vrátenia peňazí.',
    ],
  ] as const)('reads every step ahead in %s', async (locale, expected) => {
    const text = await deadline(locale, startMs - 72 * HOUR);
    expect(text?.refundable).toBe(true);
    expect(nbsp(text?.text)).toBe(expected);
  });

  it('starts from the step in force, and flags a slot already past its last refund', async () => {
    expect(nbsp((await deadline('en', startMs - 30 * HOUR))?.text)).toBe(
      'Refund of 50% until Wed 2 Dec, 6:00 pm, then no refund.',
    );
    expect(await deadline('pt', startMs - 5 * HOUR)).toEqual({
      text: 'Começa em menos de 24 h: não é reembolsável.',
      refundable: false,
    });
    expect(nbsp((await deadline('sk', startMs - 5 * HOUR))?.text)).toBe('Začína o menej ako 24 h: nevratné.');
    expect(await deadline('de', startMs + HOUR)).toBeNull();
  });
});
