import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../../server/app.ts';
import { fixedClock, type TestClock } from '../../../server/kernel/clock.ts';
import { loadConfig, RATE_LIMIT_RULES, type Config } from '../../../server/config.ts';
import { freshDatabaseConfig, type DatabaseTarget } from './databases.ts';
import type { components } from '../../../openapi/schema.gen.ts';
import { insertSlot } from './fixtures.ts';

// Helpers for suites about accounts: an app on a fresh database with rate limits a test can reach, a client
// with an IP address of its own (so one test's attempts never count against another's), and shortcuts
// through registration and verification.

/** The bodies the contract declares, by schema name: `response.json<Schemas['Booking'][]>()`. */
export type Schemas = components['schemas'];
/** The body of every error answer, as the contract declares it. */
export type ErrorBody = Schemas['Error'];

/** Limits high enough to stay out of the way; a suite lowers the ones it is about. */
export const RELAXED_RATE_LIMITS = RATE_LIMIT_RULES.map((rule) => `${rule}=1000/1h`).join(',');

export function accountTestConfig(database: Config['database'], env: Record<string, string> = {}): Config {
  return {
    ...loadConfig({
      NODE_ENV: 'test',
      SEED_DEMO_DATA: 'false',
      SLOT_HORIZON_DAYS: '2',
      CLIENT_DIST_DIR: '/nonexistent-client-dist',
      PUBLIC_URL: 'https://gym.example',
      RATE_LIMITS: RELAXED_RATE_LIMITS,
      ...env,
    }),
    database,
  };
}

export type AccountApp = { app: FastifyInstance; clock: TestClock; close: () => Promise<void> };

export async function startAccountApp(
  target: DatabaseTarget,
  env: Record<string, string> = {},
  clock: TestClock = fixedClock('2026-03-20T10:30:00Z'),
): Promise<AccountApp> {
  const database = await freshDatabaseConfig(target);
  try {
    const app = await buildApp(accountTestConfig(database.config, env), { clock });
    return {
      app,
      clock,
      close: async () => {
        await app.close();
        await database.cleanup();
      },
    };
  } catch (error) {
    await database.cleanup();
    throw error;
  }
}

let addressCounter = 0;

/** A caller with an IP address no other caller of the run uses. */
export function newClient(app: FastifyInstance) {
  addressCounter += 1;
  const remoteAddress = `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
  const call = (options: InjectOptions): Promise<LightMyRequestResponse> =>
    app.inject({ remoteAddress, ...options });
  return {
    remoteAddress,
    call,
    get: (url: string, token?: string, headers: Record<string, string> = {}) =>
      call({
        method: 'GET',
        url,
        headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      }),
    json: (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, token?: string) =>
      call({
        method,
        url,
        ...(payload === undefined ? {} : { payload: payload as object }),
        headers: token ? { authorization: `Bearer ${token}` } : {},
      }),
    login: (username: string, password: string, headers: Record<string, string> = {}) =>
      call({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: new URLSearchParams({ username, password }).toString(),
      }),
  };
}

export type Client = ReturnType<typeof newClient>;

export type Registration = {
  email: string;
  phone_number: string;
  first_name: string;
  last_name: string;
  password: string;
  confirm_password: string;
  agree_newsletter: boolean;
  locale?: string;
};

export const STRONG_PASSWORD = 'correct horse battery staple';

/** A valid registration with a unique e-mail address and phone number. */
export function registration(overrides: Partial<Registration> = {}): Registration {
  const unique = randomUUID().slice(0, 8);
  return {
    email: `client-${unique}@example.com`,
    phone_number: `+3519${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
    first_name: 'Ana',
    last_name: 'Silva',
    password: STRONG_PASSWORD,
    confirm_password: STRONG_PASSWORD,
    agree_newsletter: true,
    ...overrides,
  };
}

export type OutboxMessage = {
  id: number;
  channel: 'email' | 'sms';
  to: string;
  subject: string | null;
  text: string;
  html: string | null;
  status: string;
  created_at: string;
};

