import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refundPolicyText } from '../../server/catalog/refund-policy-text.ts';
import { writeRefundRatios } from '../../server/catalog/refund-ratios.ts';
import { loadConfig } from '../../server/config.ts';
import { startAccountApp, type AccountApp } from './support/accounts.ts';
import { LOCALES, writeClientBuild } from './support/client-build.ts';

// Issue 30: the business's facts (name, tax number, contact e-mail, social link) come from the server's
// configuration only. Every page it sends fills the prerender's placeholders with them, escaped, and carries them
// with the live refund policy in a data block the app reads before its first render; the rights page's refund
// policy is written by the server in the page's language; the native app asks GET /site.

const texts = { title: 'Rights', description: 'Rules', keywords: 'gym' };
// What the build's prerender writes (src/app/site.ts, PRERENDER_SITE).
const body = (locale: string) =>
  [
    `<main data-locale="${locale}">`,
    '<p class="eyebrow">%COMPANY_NAME%</p>',
    '<p>%COMPANY_NAME%, NIF %COMPANY_TAX_ID%, contacto %COMPANY_EMAIL%.</p>',
    '<a href="mailto:%COMPANY_EMAIL%">%COMPANY_EMAIL%</a>',
    '<a href="%COMPANY_SOCIAL_URL%" target="_blank">Instagram</a>',
    '<li>- O valor reembolsado depende da antecedência do cancelamento: %REFUND_POLICY%</li>',
    '</main>',
  ].join('');
const metadata = {
  titleSeparator: ' | ',
  locales: Object.fromEntries(LOCALES.map((locale) => [locale, { main: texts, rights: texts }])),
  catalogs: {},
  bodies: Object.fromEntries(LOCALES.map((locale) => [locale, { main: body(locale), rights: body(locale) }])),
};

const COMPANY = {
  COMPANY_NAME: 'Ginásio <Tom> & "Jerry"',
  COMPANY_TAX_ID: '503504564',
  COMPANY_EMAIL: 'ola@ginasio.example',
  COMPANY_SOCIAL_URL: 'https://social.example/ginasio?a=1&b=2',
};
const ESCAPED_NAME = 'Ginásio &lt;Tom&gt; &amp; &quot;Jerry&quot;';
const FACTS = {
  company: {
    name: COMPANY.COMPANY_NAME,
    tax_id: COMPANY.COMPANY_TAX_ID,
    email: COMPANY.COMPANY_EMAIL,
    social_url: COMPANY.COMPANY_SOCIAL_URL,
  },
};

/** The page's data block, as the app reads it (src/app/site.ts, readPageSite). */
function dataBlock(page: string): unknown {
  const match = /<script type="application\/json" id="site-facts">([\s\S]*?)<\/script>/.exec(page);
  expect(match, 'the page has its site-facts block').not.toBeNull();
  return JSON.parse(match![1]!);
}

