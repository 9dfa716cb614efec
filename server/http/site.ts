import type { components } from '../../openapi/schema.gen.ts';
import type { CompanyDetails } from '../config.ts';
import { escapeHtml } from '../kernel/html.ts';
import { sendPublicJson, SHORT_PUBLIC_CACHE } from './caching.ts';
import { defineHandlers } from './operations.ts';

// The business's facts (name, tax number, contact e-mail, social link) come from the server's configuration only
// (issue 30): the API answers them, and every page the server sends carries them, so one setting changes every page,
// e-mail, SMS and receipt, and nothing of the business is baked into the client's build.

type Site = components['schemas']['Site'];

export function siteFacts(company: CompanyDetails): Site {
  return {
    company: {
      name: company.name,
      tax_id: company.taxId,
      email: company.email,
      social_url: company.socialUrl,
    },
  };
}

export function siteHandlers(company: CompanyDetails) {
  const site = siteFacts(company);
  return defineHandlers({
    getSite: async (request, reply) => sendPublicJson(request, reply, site, SHORT_PUBLIC_CACHE),
  });
}

/**
 * The placeholders the build's prerender writes where a page shows a business fact or the refund policy
 * (src/app/site.ts, PRERENDER_SITE), which the server fills in. Plain text in element content and quoted attributes
 * alike, so each is filled escaped for both.
 */
export const SITE_SLOTS = {
  companyName: '%COMPANY_NAME%',
  companyTaxId: '%COMPANY_TAX_ID%',
  companyEmail: '%COMPANY_EMAIL%',
  companySocialUrl: '%COMPANY_SOCIAL_URL%',
  refundPolicy: '%REFUND_POLICY%',
} as const;

export type PageFacts = {
  site: Site;
  /** The live refund policy (null when it could not be read), and how it reads in the page's language. */
  refundRatios: Record<string, number> | null;
  refundPolicyText: string;
};

/**
 * The data block the app reads the facts from before its first render (src/app/site.ts, readPageSite). With a
 * known policy it also carries the policy's words as the page states them (in the page's language): the app then
 * shows those while the policy stays the same, rather than writing them again as it takes the page over, which
 * would make it the page's first use of a number formatter, the costliest (issue 33).
 */
export function siteFactsScript({ site, refundRatios, refundPolicyText }: PageFacts): string {
  const stated = refundRatios ? { refund_policy_text: refundPolicyText } : {};
  // JSON in a script element ends at the first `</script`: `<` is written as its JSON escape, as are U+2028/9.
  const json = JSON.stringify({ ...site, refund_ratios: refundRatios, ...stated })
    .replaceAll('<', '\\u003c')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
  return `<script type="application/json" id="site-facts">${json}</script>`;
}

/**
 * A page with its facts: the prerendered placeholders filled (escaped), the index's empty title (a page without
 * translated metadata: the console's, a 404) named after the company, and the facts' data block at the end of the
 * head.
 */
export function withSiteFacts(html: string, facts: PageFacts): string {
  const { company } = facts.site;
  const values: Record<keyof typeof SITE_SLOTS, string> = {
    companyName: company.name,
    companyTaxId: company.tax_id,
    companyEmail: company.email,
    companySocialUrl: company.social_url,
    refundPolicy: facts.refundPolicyText,
  };
  let filled = html;
  for (const [slot, placeholder] of Object.entries(SITE_SLOTS) as [keyof typeof SITE_SLOTS, string][]) {
    filled = filled.replaceAll(placeholder, () => escapeHtml(values[slot]));
  }
  return filled
    .replace('<title></title>', () => `<title>${escapeHtml(company.name)}</title>`)
    .replace('</head>', () => `  ${siteFactsScript(facts)}\n  </head>`);
}
