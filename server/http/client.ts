import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from '../kernel/errors.ts';
import { pageContentSecurityPolicy } from './security-headers.ts';
import { DEFAULT_LOCALE, isLocale, LOCALES, resolveLocale, type Locale } from '../kernel/i18n.ts';
import { escapeHtml } from '../kernel/html.ts';
import { entityTag, isFresh } from './caching.ts';
import { siteFacts, withSiteFacts, type PageFacts } from './site.ts';

type PageName = 'main' | 'rights';
type PageTexts = { title: string; description: string; keywords: string };

/** Written by the client build (vite.config.ts): translated page metadata and each locale's catalog chunk. */
type PageMetadata = {
  titleSeparator: string;
  locales: Record<Locale, Record<PageName, PageTexts>>;
  catalogs: Partial<Record<Locale, string>>;
  /** Stylesheets of lazily loaded pages, linked from their HTML so the prerendered markup is styled. */
  styles?: Partial<Record<PageName, string[]>>;
  /**
   * Each locale's booking modal as the first HTML shows it (src/booking/BookingModalShell.tsx), with the
   * placeholders %BRANCH_NAME% and %BRANCH_IMAGE%: put after #root when the address opens a branch's booking.
   */
  bookingShells?: Partial<Record<Locale, string>>;
  /** Each page prerendered at build time, put into #root so the first paint needs no JavaScript. */
  bodies?: Partial<Record<Locale, Partial<Record<PageName, string>>>>;
};

const ONE_YEAR = 'public, max-age=31536000, immutable';

/** Open Graph wants a language_TERRITORY tag. */
const OG_LOCALES: Record<Locale, string> = {
  pt: 'pt_PT',
  fr: 'fr_FR',
  en: 'en_GB',
  de: 'de_DE',
  sk: 'sk_SK',
};

function pagePath(locale: Locale, page: PageName): string {
  return page === 'rights' ? `/${locale}/rights` : `/${locale}`;
}

/**
 * The head of a localised page: title, description, keywords, open-graph and social-card tags,
 * canonical URL and og:url, hreflang alternates, and a preload of the locale's catalog.
 */
export function pageHead(
  metadata: PageMetadata,
  locale: Locale,
  page: PageName,
  { baseUrl, siteName }: { baseUrl: string; siteName: string },
): string {
  const texts = metadata.locales[locale][page];
  const title = `${texts.title}${metadata.titleSeparator}${siteName}`;
  const url = `${baseUrl}${pagePath(locale, page)}`;
  const image = `${baseUrl}/logo.svg`;
  const meta = (key: 'name' | 'property', name: string, content: string) =>
    `<meta ${key}="${name}" content="${escapeHtml(content)}" />`;
  const catalog = metadata.catalogs[locale];
  return [
    `<title>${escapeHtml(title)}</title>`,
    meta('name', 'description', texts.description),
    meta('name', 'keywords', texts.keywords),
    meta('property', 'og:title', title),
    meta('property', 'og:description', texts.description),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', siteName),
    meta('property', 'og:url', url),
    meta('property', 'og:image', image),
    meta('property', 'og:locale', OG_LOCALES[locale]),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', texts.description),
    meta('name', 'twitter:image', image),
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    ...LOCALES.map(
      (alternate) =>
        `<link rel="alternate" hreflang="${alternate}" href="${escapeHtml(`${baseUrl}${pagePath(alternate, page)}`)}" />`,
    ),
    `<link rel="alternate" hreflang="x-default" href="${escapeHtml(`${baseUrl}${pagePath(DEFAULT_LOCALE, page)}`)}" />`,
    ...(catalog ? [`<link rel="modulepreload" crossorigin href="${escapeHtml(catalog)}" />`] : []),
    ...(metadata.styles?.[page] ?? []).map(
      (href) => `<link rel="stylesheet" crossorigin href="${escapeHtml(href)}" />`,
    ),
  ].join('\n    ');
}

/** The branch an address opens the booking modal of: an active one, as its booking modal shows it. */
export type BookingBranch = { name: string; image: string };

/** The search parameters that open another modal in front of, or instead of, the booking one. */
const OTHER_MODAL_PARAMETERS = ['auth_tab', 'account_tab', 'move_booking_id', 'stripe_session_id'];

/**
 * The branch whose booking modal the address opens at its booking tab (`booking_tab=bookSessions` and a
 * `booking_branch_id` as the client reads it, no other modal asked for), or null.
 */
function bookingBranchId(query: unknown): number | null {
  const search = (query ?? {}) as Record<string, unknown>;
  const value = search.booking_branch_id;
  if (search.booking_tab !== 'bookSessions' || OTHER_MODAL_PARAMETERS.some((key) => key in search))
    return null;
  return typeof value === 'string' && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null;
}

/**
 * The page of an address that opens the booking modal of an active branch: the branch's main image (the page's
 * largest paint) preloaded at high priority, and the modal's frame with that image in the first HTML (`shell`,
 * page-metadata.json `bookingShells`) right after #root, so it paints before any JavaScript. The app's code
 * loads after that paint, as on the landing; the live modal replaces the frame.
 */