describe('the business’s facts on every page', () => {
  const build = writeClientBuild(metadata);
  let server: AccountApp;

  beforeAll(async () => {
    server = await startAccountApp('pglite', { CLIENT_DIST_DIR: build.dist, ...COMPANY });
    await writeRefundRatios(server.app.db, { '48': 1, '24': 0.5, '0': 0 });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    build.remove();
  });

  const get = async (url: string, status = 200) => {
    const response = await server.app.inject({ url });
    expect(response.statusCode, url).toBe(status);
    return response.body;
  };

  it('fills every placeholder with the configured facts, escaped, in every locale and page', async () => {
    for (const locale of LOCALES) {
      for (const url of [`/${locale}`, `/${locale}/rights`]) {
        const page = await get(url);
        expect(page, url).not.toMatch(/%(COMPANY_[A-Z_]+|REFUND_POLICY)%/);
        expect(page, url).toContain(`<p class="eyebrow">${ESCAPED_NAME}</p>`);
        expect(page, url).toContain(`<p>${ESCAPED_NAME}, NIF 503504564, contacto ola@ginasio.example.</p>`);
        expect(page, url).toContain('<a href="mailto:ola@ginasio.example">ola@ginasio.example</a>');
        expect(page, url).toContain('<a href="https://social.example/ginasio?a=1&amp;b=2" target="_blank">');
        // The head names the site after the configured company too.
        expect(page, url).toContain(`<title>Rights | ${ESCAPED_NAME}</title>`);
        expect(page, url).toContain(`<meta property="og:site_name" content="${ESCAPED_NAME}" />`);
      }
    }
  });

  it('writes the refund policy in the page’s language', async () => {
    expect(await get('/en/rights')).toContain(
      'cancelamento: Above 48 hours, 100% is refunded. Above 24 hours, 50% is refunded. Less than 24 hours ahead, 0% is refunded.</li>',
    );
    expect(await get('/pt/rights')).toContain(
      'cancelamento: Com mais de 48 horas de antecedência, é reembolsado 100%. Com mais de 24 horas de antecedência, é reembolsado 50%. Com menos de 24 horas de antecedência, é reembolsado 0%.</li>',
    );
  });

  it('carries the facts and the refund policy in a data block that no text can end early', async () => {
    const page = await get('/de/rights');
    expect(dataBlock(page)).toEqual({
      ...FACTS,
      refund_ratios: { '48': 1, '24': 0.5, '0': 0 },
      // The words the page states, in its language (the app shows them while the policy stays the same).
      refund_policy_text: refundPolicyText('de', { '48': 1, '24': 0.5, '0': 0 }),
    });
    expect(page).toContain(refundPolicyText('de', { '48': 1, '24': 0.5, '0': 0 }));
    // The name's '<' is written as its JSON escape: '</script>' in a fact cannot close the block.
    const block = page.slice(page.indexOf('id="site-facts">'));
    expect(block.slice(0, block.indexOf('</script>'))).not.toContain('<');
  });

  it('shows a changed refund policy on the next page, in words and in the data block', async () => {
    await writeRefundRatios(server.app.db, { '72': 1, '0': 0.25 });
    try {
      const page = await get('/en/rights');
      expect(page).toContain(
        'cancelamento: Above 72 hours, 100% is refunded. Less than 72 hours ahead, 25% is refunded.</li>',
      );
      expect(dataBlock(page)).toMatchObject({ refund_ratios: { '72': 1, '0': 0.25 } });
    } finally {
      await writeRefundRatios(server.app.db, { '48': 1, '24': 0.5, '0': 0 });
    }
    expect(await get('/en/rights')).toContain('Above 48 hours, 100% is refunded.');
  });

  it('gives the console’s page and the 404 page the facts and the company’s name as their title', async () => {
    for (const [url, status] of [
      ['/pt/admin', 200],
      ['/en/admin/bookings', 200],
      ['/en/no-such-page', 404],
    ] as const) {
      const page = await get(url, status);
      expect(page, url).toContain(`<title>${ESCAPED_NAME}</title>`);
      expect(dataBlock(page), url).toMatchObject(FACTS);
    }
  });

  it('answers GET /api/site with the same facts, cacheable with an ETag', async () => {
    const response = await server.app.inject({ url: '/api/site' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(FACTS);
    const tag = response.headers.etag as string;
    expect(tag).toBeTruthy();
    const again = await server.app.inject({ url: '/api/site', headers: { 'if-none-match': tag } });
    expect(again.statusCode).toBe(304);
  });
});

describe('the social link’s setting', () => {
  it('takes an http(s) address and refuses anything else, naming the variable', () => {
    expect(loadConfig({ COMPANY_SOCIAL_URL: 'https://social.example/gym' }).company.socialUrl).toBe(
      'https://social.example/gym',
    );
    for (const bad of ['javascript:alert(1)', 'ftp://files.example', 'not a url']) {
      expect(() => loadConfig({ COMPANY_SOCIAL_URL: bad }), bad).toThrow(/COMPANY_SOCIAL_URL/);
    }
  });
});
