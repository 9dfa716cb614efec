import { translateAppText, type Locale } from '../kernel/i18n.ts';

/**
 * The refund policy in words, as the app's rights page says it (src/ui/useRefundPolicyText.ts): one sentence per
 * tier, highest threshold first; the 0 threshold below a higher one reads "less than N hours ahead" (never "more
 * than 0 hours"), and alone "at any time". The server writes it into the prerendered rights page, which the app
 * then adopts, so the words are the app's own (its catalog, by these Portuguese sources); tests/ui/
 * refund-policy-text.test.ts checks that both say the same in every language.
 */
const SENTENCES = {
  always: 'Ao cancelar, é reembolsado {percent}%.',
  above:
    '{hours, plural, one {Com mais de # hora de antecedência, é reembolsado {percent}%.} other {Com mais de # horas de antecedência, é reembolsado {percent}%.}}',
  below:
    '{hours, plural, one {Com menos de # hora de antecedência, é reembolsado {percent}%.} other {Com menos de # horas de antecedência, é reembolsado {percent}%.}}',
} as const;

export function refundPolicyText(locale: Locale, ratios: Record<string, number>): string {
  const tiers = Object.entries(ratios)
    .map(([hours, ratio]) => ({ hours: Number(hours), percent: Math.round(ratio * 10000) / 100 }))
    .filter((tier) => Number.isFinite(tier.hours) && Number.isFinite(tier.percent))
    .sort((a, b) => b.hours - a.hours);
  return tiers
    .map((tier, index) => {
      if (tier.hours > 0) return translateAppText(locale, SENTENCES.above, tier);
      const higher = tiers[index - 1];
      return higher
        ? translateAppText(locale, SENTENCES.below, { hours: higher.hours, percent: tier.percent })
        : translateAppText(locale, SENTENCES.always, { percent: tier.percent });
    })
    .join(' ');
}
