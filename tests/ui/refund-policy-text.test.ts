import { describe, expect, it } from 'vitest';
import { refundPolicyText as serverRefundPolicyText } from '../../server/catalog/refund-policy-text.ts';
import { activateLocale } from '../../src/i18n/i18n.ts';
import { refundSentence } from '../../src/ui/useRefundPolicyText.ts';
import { refundPolicyText } from '../../machines/refund.ts';

// The server writes the refund policy into the prerendered rights page and the app adopts that page, rendering the
// same sentence itself: both must say it in the same words in every language, or the page would change (and React
// report a hydration mismatch) as the app takes over. The server reads the app's own catalog by the Portuguese
// sources; this fails when either side's source or logic changes without the other.

const LOCALES = ['pt', 'en', 'fr', 'de', 'sk'] as const;
const POLICIES: Record<string, number>[] = [
  { '48': 1, '24': 0.5, '0': 0 },
  { '0': 1 },
  { '1': 0.5, '0': 0 },
  // Slovak's plural forms (1, 2–4, 5+), a fraction of a percent, and a threshold above a thousand hours.
  { '2': 1, '5': 0.755, '1200': 1, '0': 0.3333 },
];

describe('the refund policy in words, on the server and in the app', () => {
  it.each(LOCALES)('says the same in %s', async (locale) => {
    await activateLocale(locale);
    for (const ratios of POLICIES) {
      const app = refundPolicyText(ratios, refundSentence);
      expect(app).not.toBe('');
      expect(serverRefundPolicyText(locale, ratios)).toBe(app);
    }
  });

  it('is translated: the English policy is not the Portuguese one', () => {
    const ratios = { '48': 1, '24': 0.5, '0': 0 };
    expect(serverRefundPolicyText('en', ratios)).toBe(
      'Above 48 hours, 100% is refunded. Above 24 hours, 50% is refunded. Less than 24 hours ahead, 0% is refunded.',
    );
    expect(serverRefundPolicyText('pt', ratios)).toContain('Com mais de 48 horas de antecedência');
  });
});
