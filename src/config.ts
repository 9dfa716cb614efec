/**
 * The client's configuration, read once from Vite's build-time environment (`VITE_*`), validated, and
 * passed around from here. Nothing else reads `import.meta.env`.
 */
export type ClientConfig = {
  companyName: string;
  /** The company's Portuguese tax number (NIF), shown in the legal texts. */
  companyNIF: string;
  /** The public website, without a trailing slash; canonical and og:url start with it. */
  webMainUrl: string;
  apiBaseUrl: string;
  contactEmail: string;
  /** The photo-sharing profile linked from the top bar. */
  socialUrl: string;
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

function text(env: Env, key: string, fallback: string): string {
  const value = env[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
}

function optionalText(env: Env, key: string): string | null {
  const value = env[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function url(env: Env, key: string, fallback: string): string {
  const value = text(env, key, fallback);
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(`${key} must be an absolute URL, got "${value}"`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new ConfigError(`${key} must be an http(s) URL, got "${value}"`);
  }
  return value.replace(/\/+$/, '');
}

function flag(env: Env, key: string, fallback: boolean): boolean {
  const value = env[key];
  if (value === undefined || value === '') return fallback;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new ConfigError(`${key} must be true or false, got "${String(value)}"`);
}

export function parseConfig(env: Env, origin: string): ClientConfig {
  const contactEmail = text(env, 'VITE_CONTACT_EMAIL', 'info@privategym.pt');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(contactEmail)) {
    throw new ConfigError(`VITE_CONTACT_EMAIL must be an e-mail address, got "${contactEmail}"`);
  }
  const companyNIF = text(env, 'VITE_COMPANY_NIF', '500000000');
  if (!/^\d{9}$/.test(companyNIF)) {
    throw new ConfigError(`VITE_COMPANY_NIF must be a 9-digit Portuguese tax number, got "${companyNIF}"`);
  }
  return {
    companyName: text(env, 'VITE_COMPANY_NAME', 'Private Gym'),
    companyNIF,
    webMainUrl: url(env, 'VITE_WEB_MAIN_URL', origin),
    apiBaseUrl: text(env, 'VITE_API_BASE_URL', '/api').replace(/\/+$/, ''),
    contactEmail,
    socialUrl: url(env, 'VITE_SOCIAL_URL', 'https://www.instagram.com/privategym.pt'),
    stripePublishableKey: optionalText(env, 'VITE_STRIPE_PUBLISHABLE_KEY'),
    mixpanelToken: optionalText(env, 'VITE_MIXPANEL_TOKEN'),
    earlyBirdEnabled: flag(env, 'VITE_EARLY_BIRD', true),
    poweredBy: {
      name: text(env, 'VITE_POWERED_BY_NAME', 'Private Gym Tech'),
      url: url(env, 'VITE_POWERED_BY_URL', 'https://github.com/private-gym'),
    },
  };
}

// `import.meta.env` is absent when Node loads this module (the build reads `parseConfig` for metadata).
export const config: ClientConfig = parseConfig(
  (import.meta.env ?? {}) as Env,
  typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
);
