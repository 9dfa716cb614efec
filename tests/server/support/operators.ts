import type { FastifyInstance } from 'fastify';
import { runAdmin } from '../../../server/admin/cli.ts';
import type { Db } from '../../../server/db/database.ts';
import type { TestClock } from '../../../server/kernel/clock.ts';
import { totpCodeAt } from '../../../server/operators/totp.ts';
import { newClient, type Client, type Schemas } from './accounts.ts';

// Console operators as the product makes them: `npm run admin -- operator add`, the one-time setup link, a
// password, then a login with the TOTP code an authenticator app would show at the test clock's time.

export const OPERATOR_PASSWORD = 'a long console passphrase';

export type TestOperator = {
  email: string;
  role: 'owner' | 'staff';
  secret: string;
  setupToken: string;
  cliOutput: string[];
};

/** Runs `operator add` against the app's database and reads the link and the secret off its output. */
export async function addOperator(
  app: { db: Db },
  clock: TestClock,
  email: string,
  role: 'owner' | 'staff',
): Promise<TestOperator> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(['operator', 'add', email, '--role', role], {
    db: app.db,
    clock,
    horizonDays: 2,
    io: { out: (line) => out.push(line), err: (line) => err.push(line) },
    publicUrl: 'https://gym.example',
    operatorLocale: 'en',
  });
  if (code !== 0) throw new Error(`operator add failed: ${err.join('\n')}`);
  const text = out.join('\n');
  const setupToken = /[?&]setup=([A-Za-z0-9_-]+)/.exec(text)?.[1];
  const secret = /otpauth:\/\/totp\/[^\s]*[?&]secret=([A-Z2-7]+)/.exec(text)?.[1];
  if (!setupToken || !secret) throw new Error(`unexpected operator add output: ${text}`);
  return { email, role, secret, setupToken, cliOutput: out };
}

export function operatorLogin(client: Client, email: string, password: string, totpCode: string) {
  return client.json('POST', '/api/admin/auth/login', { email, password, totp_code: totpCode });
}

/** The code of the step `offsetSteps` away from the clock's. */
export function codeAt(operator: TestOperator, clock: TestClock, offsetSteps = 0): string {
  return totpCodeAt(operator.secret, clock.now().epochMilliseconds + offsetSteps * 30_000);
}

/** An operator with a password, logged in: answers its token. The clock moves a step, so codes never repeat. */
export async function loggedInOperator(
  app: FastifyInstance,
  clock: TestClock,
  email: string,
  role: 'owner' | 'staff',
): Promise<TestOperator & { token: string; client: Client }> {
  const operator = await addOperator(app, clock, email, role);
  const client = newClient(app);
  const setup = await client.json('POST', '/api/admin/auth/setup-password', {
    token: operator.setupToken,
    password: OPERATOR_PASSWORD,
  });
  if (setup.statusCode !== 200) throw new Error(`setup failed: ${setup.body}`);
  const login = await operatorLogin(client, email, OPERATOR_PASSWORD, codeAt(operator, clock));
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  return { ...operator, token: login.json<Schemas['OperatorLoginResponse']>().access_token, client };
}

/** Runs a back-office command (`npm run admin -- <argv>`) on the app's database and clock: its exit code and output. */
export async function runCli(
  app: { db: Db },
  clock: TestClock,
  argv: string[],
  horizonDays = 2,
): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, {
    db: app.db,
    clock,
    horizonDays,
    io: { out: (line) => out.push(line), err: (line) => err.push(line) },
  });
  return { code, out, err };
}
