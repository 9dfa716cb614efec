import path from 'node:path';
import { z } from 'zod';

/**
 * The server's whole configuration, read from the environment once, validated, and passed in.
 * Nothing else reads `process.env`. Each variable is documented in the README.
 */
const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// or postgresql:// URL')
    .optional(),
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  SEED_DEMO_DATA: z.enum(['true', 'false']).optional(),
  CLIENT_DIST_DIR: z.string().min(1).default('./dist'),
  SLOT_HORIZON_DAYS: z.coerce.number().int().min(1).max(730).default(120),
});

export type Config = {
  env: 'development' | 'test' | 'production';
  isProduction: boolean;
  port: number;
  host: string;
  database: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string | null };
  publicUrl: string;
  logLevel: string;
  trustProxy: boolean;
  /** Demo branches, coupons and prices go into an empty database; never in production. */
  seedDemoData: boolean;
  /** Development-only routes under /api/dev (the outbox viewer). */
  devRoutes: boolean;
  /** Validate every response against the contract; on in tests, where a wrong shape must fail loudly. */
  validateResponses: boolean;
  clientDistDir: string;
  /** How many days ahead, in each branch's own calendar, bookable slots exist. */
  slotHorizonDays: number;
};

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
  const isProduction = values.NODE_ENV === 'production';
  const seedDemoData = isProduction ? false : values.SEED_DEMO_DATA !== 'false';
  return {
    env: values.NODE_ENV,
    isProduction,
    port: values.PORT,
    host: values.HOST,
    database: values.DATABASE_URL
      ? { kind: 'postgres', url: values.DATABASE_URL }
      : { kind: 'pglite', dataDir: path.resolve(values.DATA_DIR) },
    publicUrl: (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, ''),
    logLevel: values.LOG_LEVEL,
    trustProxy: values.TRUST_PROXY,
    seedDemoData,
    devRoutes: !isProduction,
    validateResponses: values.NODE_ENV === 'test',
    clientDistDir: path.resolve(values.CLIENT_DIST_DIR),
    slotHorizonDays: values.SLOT_HORIZON_DAYS,
  };
}