export function withBookingModal(html: string, shell: string, branch: BookingBranch): string {
  const filled = shell
    .replaceAll('%BRANCH_NAME%', () => escapeHtml(branch.name))
    .replaceAll('%BRANCH_IMAGE%', () => escapeHtml(branch.image));
  const preload = `<link rel="preload" as="image" fetchpriority="high" href="${escapeHtml(branch.image)}" />`;
  return html
    .replace('</head>', () => `  ${preload}\n  </head>`)
    .replace(/<\/body>(?![\s\S]*<\/body>)/, () => `${filled}\n  </body>`);
}

/** Puts the page's head, `lang` and prerendered body into the built index.html (replacing its generic title). */
export function localisedHtml(indexHtml: string, head: string, locale: Locale, body = ''): string {
  return indexHtml
    .replace(/<html([^>]*)\slang="[^"]*"/, `<html$1 lang="${locale}"`)
    .replace(/<title>[^<]*<\/title>/, () => head)
    .replace('<div id="root"></div>', () => `<div id="root">${body}</div>`);
}

function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) {
      try {
        return decodeURIComponent(value.join('='));
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** The browser's languages from Accept-Language, most preferred first (q weights honoured). */
function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((entry, index) => {
      const [tag = '', ...params] = entry.trim().split(';');
      const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

/** The locale detection order (docs/decisions.md, 'Client') without a path: the `locale` cookie, the browser's languages, pt. */
export function detectRequestLocale(
  cookieHeader: string | undefined,
  acceptLanguage: string | undefined,
): Locale {
  const fromCookie = readCookie(cookieHeader, 'locale');
  if (isLocale(fromCookie)) return fromCookie;
  for (const tag of acceptedLanguages(acceptLanguage)) {
    const primary = tag.split(/[-_]/)[0]?.toLowerCase();
    if (isLocale(primary)) return primary;
  }
  return DEFAULT_LOCALE;
}

type Page = { html: string; tag: string };

function page(html: string): Page {
  return { html, tag: entityTag(html) };
}

/**
 * Pages are revalidated on every visit (`no-cache` with an ETag): a new build reaches every visitor at once, and
 * an unchanged page costs a 304. Their CSP is their own (Stripe's sources). Compressed by the server's
 * compression (server/app.ts).
 */
function sendHtml(
  request: FastifyRequest,
  reply: FastifyReply,
  { html, tag }: Page,
  contentSecurityPolicy: string,
) {
  reply
    .header('cache-control', 'no-cache')
    .header('etag', tag)
    .header('content-security-policy', contentSecurityPolicy);
  if (reply.statusCode === 200 && isFresh(request, tag)) return reply.code(304).send();
  return reply.type('text/html; charset=utf-8').send(html);
}

/**
 * Serves the built single-page app from the same process as the API: hashed assets are cached for a
 * year, the HTML never, and any other path that is not a file gets the app's index.html with status 404.
 * `/` redirects to `/{lang}`; `/{lang}` and `/{lang}/rights` come with their translated metadata; `/{lang}/admin`
 * and its pages are the operator console's.
 */
export type ClientPorts = {
  /** The branch whose booking modal an address opens, or null when there is no such active branch. */
  bookingBranch?: (branchId: number) => Promise<BookingBranch | null>;
  /** The live refund policy, and how it reads in a language (the rights page says it). */
  refundPolicy?: (locale: Locale) => Promise<{ ratios: Record<string, number>; text: string }>;
};

/** Where the refund policy goes while it cannot be read (the app shows the same until it loads it). */
const UNKNOWN_REFUND_POLICY = '…';

export async function registerClient(
  app: FastifyInstance,
  config: Config,
  { bookingBranch, refundPolicy }: ClientPorts = {},
): Promise<void> {
  const indexFile = path.join(config.clientDistDir, 'index.html');
  const metadataFile = path.join(config.clientDistDir, 'page-metadata.json');
  const clientBuilt = existsSync(indexFile);
  const pagePolicy = pageContentSecurityPolicy(config);

  // The built HTML and metadata, re-read when a new build replaces them (its hashed assets change).
  let built: {
    modified: number;
    indexHtml: string;
    metadata: PageMetadata | null;
    /** Each page before its facts are filled in, by locale and page. */
    pages: Map<string, string>;
    /** Each page with its facts, for the refund policy `policy` (emptied when the policy changes). */
    filled: { policy: string; pages: Map<string, Page> };
  } | null = null;
  const currentBuild = () => {
    const modified = statSync(indexFile).mtimeMs;
    if (!built || built.modified !== modified) {
      built = {
        modified,
        indexHtml: readFileSync(indexFile, 'utf8'),
        metadata: existsSync(metadataFile)
          ? (JSON.parse(readFileSync(metadataFile, 'utf8')) as PageMetadata)
          : null,
        pages: new Map(),
        filled: { policy: '', pages: new Map() },
      };
    }
    return built;
  };

  const site = siteFacts(config.company);
  /**
   * A page as it is sent: its facts filled in (server/http/site.ts), with the refund policy read now, so a policy the
   * operator changes is on the next page. A policy that cannot be read leaves the page as the app shows it until it
   * loads the policy itself.
   */
  const withFacts = async (
    request: FastifyRequest,
    key: string,
    locale: Locale,
    html: string,
  ): Promise<Page> => {
    const policy = await refundPolicy?.(locale).catch((error: unknown) => {
      request.log.warn({ err: error }, 'the refund policy could not be read for a page');
      return null;
    });
    const facts: PageFacts = {
      site,
      refundRatios: policy?.ratios ?? null,
      refundPolicyText: policy?.text ?? UNKNOWN_REFUND_POLICY,
    };
    const { filled } = currentBuild();
    const policyKey = JSON.stringify(facts.refundRatios);
    if (filled.policy !== policyKey) {
      filled.policy = policyKey;
      filled.pages.clear();
    }
    let result = filled.pages.get(key);
    if (!result) {
      result = page(withSiteFacts(html, facts));
      filled.pages.set(key, result);
    }
    return result;
  };

  if (clientBuilt) {
    await app.register(fastifyStatic, {
      root: config.clientDistDir,
      prefix: '/',
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies of the assets; each browser gets the smallest it accepts.
      preCompressed: true,
      setHeaders(reply, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? ONE_YEAR : 'public, max-age=3600');
      },
    });
  } else {
    app.log.warn({ indexFile }, 'the client is not built; run `npm run build` to serve it');
  }

  const notFoundOrApp = async (request: FastifyRequest, reply: FastifyReply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !path.extname(urlPath);
    if (!wantsPage || !clientBuilt) {
      const error = new AppError('not_found');
      return reply.status(404).send(error.body(resolveLocale(request.headers.locale)));
    }
    // No page lives here: the app shows its 404 page (inside the top bar and footer), and the status says so.
    const locale = detectRequestLocale(request.headers.cookie, request.headers['accept-language']);
    const html = await withFacts(request, `${locale}:404`, locale, currentBuild().indexHtml);
    return sendHtml(request, reply.status(404), html, pagePolicy);
  };

  const localisedPage = (name: PageName) => async (request: FastifyRequest, reply: FastifyReply) => {
    const { lang } = request.params as { lang: string };
    const { indexHtml, metadata, pages } = currentBuild();
    if (!isLocale(lang)) return notFoundOrApp(request, reply);
    const key = `${lang}:${name}`;
    // A build without its page metadata still serves its pages, only without their translated head.
    if (!metadata)
      return sendHtml(request, reply, await withFacts(request, key, lang, indexHtml), pagePolicy);
    let unfilled = pages.get(key);
    if (unfilled === undefined) {
      const body = metadata.bodies?.[lang]?.[name] ?? '';
      const head = pageHead(metadata, lang, name, { baseUrl: config.publicUrl, siteName: site.company.name });
      unfilled = localisedHtml(indexHtml, head, lang, body);
      pages.set(key, unfilled);
    }
    let html = await withFacts(request, key, lang, unfilled);
    const shell = metadata.bookingShells?.[lang];
    const branchId = name === 'main' && shell && bookingBranch ? bookingBranchId(request.query) : null;
    const branch = branchId === null ? null : await bookingBranch?.(branchId);
    if (shell && branch) html = page(withBookingModal(html.html, shell, branch));
    return sendHtml(request, reply, html, pagePolicy);
  };

  // The operator console (issue 18) is a page of the same app with no public metadata or prerendered body: its
  // shell in the path's language, 200, and kept out of search engines.
  const consolePage = async (request: FastifyRequest, reply: FastifyReply) => {
    const { lang } = request.params as { lang: string };
    const urlPath = request.url.split('?')[0] ?? '/';
    if (!isLocale(lang) || path.extname(urlPath)) return notFoundOrApp(request, reply);
    const { indexHtml } = currentBuild();
    const unfilled = indexHtml.replace(/<html([^>]*)\slang="[^"]*"/, `<html$1 lang="${lang}"`);
    const html = await withFacts(request, `${lang}:admin`, lang, unfilled);
    return sendHtml(request, reply.header('x-robots-tag', 'noindex'), html, pagePolicy);
  };

  if (clientBuilt) {
    app.get('/', (request, reply) => {
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const locale = detectRequestLocale(request.headers.cookie, request.headers['accept-language']);
      return reply
        .header('cache-control', 'no-cache')
        .header('vary', 'Cookie, Accept-Language')
        .redirect(`/${locale}${query}`, 302);
    });
    for (const suffix of ['', '/']) {
      app.get(`/:lang${suffix}`, localisedPage('main'));
      app.get(`/:lang/rights${suffix}`, localisedPage('rights'));
      app.get(`/:lang/admin${suffix}`, consolePage);
    }
    app.get('/:lang/admin/*', consolePage);
  }

  app.setNotFoundHandler(notFoundOrApp);
}
