// What the transcript walks (doors-demo.ts, regulars-demo.ts) share: Seam's own fake with one lock, the server's
// configuration pointing at it, requests through app.inject, the back office on the app's database, the branch of
// the walks, a verified member, and Seam's signed webhooks.
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createFake } from '@seamapi/fake-seam-connect';
import { Webhook } from 'svix';
import { runAdmin } from '../server/admin/cli.ts';
import { loadConfig, type Config } from '../server/config.ts';
import type { TestClock } from '../server/kernel/clock.ts';

/** The fields of the fake's access codes the walks print. */
export type FakeAccessCode = {
  access_code_id: string;
  name?: string | null;
  code?: string | null;
  starts_at?: string;
  ends_at?: string;
  status: string;
};

/** Seam's fake, listening, with its seeded workspace and the lock the walks map their branch to. */
export async function startSeamFake() {
  const fake = await createFake();
  const seed = await fake.seed();
  await fake.startServer();
  const webhookSecret = `whsec_${randomBytes(24).toString('base64')}`;
  const lock = seed.august_device_1;

  /** The codes the fake holds on the lock (its backup pool aside). */
  async function codes(): Promise<FakeAccessCode[]> {
    const database = (await (await fetch(`${fake.serverUrl}/_fake/database`)).json()) as {
      access_codes: (FakeAccessCode & { device_id: string; is_backup?: boolean })[];
    };
    return database.access_codes
      .filter((code) => code.device_id === lock && !code.is_backup)
      .map(({ access_code_id, name, code, starts_at, ends_at, status }) => ({
        access_code_id,
        name,
        code,
        starts_at,
        ends_at,
        status,
      }));
  }

  /** Posts a Seam event to the server's webhook, signed as Seam signs it. */
  function signedWebhook(app: FastifyInstance, event: Record<string, unknown>) {
    const payload = JSON.stringify({
      workspace_id: seed.seed_workspace_1,
      created_at: new Date().toISOString(),
      ...event,
    });
    const id = `msg_${randomUUID()}`;
    const now = new Date();
    return app.inject({
      method: 'POST',
      url: '/api/locks/webhook',
      payload,
      headers: {
        'content-type': 'application/json',
        'svix-id': id,
        'svix-timestamp': String(Math.floor(now.getTime() / 1000)),
        'svix-signature': new Webhook(webhookSecret).sign(id, now, payload),
      },
    });
  }

  /** The server's configuration for a walk: the fake's lock provider, the local checkout, a database. */
  function config(horizonDays: number, database: Config['database']): Config {
    return {
      ...loadConfig({
        NODE_ENV: 'test',
        SEED_DEMO_DATA: 'false',
        SLOT_HORIZON_DAYS: String(horizonDays),
        PUBLIC_URL: 'https://gym.example',
        CLIENT_DIST_DIR: '/nonexistent',
        LOG_LEVEL: 'silent',
        SEAM_API_KEY: seed.seam_apikey1_token,
        SEAM_ENDPOINT: fake.serverUrl!,
        SEAM_WEBHOOK_SECRET: webhookSecret,
        OPERATOR_EMAIL: 'ops@gym.example',
        SUPPORT_PHONE: '+351 210 000 000',
      }),
      database,
    };
  }

  return { fake, seed, lock, webhookSecret, codes, signedWebhook, config, stop: () => fake.stopServer() };
}

/** A request to the app as the English client sends it, with the member's token when given. */
export function injector(app: FastifyInstance) {
  return async (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, token?: string) => {
    const response = await app.inject({
      method,
      url,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        locale: 'en',
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return {
      status: response.statusCode,
      body: response.body,
      json: <T = unknown>() => response.json<T>(),
    };
  };
}

/** `npm run admin -- <argv>` on the app's database, clock and services: the lines it printed. */
export function adminRunner(app: FastifyInstance, clock: TestClock, config: Config) {
  return async (...argv: string[]): Promise<string[]> => {
    const out: string[] = [];
    const code = await runAdmin(argv, {
      db: app.db,
      clock,
      horizonDays: config.slotHorizonDays,
      lockProvider: app.modules.lockProvider,
      payments: app.modules.payments,
      publicUrl: config.publicUrl,
      operatorLocale: 'en',
      modules: app.modules,
      io: { out: (line) => out.push(line), err: (line) => out.push(line) },
    });
    if (code !== 0) throw new Error(`admin ${argv.join(' ')} exited ${code}: ${out.join('\n')}`);
    return out;
  };
}

/** The walks' branch (Lisbon, 15 € an hour, open 24/7), its door the fake's lock: `branch create`'s arguments. */
export function branchCreateArguments(lock: string): string[] {
  return [
    'branch',
    'create',
    '--slug',
    'avenidas-novas',
    '--name',
    'Lisboa – Avenidas Novas',
    '--location',
    'Avenida da República 52, Lisboa',
    '--latitude',
    '38.74',
    '--longitude=-9.14',
    '--time-zone',
    'Europe/Lisbon',
    '--price',
    '15',
    '--image',
    'https://gym.example/a.jpg',
    ...['pt', 'en', 'fr', 'de', 'sk'].flatMap((locale) => [
      '--description',
      `${locale}=<p>Avenidas Novas</p>`,
    ]),
    '--lock-device',
    lock,
  ];
}

export const MEMBER_PASSWORD = 'Treino-privado-2026!';

/** Signs a member in: the session's token. */
export async function signIn(app: FastifyInstance, email: string): Promise<string> {
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `username=${encodeURIComponent(email)}&password=${encodeURIComponent(MEMBER_PASSWORD)}`,
  });
  return login.json<{ access_token: string }>().access_token;
}

/** Registers a member in English, marks the e-mail and phone verified (as their codes would) and signs in. */
export async function verifiedMember(
  app: FastifyInstance,
  member: { firstName: string; email: string; phone: string },
): Promise<string> {
  await injector(app)('POST', '/api/auth/register', {
    email: member.email,
    first_name: member.firstName,
    last_name: 'Silva',
    phone_number: member.phone,
    password: MEMBER_PASSWORD,
    confirm_password: MEMBER_PASSWORD,
    agree_newsletter: false,
    locale: 'en',
  });
  await app.db
    .updateTable('users')
    .set({ email_verified_at: new Date(), phone_verified_at: new Date() })
    .where('email', '=', member.email)
    .execute();
  return signIn(app, member.email);
}
