import type { Schemas } from './support/accounts.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DATABASE_TARGETS } from './support/databases.ts';
import {
  newClient,
  RELAXED_RATE_LIMITS,
  startAccountApp,
  type AccountApp,
  type ErrorBody,
} from './support/accounts.ts';
import {
  addOperator,
  codeAt,
  loggedInOperator,
  OPERATOR_PASSWORD,
  operatorLogin,
} from './support/operators.ts';

// Operators log in with an e-mail, a password set through a one-time link, and a TOTP code (RFC 6238: SHA-1,
// 30-second steps, one step of drift); a code is good once; sessions last 12 hours and can be ended.

let counter = 0;
const uniqueEmail = (role: string) => `${role}-${Date.now()}-${(counter += 1)}@gym.example`;

describe.each(DATABASE_TARGETS)('operator login on %s', (target) => {
  let server: AccountApp;
  beforeAll(async () => {
    server = await startAccountApp(target, {
      RATE_LIMITS: [RELAXED_RATE_LIMITS, 'login.pair=4/15m', 'reset.ip=3/15m'].join(','),
    });
  });
  afterAll(async () => server?.close());
  beforeEach(() => {
    // Each test on a step of its own, so no two tests share a TOTP code.
    server.clock.advance({ minutes: 5 });
  });

  it('operator add prints a one-time setup link on PUBLIC_URL and the TOTP secret as an otpauth URI', async () => {
    const operator = await addOperator(server.app, server.clock, uniqueEmail('owner'), 'owner');
    const text = operator.cliOutput.join('\n');
    expect(text).toContain(`https://gym.example/en/admin?setup=${operator.setupToken}`);
    const uri = new URL(/otpauth:\/\/\S+/.exec(text)![0]);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(uri.searchParams.get('algorithm')).toBe('SHA1');
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
    expect(operator.secret).toMatch(/^[A-Z2-7]{32}$/);
  });

  it('logs an owner in with the password from the setup link and the current code', async () => {
    const email = uniqueEmail('owner');
    const owner = await loggedInOperator(server.app, server.clock, email, 'owner');
    const me = await owner.client.get('/api/admin/me', owner.token);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email, role: 'owner', password_set: true });
  });

  it('refuses a setup link the second time', async () => {
    const operator = await addOperator(server.app, server.clock, uniqueEmail('staff'), 'staff');
    const client = newClient(server.app);
    const body = { token: operator.setupToken, password: OPERATOR_PASSWORD };
    expect((await client.json('POST', '/api/admin/auth/setup-password', body)).statusCode).toBe(200);
    const again = await client.json('POST', '/api/admin/auth/setup-password', body);
    expect(again.statusCode).toBe(400);
    expect(again.json<ErrorBody>().code).toBe('invalid_setup_token');
  });

  it('accepts the previous and the next step’s code, not one two steps away', async () => {
    const email = uniqueEmail('staff');
    const operator = await addOperator(server.app, server.clock, email, 'staff');
    const client = newClient(server.app);
    await client.json('POST', '/api/admin/auth/setup-password', {
      token: operator.setupToken,
      password: OPERATOR_PASSWORD,
    });
    const tooOld = await operatorLogin(client, email, OPERATOR_PASSWORD, codeAt(operator, server.clock, -2));
    expect(tooOld.statusCode).toBe(401);
    expect(tooOld.json<ErrorBody>().code).toBe('invalid_credentials');
    const tooNew = await operatorLogin(client, email, OPERATOR_PASSWORD, codeAt(operator, server.clock, 2));
    expect(tooNew.json<ErrorBody>().code).toBe('invalid_credentials');
    const previous = await operatorLogin(
      client,
      email,
      OPERATOR_PASSWORD,
      codeAt(operator, server.clock, -1),
    );
    expect(previous.statusCode).toBe(200);
    server.clock.advance({ seconds: 30 });
    // The step after the clock's (a phone a little ahead).
    const next = await operatorLogin(client, email, OPERATOR_PASSWORD, codeAt(operator, server.clock, 1));
    expect(next.statusCode).toBe(200);
  });

  it('refuses a code used once (and an older one after it), with its own code', async () => {
    const email = uniqueEmail('staff');
    const operator = await loggedInOperator(server.app, server.clock, email, 'staff');
    const replay = await operatorLogin(
      newClient(server.app),
      email,
      OPERATOR_PASSWORD,
      codeAt(operator, server.clock),
    );
    expect(replay.statusCode).toBe(401);
    expect(replay.json<ErrorBody>().code).toBe('totp_code_reused');
    const older = await operatorLogin(
      newClient(server.app),
      email,
      OPERATOR_PASSWORD,
      codeAt(operator, server.clock, -1),
    );
    expect(older.json<ErrorBody>().code).toBe('totp_code_reused');
    server.clock.advance({ seconds: 30 });
    const fresh = await operatorLogin(
      newClient(server.app),
      email,
      OPERATOR_PASSWORD,
      codeAt(operator, server.clock),
    );
    expect(fresh.statusCode).toBe(200);
  });

  it('lets one of two simultaneous logins with the same code in', async () => {
    const email = uniqueEmail('staff');
    const operator = await addOperator(server.app, server.clock, email, 'staff');
    await newClient(server.app).json('POST', '/api/admin/auth/setup-password', {
      token: operator.setupToken,
      password: OPERATOR_PASSWORD,
    });
    const code = codeAt(operator, server.clock);
    const answers = await Promise.all(
      [1, 2, 3].map(() => operatorLogin(newClient(server.app), email, OPERATOR_PASSWORD, code)),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401, 401]);
  });

  it('refuses a wrong password and an unknown e-mail alike, and throttles guessing with 429', async () => {
    const email = uniqueEmail('owner');
    const operator = await addOperator(server.app, server.clock, email, 'owner');
    const client = newClient(server.app);
    await client.json('POST', '/api/admin/auth/setup-password', {
      token: operator.setupToken,
      password: OPERATOR_PASSWORD,
    });
    const unknown = await operatorLogin(
      client,
      `x${email}`,
      OPERATOR_PASSWORD,
      codeAt(operator, server.clock),
    );
    expect(unknown.json<ErrorBody>().code).toBe('invalid_credentials');
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const wrong = await operatorLogin(client, email, 'not the passphrase', codeAt(operator, server.clock));
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json<ErrorBody>().code).toBe('invalid_credentials');
    }
    const limited = await operatorLogin(client, email, OPERATOR_PASSWORD, codeAt(operator, server.clock));
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The owner at another address is not locked out by the guesser's failures.
    expect(
      (await operatorLogin(newClient(server.app), email, OPERATOR_PASSWORD, codeAt(operator, server.clock)))
        .statusCode,
    ).toBe(200);
  });

  it('ends a session after 12 hours, on logout, and when an owner ends it; staff cannot end an owner’s', async () => {
    const owner = await loggedInOperator(server.app, server.clock, uniqueEmail('owner'), 'owner');
    server.clock.advance({ seconds: 30 });
    const staff = await loggedInOperator(server.app, server.clock, uniqueEmail('staff'), 'staff');

    const staffSessions = (await staff.client.get('/api/admin/sessions', staff.token)).json<
      Schemas['OperatorSession'][]
    >();
    expect(staffSessions).toHaveLength(1);
    expect(staffSessions[0]).toMatchObject({ current: true, operator_email: staff.email });
    const ownerSessions = (await owner.client.get('/api/admin/sessions', owner.token)).json<
      Schemas['OperatorSession'][]
    >();
    const ownerSession = ownerSessions.find((session) => session.current)!;
    const staffSession = ownerSessions.find((session) => session.operator_email === staff.email);
    if (!staffSession) throw new Error('the owner does not see the staff session');

    const refused = await staff.client.json(
      'DELETE',
      `/api/admin/sessions/${ownerSession.id}`,
      undefined,
      staff.token,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json<ErrorBody>().code).toBe('operator_forbidden');

    const ended = await owner.client.json(
      'DELETE',
      `/api/admin/sessions/${staffSession.id}`,
      undefined,
      owner.token,
    );
    expect(ended.statusCode).toBe(204);
    expect((await staff.client.get('/api/admin/me', staff.token)).statusCode).toBe(401);

    expect((await owner.client.get('/api/admin/me', owner.token)).statusCode).toBe(200);
    server.clock.advance({ hours: 12 });
    expect((await owner.client.get('/api/admin/me', owner.token)).statusCode).toBe(401);

    server.clock.advance({ seconds: 30 });
    const again = await loggedInOperator(server.app, server.clock, uniqueEmail('owner'), 'owner');
    expect(
      (await again.client.json('POST', '/api/admin/auth/logout', undefined, again.token)).statusCode,
    ).toBe(204);
    expect((await again.client.get('/api/admin/me', again.token)).statusCode).toBe(401);
  });
});
