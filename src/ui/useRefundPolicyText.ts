import { plural, t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { expectData } from '../../machines/api.ts';
import { refundPolicyText, type RefundSentence } from '../../machines/refund.ts';
import { useRuntime } from '../app/context.tsx';

/** The live refund policy from GET /checkout/refund-ratios (a 'shared' call); null until loaded or when it fails. */
export function useRefundRatios(): Record<string, number> | null {
  const { api, site } = useRuntime();
  // The policy the page came with first (the server wrote the same into the prerendered page), then the live one.
  const [ratios, setRatios] = useState<Record<string, number> | null>(site.refundRatios);
  useEffect(() => {
    let current = true;
    expectData(api.GET('/checkout/refund-ratios'))
      .then((loaded) => current && setRatios(loaded))
      .catch((error: unknown) => console.error('refund ratios could not be loaded', error));
    return () => {
      current = false;
    };
  }, [api]);
  return ratios;
}

/**
 * One tier of the policy as a sentence in the active language. The server writes the same words into the
 * prerendered rights page (server/catalog/refund-policy-text.ts, by these Portuguese sources), which the app adopts.
 */
export function refundSentence(tier: RefundSentence): string {
  const percent = tier.percent;
  if (tier.kind === 'always') return t`Ao cancelar, é reembolsado ${percent}%.`;
  const hours = tier.hours;
  return tier.kind === 'above'
    ? plural(hours, {
        one: `Com mais de # hora de antecedência, é reembolsado ${percent}%.`,
        other: `Com mais de # horas de antecedência, é reembolsado ${percent}%.`,
      })
    : plural(hours, {
        one: `Com menos de # hora de antecedência, é reembolsado ${percent}%.`,
        other: `Com menos de # horas de antecedência, é reembolsado ${percent}%.`,
      });
}

/**
 * refundRatiosText (docs/decisions.md, 'Bookings and payments'): the policy the page came with, then the one from
 * GET /checkout/refund-ratios (a 'shared' call), one 'Above N hour(s), P% is refunded.' sentence per tier, highest
 * threshold first. Null until known or when the call fails.
 */
export function useRefundPolicyText(): string | null {
  const { i18n } = useLingui();
  const { site } = useRuntime();
  const ratios = useRefundRatios();
  if (!ratios) return null;
  // The words the page came with, while the policy and the language are still the page's: writing them again
  // would be the page's first use of a number formatter (the hours), whose start costs more than any later one,
  // in the middle of the app's start (issue 33).
  const stated = site.refundPolicyStated;
  if (stated && stated.locale === i18n.locale && sameRatios(ratios, site.refundRatios)) return stated.text;
  // `i18n.locale` ties the text to the active catalog (the component re-renders on a language change).
  return i18n.locale ? refundPolicyText(ratios, refundSentence) : null;
}

function sameRatios(a: Record<string, number>, b: Record<string, number> | null): boolean {
  if (!b) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
