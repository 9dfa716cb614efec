import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { isValidPortugueseTaxId, normaliseTaxId } from '../openapi/tax-id.ts';

/**
 * The server's whole configuration, read from the environment once, validated, and passed in.
 * Nothing else reads `process.env`. Each variable is documented in the README.
 */
export const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// or postgresql:// URL')
    .optional(),
  // Bounds on waiting for PostgreSQL, so an unreachable database makes requests fail fast (503) instead of hang.
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z.string().default('false'),
  SEED_DEMO_DATA: z.enum(['true', 'false']).optional(),
  // Every answer checked against the contract, status included (an undeclared one is a 500): on under test,
  // and for the end-to-end server.
  VALIDATE_RESPONSES: z.enum(['true', 'false']).optional(),
  CLIENT_DIST_DIR: z.string().min(1).default('./dist'),
  SLOT_HORIZON_DAYS: z.coerce.number().int().min(1).max(730).default(120),
  // The longest a process keeps a day's slot listing it was told nothing about (server/catalog/slot-day-cache.ts);
  // 0 reads every listing from the database.
  SLOT_LISTING_KEEP_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_/, 'STRIPE_SECRET_KEY must start with sk_ or rk_')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_/, 'STRIPE_WEBHOOK_SECRET must start with whsec_')
    .optional(),
  // Where Stripe's API is (tests and stripe-mock); Stripe's own address when unset.
  STRIPE_API_URL: z.url().optional(),
  // One call to the payment provider, each try; with one retry a booking hears 503 well within 10 s.
  PAYMENT_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(3000),
  // Stripe accepts 30 minutes to 24 hours; the hold on the slots lasts exactly as long.
  CHECKOUT_EXPIRY_MINUTES: z.coerce.number().int().min(30).max(1440).default(30),
  // Multibanco is offered only when the first booked slot starts at least this many days later (issue 29, item 5).
  MULTIBANCO_MIN_DAYS_AHEAD: z.coerce.number().int().min(3).max(60).default(3),
  // --- Accounts and notifications ---
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters long').optional(),
  SESSION_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24 * 14),
  RATE_LIMITS: z.string().optional(),
  COMPANY_NAME: z.string().min(1).max(100).default('Private Gym'),
  // The seller on the receipt in the confirmation e-mail. The defaults are a demo's: set both in production.
  COMPANY_ADDRESS: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .default('Avenida da Liberdade 1, 1250-096 Lisboa, Portugal'),
  COMPANY_TAX_ID: z
    .string()
    .refine(
      isValidPortugueseTaxId,
      'COMPANY_TAX_ID must be a Portuguese NIF: nine digits with a valid check digit',
    )
    .transform(normaliseTaxId)
    .default('512345678'),
  // How members reach the business: in the legal pages, the footer, e-mails and error messages.
  COMPANY_EMAIL: z.email().default('info@privategym.pt'),
  // The photo-sharing profile the top bar links to: shown on every page, so only an http(s) address.
  COMPANY_SOCIAL_URL: z
    .url({ protocol: /^https?$/, error: 'COMPANY_SOCIAL_URL must be an http(s) URL' })
    .default('https://www.instagram.com/privategym.pt'),
  // Prices include VAT at this rate (a fraction: 0.23 is 23 %); the receipt states the VAT they contain.
  VAT_RATE: z.coerce.number().min(0).max(1).default(0.23),
  // The coupon every eligible member is offered without typing it (the demo's early bird); empty: none.
  EARLY_BIRD_COUPON_CODE: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{0,40}$/, 'EARLY_BIRD_COUPON_CODE is up to 40 letters, digits, - or _')
    .default('EARLYBIRD'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  // Bounds on one SMTP delivery, so a server that hangs fails the message (retried later) instead of holding it.
  // Connecting covers the DNS lookup and the TCP and TLS setup; the greeting is what the server says first; the
  // socket timeout is how long the conversation may then go quiet. Each stays far below the outbox's 2-minute lease.
  SMTP_CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  SMTP_GREETING_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  SMTP_SOCKET_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(20_000),
  // Deliveries in flight at once per channel (e-mail, SMS) in each process.
  OUTBOX_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  // The least a step of a console report or of the ledger export rests while other requests come
  // (server/kernel/background-lane.ts).
  REPORT_REST_MS: z.coerce.number().int().min(0).max(60_000).default(50),
  SMS_PROVIDER: z.enum(['log', 'twilio']).default('log'),
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-fA-F]{32}$/, 'TWILIO_ACCOUNT_SID looks like AC followed by 32 hex digits')
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  TWILIO_FROM: z.string().min(1).optional(),
  // --- Doors ---
  SEAM_API_KEY: z
    .string()
    .regex(/^seam_/, 'SEAM_API_KEY must start with seam_')
    .optional(),
  SEAM_ENDPOINT: z.url().optional(),
  SEAM_WEBHOOK_SECRET: z.string().min(8).optional(),
  // --- Invoices (docs/decisions.md, "Invoices and credit notes") ---
  // `invoicexpress`: a certified invoicing service issues each payment's invoice and each refund's credit note;
  // `local` (the default): look-alike documents in the server's own series, marked as not valid for tax.
  INVOICING_PROVIDER: z.enum(['local', 'invoicexpress']).default('local'),
  // The account's subdomain (ACCOUNT.app.invoicexpress.com) and its API key.
  INVOICEXPRESS_ACCOUNT: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9-]{0,62}$/i,
      'INVOICEXPRESS_ACCOUNT is the account name of ACCOUNT.app.invoicexpress.com',
    )
    .optional(),
  INVOICEXPRESS_API_KEY: z.string().min(8).optional(),
  // Where the API is (tests); https://ACCOUNT.app.invoicexpress.com when unset.
  INVOICEXPRESS_API_URL: z.url().optional(),
  // The provider's document series (InvoiceXpress: the sequence id); unset: the account's default series.
  INVOICING_SERIES: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, 'INVOICING_SERIES is up to 40 letters, digits, - or _')
    .optional(),
  // A fatura simplificada instead of a fatura-recibo for a buyer without a NIF, up to 100 € (CIVA art. 40).
  INVOICING_SIMPLIFIED: z.enum(['true', 'false']).default('false'),
  // One call to the invoicing service; a call that outlasts it is looked up before it is tried again.
  INVOICING_TIMEOUT_MS: z.coerce.number().int().min(200).max(120_000).default(15_000),
  OPERATOR_EMAIL: z.email().optional(),
  OPERATOR_LOCALE: z.enum(['pt', 'en', 'fr', 'de', 'sk']).default('pt'),
  SUPPORT_PHONE: z
    .string()
    .regex(/^\+?[0-9 ()-]{6,20}$/, 'SUPPORT_PHONE must be a phone number, e.g. +351 210 000 000')
    .optional(),
});

