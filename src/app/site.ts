import type { components } from '../../openapi/schema.gen.ts';

/**
 * The business's facts (issue 30): name, Portuguese tax number (NIF), contact e-mail and social link, from the
 * server's configuration only, never from the build. Every page the server sends carries them (server/http/site.ts)
 * with the live refund policy; the native app, whose pages are its own, asks `GET /site`.
 */
export type Company = components['schemas']['Company'];

export type SiteFacts = {
  company: Company;
  /** The refund policy the page came with; null until the app reads it (`GET /checkout/refund-ratios`). */
  refundRatios: Record<string, number> | null;
  /**
   * How the page states `refundRatios`, and in which language: the words the server wrote into it, which the app
   * shows while the policy and the language stay the same (src/ui/useRefundPolicyText.ts).
   */
  refundPolicyStated: { locale: string; text: string } | null;
  /** What the rights page shows where the refund policy goes while it is not known. */
  refundPolicyUntilKnown: string;
};

/**
 * The facts of the build's prerender: placeholders the server fills in for each page (server/http/site.ts,
 * SITE_SLOTS), so the prerendered HTML names no business and states no policy of its own.
 */
export const PRERENDER_SITE: SiteFacts = {
  company: {
    name: '%COMPANY_NAME%',
    tax_id: '%COMPANY_TAX_ID%',
    email: '%COMPANY_EMAIL%',
    social_url: '%COMPANY_SOCIAL_URL%',
  },
  refundRatios: null,
  refundPolicyStated: null,
  refundPolicyUntilKnown: '%REFUND_POLICY%',
};

const UNKNOWN_REFUND_POLICY = '…';

export function withPolicy(
  company: Company,
  refundRatios: SiteFacts['refundRatios'],
  refundPolicyStated: SiteFacts['refundPolicyStated'] = null,
): SiteFacts {
  return { company, refundRatios, refundPolicyStated, refundPolicyUntilKnown: UNKNOWN_REFUND_POLICY };
}

/** The facts the server put into the page, or null when it put none (the native app's own page, Vite's dev server). */
export function readPageSite(page: Document): SiteFacts | null {
  const text = page.getElementById('site-facts')?.textContent;
  if (!text) return null;
  try {
    // The same response's server wrote it (server/http/site.ts, its shape tested in tests/server/site-facts.test.ts):
    // read as it is, without a schema library that would weigh on every first visit.
    const facts = JSON.parse(text) as {
      company: Company;
      refund_ratios: SiteFacts['refundRatios'];
      refund_policy_text?: string;
    };
    // The server writes the policy's words in the page's language, the one its `lang` names.
    const stated =
      facts.refund_policy_text === undefined
        ? null
        : { locale: page.documentElement.lang, text: facts.refund_policy_text };
    return withPolicy(facts.company, facts.refund_ratios, stated);
  } catch (error) {
    console.error('site facts', error);
    return null;
  }
}

/** What is shown when the facts cannot be had at all: nothing, rather than another business's. */
export const NO_SITE: SiteFacts = withPolicy({ name: '', tax_id: '', email: '', social_url: '' }, null);
