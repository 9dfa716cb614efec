import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { LOCALES, type Locale } from './locales.ts';
import { intlTag } from './format.ts';

export type PageName = 'main' | 'rights';

/**
 * Page titles, descriptions and keywords. Explicit ids, because the build also reads them from the
 * catalogs to put the same tags into the HTML the server returns (link-preview crawlers run no scripts).
 */
const PAGE_METADATA: Record<PageName, Record<'title' | 'description' | 'keywords', MessageDescriptor>> = {
  main: {
    title: msg({ id: 'meta.main.title', message: 'Ginásio privado à hora, só para si' }),
    description: msg({
      id: 'meta.main.description',
      message:
        'Reserve um ginásio inteiro só para si, 24 horas por dia, sem mensalidades. Pague online e receba o código da porta por e-mail e SMS.',
    }),
    keywords: msg({
      id: 'meta.main.keywords',
      message:
        'ginásio privado, alugar ginásio, ginásio 24 horas, treino privado, personal trainer, sem mensalidade',
    }),
  },
  rights: {
    title: msg({ id: 'meta.rights.title', message: 'Regras, termos e privacidade' }),
    description: msg({
      id: 'meta.rights.description',
      message:
        'Regras de utilização, termos e condições, política de privacidade (RGPD) e política de cookies dos nossos ginásios privados.',
    }),
    keywords: msg({
      id: 'meta.rights.keywords',
      message: 'regras do ginásio, termos e condições, política de privacidade, RGPD, cookies, reembolsos',
    }),
  },
};

const TITLE_SEPARATOR = ' | ';

function pagePath(locale: Locale, page: PageName): string {
  return page === 'rights' ? `/${locale}/rights` : `/${locale}`;
}

type HeadTag = { selector: string; tag: 'meta' | 'link'; attributes: Record<string, string> };

/** Sets the page's title, description, social tags, canonical URL, hreflang alternates and lang. */
export function applyPageMetadata(
  doc: Document,
  i18n: I18n,
  { locale, page, siteName, baseUrl }: { locale: Locale; page: PageName; siteName: string; baseUrl: string },
): void {
  const texts = PAGE_METADATA[page];
  const title = `${i18n._(texts.title)}${TITLE_SEPARATOR}${siteName}`;
  const description = i18n._(texts.description);
  const url = `${baseUrl}${pagePath(locale, page)}`;
  const image = `${baseUrl}/logo.svg`;
  doc.documentElement.lang = locale;
  doc.title = title;
  const meta = (key: 'name' | 'property', name: string, content: string): HeadTag => ({
    selector: `meta[${key}="${name}"]`,
    tag: 'meta',
    attributes: { [key]: name, content },
  });
  const tags: HeadTag[] = [
    meta('name', 'description', description),
    meta('name', 'keywords', i18n._(texts.keywords)),
    meta('property', 'og:title', title),
    meta('property', 'og:description', description),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', siteName),
    meta('property', 'og:url', url),
    meta('property', 'og:image', image),
    meta('property', 'og:locale', intlTag(locale).replace('-', '_')),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', description),
    meta('name', 'twitter:image', image),
    { selector: 'link[rel="canonical"]', tag: 'link', attributes: { rel: 'canonical', href: url } },
    ...LOCALES.map((alternate) => ({
      selector: `link[rel="alternate"][hreflang="${alternate}"]`,
      tag: 'link' as const,
      attributes: { rel: 'alternate', hreflang: alternate, href: `${baseUrl}${pagePath(alternate, page)}` },
    })),
    {
      selector: 'link[rel="alternate"][hreflang="x-default"]',
      tag: 'link',
      attributes: { rel: 'alternate', hreflang: 'x-default', href: `${baseUrl}${pagePath('pt', page)}` },
    },
  ];
  for (const { selector, tag, attributes } of tags) {
    let element = doc.head.querySelector(selector);
    if (!element) {
      element = doc.createElement(tag);
      doc.head.append(element);
    }
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  }
}