/** Every rate-limited action and whom it is counted against. */
export const RATE_LIMIT_RULES = [
  'login.ip',
  'login.account',
  'login.pair',
  'register.ip',
  'register.contact',
  'resend.ip',
  'resend.account',
  'forgot.ip',
  'forgot.account',
  'confirm.ip',
  'confirm.global',
  'reset.ip',
  'code.resend',
  'guest.add',
  'pack.purchase',
  'voucher.redeem',
] as const;
export type RateLimitRule = (typeof RATE_LIMIT_RULES)[number];
export type RateLimit = { limit: number; windowSeconds: number };
export type RateLimits = Record<RateLimitRule, RateLimit>;

const MINUTE = 60;
const HOUR = 60 * MINUTE;

// Generous for a person, tight for a script. `confirm.*` and `reset.ip` count only wrong codes and tokens.
const DEFAULT_RATE_LIMITS: RateLimits = {
  'login.ip': { limit: 30, windowSeconds: 15 * MINUTE },
  // Wrong passwords: ten per (account, address), so someone else's guesses never lock the owner out; the
  // account as a whole only has a ceiling far above that, against guessing spread over many addresses.
  'login.pair': { limit: 10, windowSeconds: 15 * MINUTE },
  'login.account': { limit: 100, windowSeconds: 15 * MINUTE },
  'register.ip': { limit: 10, windowSeconds: HOUR },
  'register.contact': { limit: 5, windowSeconds: HOUR },
  'resend.ip': { limit: 20, windowSeconds: HOUR },
  'resend.account': { limit: 5, windowSeconds: HOUR },
  'forgot.ip': { limit: 10, windowSeconds: HOUR },
  'forgot.account': { limit: 5, windowSeconds: HOUR },
  'confirm.ip': { limit: 10, windowSeconds: 15 * MINUTE },
  'confirm.global': { limit: 500, windowSeconds: 15 * MINUTE },
  'reset.ip': { limit: 10, windowSeconds: 15 * MINUTE },
  'code.resend': { limit: 3, windowSeconds: HOUR },
  // Each guest added within the half hour before the start is sent an SMS at once: not a way to text strangers.
  'guest.add': { limit: 20, windowSeconds: HOUR },
  // Each purchase opens a checkout with the payment provider: a person buys a few packs, not dozens an hour.
  'pack.purchase': { limit: 10, windowSeconds: HOUR },
  // Redeeming is typing a code: a person tries a few, a script guessing codes is stopped.
  'voucher.redeem': { limit: 10, windowSeconds: HOUR },
};

