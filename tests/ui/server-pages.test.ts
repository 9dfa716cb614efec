import { describe, expect, it } from 'vitest';
import { detectRequestLocale, localisedHtml, pageHead } from '../../server/http/client.ts';

const texts = (title: string) => ({ title, description: `${title} & more`, keywords: 'a, b' });
const metadata = {
  titleSeparator: ' | ',
  locales: Object.fromEntries(
    ['pt', 'en', 'fr', 'de', 'sk'].map((locale) => [
      locale,
      { main: texts(`Main ${locale}`), rights: texts(`Rights ${locale}`) },
    ]),
  ) as never,
  catalogs: { en: '/assets/messages-en.js' },
};

describe('the locale the server redirects / to', () => {
  it('takes the locale cookie first', () => {
    expect(detectRequestLocale('x=1; locale=sk', 'de-DE,de;q=0.9')).toBe('sk');
  });

  it('then the most preferred supported browser language, by q weight', () => {
    expect(detectRequestLocale(undefined, 'es;q=0.9, fr;q=0.5, de;q=0.8')).toBe('de');
    expect(detectRequestLocale('locale=xx', 'en-GB')).toBe('en');
  });

  it('then Portuguese', () => {
    expect(detectRequestLocale(undefined, 'es, it;q=0.8, *;q=0.1')).toBe('pt');
    expect(detectRequestLocale(undefined, undefined)).toBe('pt');
  });
});

describe('the HTML of a localised page', () => {
  const head = pageHead(metadata, 'en', 'rights', {
    baseUrl: 'https://gym.example',
    siteName: 'Private Gym',
  });

  it('carries the translated title with the separator, and escaped text', () => {
    expect(head).toContain('<title>Rights en | Private Gym</title>');
    expect(head).toContain('<meta name="description" content="Rights en &amp; more" />');
  });

  it('carries canonical, og:url, the social card and hreflang alternates for every locale', () => {
    expect(head).toContain('<link rel="canonical" href="https://gym.example/en/rights" />');
    expect(head).toContain('<meta property="og:url" content="https://gym.example/en/rights" />');
    expect(head).toContain('<meta property="og:image" content="https://gym.example/logo.svg" />');
    expect(head).toContain('<meta name="twitter:card" content="summary_large_image" />');
    for (const locale of ['pt', 'en', 'fr', 'de', 'sk']) {
      expect(head).toContain(
        `<link rel="alternate" hreflang="${locale}" href="https://gym.example/${locale}/rights" />`,
      );
    }
    expect(head).toContain(
      '<link rel="alternate" hreflang="x-default" href="https://gym.example/pt/rights" />',
    );
    expect(head).toContain('<link rel="modulepreload" crossorigin href="/assets/messages-en.js" />');
  });

  it('replaces the lang attribute, the generic title and the empty root', () => {
    const html = localisedHtml(
      '<html lang="pt"><head><title>Private Gym</title></head><body><div id="root"></div></body></html>',
      head,
      'en',
      '<main>hello</main>',
    );
    expect(html).toContain('<html lang="en">');
    expect(html).not.toContain('<title>Private Gym</title>');
    expect(html).toContain('<div id="root"><main>hello</main></div>');
  });
});