export async function outboxTo(app: FastifyInstance, to: string): Promise<OutboxMessage[]> {
  // Some calls write their messages just after answering (forgot-password, resend).
  await app.afterAnswer.idle();
  return (await app.inject({ url: `/api/dev/outbox?to=${encodeURIComponent(to)}` })).json<OutboxMessage[]>();
}

/** The code of the newest verification message to this address or phone. */
export async function latestCode(app: FastifyInstance, to: string): Promise<string> {
  const [message] = await outboxTo(app, to);
  const code = message && /\b(\d{6})\b/.exec(message.text)?.[1];
  if (!code) throw new Error(`no verification code was sent to ${to}`);
  return code;
}

export async function latestResetToken(app: FastifyInstance, email: string): Promise<string> {
  const messages = await outboxTo(app, email);
  for (const message of messages) {
    const token = /reset_token=([A-Za-z0-9_-]+)/.exec(message.text)?.[1];
    if (token) return token;
  }
  throw new Error(`no reset link was sent to ${email}`);
}

/** Registers, confirms both codes and logs in; answers the account and its token. */
export async function verifiedAccount(
  client: Client,
  app: FastifyInstance,
  overrides: Partial<Registration> = {},
): Promise<Registration & { token: string }> {
  const account = registration(overrides);
  const registered = await client.json('POST', '/api/auth/register', account);
  if (registered.statusCode !== 201) throw new Error(`registration failed: ${registered.body}`);
  // The server keeps e-mails in lower case and phone numbers without spaces.
  await client.get(`/api/auth/confirm-email/${await latestCode(app, account.email.toLowerCase())}`);
  const phone = account.phone_number.replace(/\s+/g, '');
  await client.get(`/api/auth/confirm-phone-number/${await latestCode(app, phone)}`);
  const login = await client.login(account.email, account.password);
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  return { ...account, token: login.json<Schemas['LoginResponse']>().access_token };
}

/** Creates a booking of the slots over HTTP (one checkout); answers its checkout's client secret and session id. */
export async function createBookingOverHttp(
  caller: Client,
  token: string,
  slotIds: number[],
  totalEur: number,
  couponCode: string | null = null,
): Promise<{ clientSecret: string; sessionId: string }> {
  const created = await caller.json(
    'POST',
    '/api/bookings/',
    {
      time_slot_id: slotIds,
      max_bookings_per_slot: 1,
      coupon_code: couponCode,
      expected_total_final_price_eur: totalEur,
    },
    token,
  );
  if (created.statusCode !== 201) throw new Error(`booking failed (${created.statusCode}): ${created.body}`);
  const clientSecret = created.json<Schemas['CreateBookingResponse']>().checkout_session.clientSecret!;
  return { clientSecret, sessionId: clientSecret.split('_secret_')[0]! };
}

/** Books one slot for the account over HTTP and pays it with the local test card; answers the session id. */
export async function bookAndPayOverHttp(caller: Client, token: string, slotId: number): Promise<string> {
  const { sessionId } = await createBookingOverHttp(caller, token, [slotId], 15);
  await caller.json('POST', `/api/checkout/local/${sessionId}/complete`, {
    card_number: '4242 4242 4242 4242',
  });
  return sessionId;
}

/** A slot of the branch booked and paid by the account over HTTP; answers the confirmed booking's id. */
export async function paidBookingAt(
  app: FastifyInstance,
  account: { token: string },
  slot: { branchId: number; start: string; end: string },
): Promise<number> {
  const slotId = await insertSlot(app.db, { ...slot, localDate: slot.start.slice(0, 10) });
  await bookAndPayOverHttp(newClient(app), account.token, slotId);
  const { id } = await app.db
    .selectFrom('bookings')
    .select('id')
    .where('slot_id', '=', slotId)
    .where('status', '=', 'confirmed')
    .executeTakeFirstOrThrow();
  return id;
}