const UNIT_SECONDS = { s: 1, m: MINUTE, h: HOUR } as const;

/** `login.ip=30/15m,register.ip=10/1h`: overrides of the defaults, each `rule=hits/window` (s, m or h). */
function parseRateLimits(text: string | undefined): RateLimits {
  const limits = { ...DEFAULT_RATE_LIMITS };
  for (const item of (text ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = /^([a-z.]+)=(\d+)\/(\d+)([smh])$/.exec(item);
    const rule = match?.[1] as RateLimitRule | undefined;
    if (!match || !rule || !RATE_LIMIT_RULES.includes(rule) || Number(match[3]) < 1) {
      throw new ConfigError(
        `Invalid configuration: RATE_LIMITS item '${item}' is not rule=hits/window with a rule of ${RATE_LIMIT_RULES.join(', ')} and a window like 30s, 15m or 1h`,
      );
    }
    limits[rule] = {
      limit: Number(match[2]),
      windowSeconds: Number(match[3]) * UNIT_SECONDS[match[4] as keyof typeof UNIT_SECONDS],
    };
  }
  return limits;
}

/** argon2id cost. OWASP's recommendation everywhere but in tests, where hashing thousands of times must be quick. */
export type PasswordHashing = { memoryCost: number; timeCost: number; parallelism: number };
const PRODUCTION_PASSWORD_HASHING: PasswordHashing = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };
const TEST_PASSWORD_HASHING: PasswordHashing = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

export type Config = {
  env: 'development' | 'test' | 'production';
  isProduction: boolean;
  port: number;
  host: string;
  database:
    | { kind: 'postgres'; url: string }
    | {
        kind: 'pglite';
        dataDir: string | null;
        /** Tests only, never read from the environment: a data-directory tarball (PGlite's `dumpDataDir`) to start from. */
        loadDataDir?: string;
      };
  /** PostgreSQL only: how long to wait for a connection, a statement, and a transaction left idle. */
  databaseTimeouts: DatabaseTimeouts;
  publicUrl: string;
  logLevel: string;
  trustProxy: TrustProxy;
  /** Demo branches, coupons and prices go into an empty database; never in production. */
  seedDemoData: boolean;
  /** Development-only routes under /api/dev (the outbox viewer). */
  devRoutes: boolean;
  /** Validate every response against the contract; on in tests, where a wrong shape must fail loudly. */
  validateResponses: boolean;
  clientDistDir: string;
  /** How many days ahead, in each branch's own calendar, bookable slots exist. */
  slotHorizonDays: number;
  /**
   * A day's slot listing is kept by each process until the database says it changed (PostgreSQL only), and never
   * longer than `keepMs` (0: never kept).
   */
  slotListing: { keepMs: number };
  /** `local` (a simulated checkout served by this server) unless Stripe keys are configured. */
  payments:
    | { provider: 'local' }
    | {
        provider: 'stripe';
        secretKey: string;
        webhookSecret: string;
        apiUrl: string | null;
        timeoutMs: number;
      };
  /** How long a checkout session stays open, and so how long its pending bookings hold their slots. */
  checkoutExpiryMinutes: number;
  /** Multibanco is offered only for bookings whose first slot starts at least this many days later. */
  multibancoMinDaysAhead: number;
  /** The sender's name in e-mails and SMS. */
  companyName: string;
  /** The seller named on receipts; prices include VAT at `vatRate`. */
  company: CompanyDetails;
  /** The code of the coupon offered to every member it applies to (applied in the booking modal), or null. */
  earlyBirdCouponCode: string | null;
  auth: {
    /** Signs session tokens and keys the hashes of codes. null: generated once and kept in the database (never in production). */
    jwtSecret: string | null;
    sessionHours: number;
    passwordHashing: PasswordHashing;
    rateLimits: RateLimits;
  };
  /** E-mail goes over SMTP when `smtpUrl` is set; otherwise it is printed to the log and kept in the outbox. */
  mail: {
    smtpUrl: string | null;
    from: string;
    /** Bounds on one SMTP delivery (nodemailer's connectionTimeout, greetingTimeout, socketTimeout). */
    timeouts: { connectionMs: number; greetingMs: number; socketMs: number };
  };
  /** The outbox worker: deliveries in flight at once per channel, so a hung provider holds only its own. */
  outbox: { concurrency: number };
  /** The console's reports over a period and the ledger export: the least a step rests while other requests come. */
  reports: { restMs: number };
  sms: { provider: 'log' } | { provider: 'twilio'; accountSid: string; authToken: string; from: string };
  /** Seam when `SEAM_API_KEY` is set; otherwise each branch has a virtual door (the local provider). */
  locks:
    | { provider: 'local' }
    | { provider: 'seam'; apiKey: string; endpoint: string | null; webhookSecret: string | null };
  /** Who issues each payment's invoice and each refund's credit note (docs/decisions.md, "Invoices"). */
  invoicing: InvoicingConfig;
  /** Where alerts about doors go (besides the log), and in which language. */
  operator: { email: string | null; locale: 'pt' | 'en' | 'fr' | 'de' | 'sk' };
  /** The help line given to a member whose code a door has not confirmed. */
  supportPhone: string | null;
};

