// @vitest-environment jsdom
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RuntimeContext } from '../../src/app/context.tsx';
import type { Runtime } from '../../src/app/runtime.ts';
import { readPageSite, type SiteFacts } from '../../src/app/site.ts';
import { activateLocale } from '../../src/i18n/i18n.ts';
import { useRefundPolicyText } from '../../src/ui/useRefundPolicyText.ts';

// Issue 33: the server writes the refund policy's words into the page (the FAQ, the rights page) and gives them to
// the app with the facts. The app shows those words while the policy and the language are still the page's: writing
// them again, as it took the page over, was the page's first use of a number formatter (the hours), whose start
// costs more than any later one and made the booking modal opened by URL wait.

const POLICY = { '48': 1, '24': 0.5, '0': 0 };
const STATED = 'Com mais de 48 horas de antecedência, é reembolsado 100%. (as the page says it)';

function page(lang: string, facts: object): Document {
  const document = window.document.implementation.createHTMLDocument('');
  document.documentElement.lang = lang;
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = 'site-facts';
  script.textContent = JSON.stringify(facts);
  document.head.append(script);
  return document;
}

const company = { name: 'Ginásio', tax_id: '123456789', email: 'ola@gym.example', social_url: '' };

/** The hook with the page's facts and a server whose GET /checkout/refund-ratios answers `live`. */
function render(site: SiteFacts, live: Record<string, number>) {
  const answered = Promise.resolve({ data: live, response: new Response(null, { status: 200 }) });
  const runtime = { site, api: { GET: () => answered } } as unknown as Runtime;
  const wrapper = ({ children }: { children: ReactNode }) => (
    <I18nProvider i18n={i18n}>
      <RuntimeContext value={runtime}>{children}</RuntimeContext>
    </I18nProvider>
  );
  return { ...renderHook(() => useRefundPolicyText(), { wrapper }), answered };
}

afterEach(() => vi.restoreAllMocks());

describe('the refund policy in words, as the page came with it', () => {
  it('is read with the facts, in the language the page is in', () => {
    const site = readPageSite(
      page('de', { company, refund_ratios: POLICY, refund_policy_text: 'Mehr als …' }),
    );
    expect(site?.refundRatios).toEqual(POLICY);
    expect(site?.refundPolicyStated).toEqual({ locale: 'de', text: 'Mehr als …' });
    // A page without a known policy states none.
    expect(readPageSite(page('pt', { company, refund_ratios: null }))?.refundPolicyStated).toBeNull();
  });

  it('is shown as it is, with no number formatted, while the live policy is the same', async () => {
    await activateLocale('pt');
    const site = readPageSite(page('pt', { company, refund_ratios: POLICY, refund_policy_text: STATED }))!;
    const numberFormats = vi.spyOn(Intl, 'NumberFormat');
    // The live answer is another object with the same tiers.
    const { result, answered } = render(site, { ...POLICY });
    expect(result.current).toBe(STATED);
    await act(() => answered);
    expect(result.current).toBe(STATED);
    expect(numberFormats).not.toHaveBeenCalled();
  });

  it('is written anew in another language, or when the live policy differs', async () => {
    const site = readPageSite(page('pt', { company, refund_ratios: POLICY, refund_policy_text: STATED }))!;
    await activateLocale('en');
    expect(render(site, POLICY).result.current).toBe(
      'Above 48 hours, 100% is refunded. Above 24 hours, 50% is refunded. Less than 24 hours ahead, 0% is refunded.',
    );
    await activateLocale('pt');
    const changed = render(site, { '72': 1, '0': 0.25 });
    await act(() => changed.answered);
    expect(changed.result.current).toBe(
      'Com mais de 72 horas de antecedência, é reembolsado 100%. Com menos de 72 horas de antecedência, é reembolsado 25%.',
    );
  });
});
