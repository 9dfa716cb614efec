import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config.ts';

// One Content-Security-Policy for the whole server (set by helmet on every response), and the page's own
// variant: the single-page app needs Stripe's script and frames only when Stripe takes the payments, and only
// the HTML page loads scripts at all, so API answers and the local checkout never allow Stripe.

type Directives = Record<string, string[]>;

const STRIPE = {
  scriptSrc: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frameSrc: [
    'https://js.stripe.com',
    'https://*.js.stripe.com',
    'https://checkout.stripe.com',
    'https://hooks.stripe.com',
  ],
  connectSrc: ['https://api.stripe.com', 'https://checkout.stripe.com'],
};

/** Helmet's directives; with `stripe`, the sources Stripe's Embedded Checkout needs are added. */
function contentSecurityDirectives({ stripe }: { stripe: boolean }): Directives {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...(stripe ? STRIPE.scriptSrc : [])],
    // Mantine writes component styles at run time.
    styleSrc: ["'self'", "'unsafe-inline'"],
    // The links the server publishes for pictures (a branch's gallery, its entrance photo) are paths on this site or
    // https: addresses (server/catalog/links.ts): the pages show both.
    imgSrc: ["'self'", 'data:', 'https:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", ...(stripe ? STRIPE.connectSrc : [])],
    frameSrc: ["'self'", 'https://www.openstreetmap.org', ...(stripe ? STRIPE.frameSrc : [])],
    frameAncestors: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
  };
}

/**
 * `upgrade-insecure-requests` only where the site is served over https: at a plain-http address (a phone on the
 * LAN, a staging host without TLS) it would make the browser fetch every asset over https, and nothing loads.
 */
function upgradesInsecureRequests(config: Config): boolean {
  return new URL(config.publicUrl).protocol === 'https:';
}

/** The header value of the directives, as helmet writes it (camelCase names to kebab-case, `;`-separated). */
export function contentSecurityHeader(directives: Directives, { upgrade }: { upgrade: boolean }): string {
  return Object.entries(directives)
    .map(
      ([name, sources]) =>
        `${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)} ${sources.join(' ')}`,
    )
    .concat(upgrade ? ['upgrade-insecure-requests'] : [])
    .join(';');
}

/** The CSP of the app's HTML pages: Stripe allowed exactly when Stripe is the payment provider. */
export function pageContentSecurityPolicy(config: Config): string {
  return contentSecurityHeader(contentSecurityDirectives({ stripe: config.payments.provider === 'stripe' }), {
    upgrade: upgradesInsecureRequests(config),
  });
}

/**
 * helmet's headers on every response, built once. (@fastify/helmet rebuilt helmet, parsing the directives again,
 * on every request: a tenth of the slot listing's time in `npm run bench`.) The HTML pages replace the CSP with
 * pageContentSecurityPolicy.
 */
export function securityHeadersHook(config: Config) {
  const setHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        ...contentSecurityDirectives({ stripe: false }),
        // helmet adds the directive by default; null leaves it out.
        upgradeInsecureRequests: upgradesInsecureRequests(config) ? [] : null,
      },
    },
    // The embedded map and the payment page are cross-origin frames.
    crossOriginEmbedderPolicy: false,
  });
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    setHeaders(request.raw, reply.raw, (error?: unknown) => {
      // The site's pictures (branch photos, entrance photos) are shown in e-mails, which a webmail renders on its
      // own origin: a browser would refuse them under `same-origin`. They are public and hold no one's data.
      if (request.url.startsWith('/images/'))
        reply.raw.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      done(error as Error | undefined);
    });
  };
}