/**
 * `false`, the number of proxies in front of the server, or their addresses and CIDR ranges. Never `true`:
 * that would take the left-most X-Forwarded-For entry, which the client writes, as its address.
 */
export type TrustProxy = false | number | string[];

function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

export function parseTrustProxy(text: string): TrustProxy {
  const value = text.trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') {
    throw new ConfigError(
      'Invalid configuration: TRUST_PROXY=true would take the client-written left-most X-Forwarded-For entry as its address and bypass every per-address limit. Set the number of proxies in front of the server (behind one load balancer: TRUST_PROXY=1) or their addresses/CIDR ranges (e.g. TRUST_PROXY=10.0.0.0/8)',
    );
  }
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const wrong = entries.filter((entry) => !isAddressOrRange(entry));
  if (entries.length === 0 || wrong.length > 0) {
    throw new ConfigError(
      `Invalid configuration: TRUST_PROXY must be false, a number of proxies (e.g. 1) or comma-separated addresses/CIDR ranges (e.g. 10.0.0.0/8); not ${wrong.join(', ') || value}`,
    );
  }
  return entries;
}

export type InvoicingConfig = {
  /** A fatura simplificada for a buyer without a NIF up to 100 €, where the operator enables it. */
  simplifiedInvoices: boolean;
  timeoutMs: number;
} & (
  { provider: 'local' } | { provider: 'invoicexpress'; apiUrl: string; apiKey: string; series: string | null }
);

export type CompanyDetails = {
  name: string;
  address: string;
  taxId: string;
  vatRate: number;
  /** The business's contact e-mail (legal pages, e-mails, errors). */
  email: string;
  /** The photo-sharing profile the top bar links to. */
  socialUrl: string;
};

