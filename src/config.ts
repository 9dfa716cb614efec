// zod's tree-shakable build: the configuration is in the landing page's bundle.
import { z } from 'zod/mini';

/**
 * The client's configuration, read once from Vite's build-time environment (`VITE_*`), validated by one zod
 * schema, and passed around from here. Nothing else reads `import.meta.env`. It holds no business fact: the
 * company's name, tax number, contact and social link come from the server with each page (src/app/site.ts).
 */
export type ClientConfig = {
  /** The public website, without a trailing slash; canonical and og:url start with it. */
  webMainUrl: string;
  apiBaseUrl: string;
  /** The card payment provider's publishable key; absent until payments are configured. */
  stripePublishableKey: string | null;
  /** The product-analytics project token; without it no analytics library is loaded. */
  mixpanelToken: string | null;
  earlyBirdEnabled: boolean;
  /** The vendor credited by the footer's 'powered-by' link. */
  poweredBy: { name: string; url: string };
};

export class ConfigError extends Error {}

type Env = Record<string, string | boolean | undefined>;

/** A trimmed value; blank counts as absent. */
const present = z.pipe(
  z.optional(z.union([z.string(), z.boolean()])),
  z.transform((value) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined)),
);

const text = (fallback: string) =>
  z.pipe(
    present,
    z.transform((value) => value ?? fallback),
  );

/** A check whose message names what was expected and what came (the variable's name is added). */
const expectThat = (test: (value: string) => boolean, expected: string) =>
  z.refine<string>(test, {
    error: (issue) => `must be ${expected}, got "${String(issue.input)}"`,
    abort: true,
  });

const httpUrl = () =>
  z.pipe(
    z.string().check(
      expectThat((value) => URL.canParse(value), 'an absolute URL'),
      expectThat((value) => ['http:', 'https:'].includes(new URL(value).protocol), 'an http(s) URL'),
    ),
    z.transform((value) => value.replace(/\/+$/, '')),
  );

const flag = (fallback: boolean) =>
  z.pipe(
    z.optional(
      z.union([z.boolean(), z.enum(['true', 'false', ''])], {
        error: (issue) => `must be true or false, got "${String(issue.input)}"`,
      }),
    ),
    z.transform((value) =>
      value === undefined || value === '' ? fallback : value === true || value === 'true',
    ),
  );

function envSchema(origin: string) {
  return z.object({
    VITE_WEB_MAIN_URL: z.pipe(text(origin), httpUrl()),
    VITE_API_BASE_URL: z.pipe(
      text('/api'),
      z.transform((value) => value.replace(/\/+$/, '')),
    ),
    VITE_STRIPE_PUBLISHABLE_KEY: present,
    VITE_MIXPANEL_TOKEN: present,
    VITE_EARLY_BIRD: flag(true),
    VITE_POWERED_BY_NAME: text('Private Gym Tech'),
    VITE_POWERED_BY_URL: z.pipe(text('https://github.com/private-gym'), httpUrl()),
  });
}

export function parseConfig(env: Env, origin: string): ClientConfig {
  const parsed = envSchema(origin).safeParse(env);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    throw new ConfigError(`${String(issue?.path[0])} ${issue?.message}`);
  }
  const value = parsed.data;
  return {
    webMainUrl: value.VITE_WEB_MAIN_URL,
    apiBaseUrl: value.VITE_API_BASE_URL,
    stripePublishableKey: value.VITE_STRIPE_PUBLISHABLE_KEY ?? null,
    mixpanelToken: value.VITE_MIXPANEL_TOKEN ?? null,
    earlyBirdEnabled: value.VITE_EARLY_BIRD,
    poweredBy: { name: value.VITE_POWERED_BY_NAME, url: value.VITE_POWERED_BY_URL },
  };
}

/**
 * The build's `VITE_*` variables, as the prerender read them (src/app/static-runtime.ts). `import.meta.env` is
 * absent when Node loads this module (the build reads `parseConfig` for metadata).
 */
export const clientEnv = (import.meta.env ?? {}) as Env;
export const config: ClientConfig = parseConfig(
  clientEnv,
  typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
);