export type DatabaseTimeouts = { connectMs: number; statementMs: number; idleInTransactionMs: number };

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
      .join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const values = parsed.data;
  if (Boolean(values.STRIPE_SECRET_KEY) !== Boolean(values.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError(
      'Invalid configuration: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set together or not at all',
    );
  }
  const isProduction = values.NODE_ENV === 'production';
  if (isProduction && !values.JWT_SECRET) {
    throw new ConfigError(
      'Invalid configuration: JWT_SECRET is required in production (at least 32 random characters, e.g. `openssl rand -base64 48`)',
    );
  }
  const twilio = [values.TWILIO_ACCOUNT_SID, values.TWILIO_AUTH_TOKEN, values.TWILIO_FROM];
  if (values.SMS_PROVIDER === 'twilio' && twilio.some((value) => !value)) {
    throw new ConfigError(
      'Invalid configuration: SMS_PROVIDER=twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM',
    );
  }
  if (
    values.INVOICING_PROVIDER === 'invoicexpress' &&
    (!values.INVOICEXPRESS_API_KEY || (!values.INVOICEXPRESS_ACCOUNT && !values.INVOICEXPRESS_API_URL))
  ) {
    throw new ConfigError(
      'Invalid configuration: INVOICING_PROVIDER=invoicexpress needs INVOICEXPRESS_ACCOUNT and INVOICEXPRESS_API_KEY',
    );
  }
  const rateLimits = parseRateLimits(values.RATE_LIMITS);
  const seedDemoData = isProduction ? false : values.SEED_DEMO_DATA !== 'false';
  return {
    env: values.NODE_ENV,
    isProduction,
    port: values.PORT,
    // A development server is for the developer's own machine (its /api/dev routes hand out codes and links).
    host: values.HOST ?? (isProduction ? '0.0.0.0' : '127.0.0.1'),
    database: values.DATABASE_URL
      ? { kind: 'postgres', url: values.DATABASE_URL }
      : { kind: 'pglite', dataDir: path.resolve(values.DATA_DIR) },
    databaseTimeouts: {
      connectMs: values.DB_CONNECT_TIMEOUT_MS,
      statementMs: values.DB_STATEMENT_TIMEOUT_MS,
      idleInTransactionMs: values.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    publicUrl: (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, ''),
    logLevel: values.LOG_LEVEL,
    trustProxy: parseTrustProxy(values.TRUST_PROXY),
    seedDemoData,
    devRoutes: !isProduction,
    validateResponses: values.VALIDATE_RESPONSES
      ? values.VALIDATE_RESPONSES === 'true'
      : values.NODE_ENV === 'test',
    clientDistDir: path.resolve(values.CLIENT_DIST_DIR),
    slotHorizonDays: values.SLOT_HORIZON_DAYS,
    slotListing: { keepMs: values.SLOT_LISTING_KEEP_MS },
    payments:
      values.STRIPE_SECRET_KEY && values.STRIPE_WEBHOOK_SECRET
        ? {
            provider: 'stripe',
            secretKey: values.STRIPE_SECRET_KEY,
            webhookSecret: values.STRIPE_WEBHOOK_SECRET,
            apiUrl: values.STRIPE_API_URL ?? null,
            timeoutMs: values.PAYMENT_PROVIDER_TIMEOUT_MS,
          }
        : { provider: 'local' },
    checkoutExpiryMinutes: values.CHECKOUT_EXPIRY_MINUTES,
    multibancoMinDaysAhead: values.MULTIBANCO_MIN_DAYS_AHEAD,
    companyName: values.COMPANY_NAME,
    company: {
      name: values.COMPANY_NAME,
      address: values.COMPANY_ADDRESS,
      taxId: values.COMPANY_TAX_ID,
      vatRate: values.VAT_RATE,
      email: values.COMPANY_EMAIL,
      socialUrl: values.COMPANY_SOCIAL_URL,
    },
    earlyBirdCouponCode: values.EARLY_BIRD_COUPON_CODE.toUpperCase() || null,
    auth: {
      jwtSecret: values.JWT_SECRET ?? null,
      sessionHours: values.SESSION_HOURS,
      passwordHashing: values.NODE_ENV === 'test' ? TEST_PASSWORD_HASHING : PRODUCTION_PASSWORD_HASHING,
      rateLimits,
    },
    mail: {
      smtpUrl: values.SMTP_URL ?? null,
      from: values.MAIL_FROM ?? `"${values.COMPANY_NAME}" <no-reply@localhost>`,
      timeouts: {
        connectionMs: values.SMTP_CONNECTION_TIMEOUT_MS,
        greetingMs: values.SMTP_GREETING_TIMEOUT_MS,
        socketMs: values.SMTP_SOCKET_TIMEOUT_MS,
      },
    },
    outbox: { concurrency: values.OUTBOX_CONCURRENCY },
    reports: { restMs: values.REPORT_REST_MS },
    sms:
      values.SMS_PROVIDER === 'twilio'
        ? {
            provider: 'twilio',
            accountSid: values.TWILIO_ACCOUNT_SID as string,
            authToken: values.TWILIO_AUTH_TOKEN as string,
            from: values.TWILIO_FROM as string,
          }
        : { provider: 'log' },
    locks: values.SEAM_API_KEY
      ? {
          provider: 'seam',
          apiKey: values.SEAM_API_KEY,
          endpoint: values.SEAM_ENDPOINT ?? null,
          webhookSecret: values.SEAM_WEBHOOK_SECRET ?? null,
        }
      : { provider: 'local' },
    invoicing: {
      simplifiedInvoices: values.INVOICING_SIMPLIFIED === 'true',
      timeoutMs: values.INVOICING_TIMEOUT_MS,
      ...(values.INVOICING_PROVIDER === 'invoicexpress'
        ? {
            provider: 'invoicexpress' as const,
            apiUrl: (
              values.INVOICEXPRESS_API_URL ?? `https://${values.INVOICEXPRESS_ACCOUNT}.app.invoicexpress.com`
            ).replace(/\/+$/, ''),
            apiKey: values.INVOICEXPRESS_API_KEY as string,
            series: values.INVOICING_SERIES ?? null,
          }
        : { provider: 'local' as const }),
    },
    operator: { email: values.OPERATOR_EMAIL ?? null, locale: values.OPERATOR_LOCALE },
    supportPhone: values.SUPPORT_PHONE ?? null,
  };
}
