import type { ErrorBody, Schemas } from './support/accounts.ts';
import { sql } from 'kysely';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/database.ts';
import { PGLITE_ONLY } from './support/databases.ts';
import {
  latestCode,
  latestResetToken,
  newClient,
  outboxTo,
  registration,
  startAccountApp,
  verifiedAccount,
  type AccountApp,
} from './support/accounts.ts';
import { anyOf } from './support/matchers.ts';

async function userRow(db: Db, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

describe.each(PGLITE_ONLY)('accounts on %s', (target) => {
  let server: AccountApp;
  beforeAll(async () => {
    server = await startAccountApp(target, { SESSION_HOURS: '24' });
  });
  afterAll(async () => server?.close());

  describe('registration and verification', () => {
    it('creates an unverified account and sends an e-mail code with a verify link and an SMS code', async () => {
      const client = newClient(server.app);
      const account = registration({ locale: 'en' });
      const response = await client.json('POST', '/api/auth/register', account);
      expect(response.statusCode).toBe(201);
      expect(response.json<Schemas['Message']>().message).toEqual(expect.any(String));

      const [email] = await outboxTo(server.app, account.email);
      expect(email?.channel).toBe('email');
      expect(email?.subject).toBe('Confirm your e-mail address – Private Gym');
      const code = await latestCode(server.app, account.email);
      const link = new URL(`https://gym.example/en?auth_tab=verify`);
      link.searchParams.set('verify_email', account.email);
      link.searchParams.set('verify_email_code', code);
      expect(email?.text).toContain(link.toString());
      expect(email?.html).toContain('<!doctype html>');
      const [sms] = await outboxTo(server.app, account.phone_number);
      expect(sms?.channel).toBe('sms');
      expect(sms?.text).toMatch(/^Private Gym: your verification code is \d{6}\./);

      const user = await userRow(server.app.db, account.email);
      expect(user?.password_hash).toMatch(/^\$argon2id\$/);
      expect(user?.email_verified_at).toBeNull();
      expect(user?.phone_verified_at).toBeNull();
      const codes = await server.app.db
        .selectFrom('verification_codes')
        .selectAll()
        .where('user_id', '=', user!.id)
        .execute();
      expect(codes).toHaveLength(2);
      for (const stored of codes) expect(stored.code_hash).not.toContain(code);
    });

    it('refuses to log in until both codes are confirmed, naming what is missing in `pending`', async () => {
      const client = newClient(server.app);
      const account = registration();
      await client.json('POST', '/api/auth/register', account);

      const refused = await client.login(account.email, account.password, { locale: 'en' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({
        code: 'account_not_verified',
        detail: 'Please verify your account before logging in.',
        pending: ['email', 'phone'],
      });

      const email = await client.get(
        `/api/auth/confirm-email/${await latestCode(server.app, account.email)}`,
        undefined,
        {
          locale: 'en',
        },
      );
      expect(email.statusCode).toBe(200);
      expect(email.json<Schemas['Message']>().message).toBe(
        'Email verified successfully. Please verify your phone number.',
      );
      expect((await client.login(account.email, account.password)).json()).toMatchObject({
        code: 'account_not_verified',
        pending: ['phone'],
      });

      const phone = await client.get(
        `/api/auth/confirm-phone-number/${await latestCode(server.app, account.phone_number)}`,
        undefined,
        { locale: 'en' },
      );
      expect(phone.statusCode).toBe(200);
      expect(phone.json<Schemas['Message']>().message).toBe('Phone verified successfully. Please log in.');

      const login = await client.login(account.email, account.password);
      expect(login.statusCode).toBe(200);
      expect(login.json()).toEqual({ access_token: anyOf(String), token_type: 'bearer' });
      expect(login.headers['cache-control']).toBe('no-store');
      const token = login.json<Schemas['LoginResponse']>().access_token;
      expect((await client.get('/api/auth/token/validate', token)).json()).toEqual({ valid: true });
      const me = await client.get('/api/auth/me', token);
      expect(me.json()).toEqual({
        email: account.email,
        phone_number: account.phone_number,
        first_name: 'Ana',
        last_name: 'Silva',
        agree_newsletter: true,
        distinct_id: anyOf(String),
        email_verified: true,
        phone_verified: true,
        locale: 'pt',
        tax_id: null,
        // No early-bird coupon exists in this database (tests/server/early-bird.test.ts has one).
        offered_coupon: null,
      });
    });

    it('only asks for the phone when the e-mail is already confirmed, whichever comes first', async () => {
      const client = newClient(server.app);
      const account = registration();
      await client.json('POST', '/api/auth/register', account);
      const phone = await client.get(
        `/api/auth/confirm-phone-number/${await latestCode(server.app, account.phone_number)}`,
      );
      expect(phone.json<Schemas['Message']>().message).toBe(
        'Número de telefone confirmado. Confirme agora o seu e-mail.',
      );
      expect((await client.login(account.email, account.password)).json()).toEqual({
        code: 'account_not_verified',
        detail: 'Confirme a sua conta antes de iniciar sessão.',
        pending: ['email'],
      });
    });

    it('stores the e-mail in lower case and the phone number without spaces, and logs in case-insensitively', async () => {
      const client = newClient(server.app);
      const base = registration();
      const account = await verifiedAccount(client, server.app, {
        email: base.email.toUpperCase(),
        phone_number: `  ${base.phone_number.slice(0, 4)} ${base.phone_number.slice(4, 7)} ${base.phone_number.slice(7)} `,
      });
      const user = await userRow(server.app.db, base.email);
      expect(user?.phone_number).toBe(base.phone_number);
      expect((await client.login(account.email.toLowerCase(), account.password)).statusCode).toBe(200);
    });

    it('refuses what the client also refuses, and weak passwords, explaining why in the caller’s language', async () => {
      const client = newClient(server.app);
      const attempt = async (overrides: Parameters<typeof registration>[0]) => {
        const response = await client.call({
          method: 'POST',
          url: '/api/auth/register',
          headers: { locale: 'en' },
          payload: registration(overrides),
        });
        return { status: response.statusCode, ...response.json<ErrorBody>() };
      };
      expect(await attempt({ confirm_password: 'something else entirely' })).toEqual({
        status: 400,
        code: 'passwords_do_not_match',
        detail: 'Passwords do not match.',
      });
      expect(await attempt({ password: 'short1!', confirm_password: 'short1!' })).toMatchObject({
        status: 400,
        code: 'password_too_short',
        detail: 'The password must be at least 8 characters long.',
      });
      expect(await attempt({ password: 'Password1', confirm_password: 'Password1' })).toMatchObject({
        status: 400,
        code: 'password_too_common',
      });
      expect(await attempt({ password: 'aaaaaaaaaaaa', confirm_password: 'aaaaaaaaaaaa' })).toMatchObject({
        code: 'password_too_common',
      });
      for (const phone of [
        '912345678',
        '+351 91',
        '+35191234567890123456',
        '+351-912-345-678',
        '+abc12345678',
      ]) {
        expect(await attempt({ phone_number: phone })).toMatchObject({
          status: 400,
          code: 'invalid_phone_number',
        });
      }
      expect(await attempt({ first_name: '   ' })).toMatchObject({ status: 400, code: 'invalid_name' });
      const portuguese = await client.json(
        'POST',
        '/api/auth/register',
        registration({ confirm_password: 'x' }),
      );
      expect(portuguese.json<ErrorBody>().detail).toBe('As palavras-passe não coincidem.');
    });

    it('refuses an e-mail address or phone number that another account uses', async () => {
      const client = newClient(server.app);
      const first = registration();
      await client.json('POST', '/api/auth/register', first);
      const sameEmail = await client.json(
        'POST',
        '/api/auth/register',
        registration({ email: first.email.toUpperCase() }),
      );
      expect(sameEmail.statusCode).toBe(409);
      expect(sameEmail.json<ErrorBody>().code).toBe('email_in_use');
      const samePhone = await client.json(
        'POST',
        '/api/auth/register',
        registration({ phone_number: first.phone_number }),
      );
      expect(samePhone.statusCode).toBe(409);
      expect(samePhone.json<ErrorBody>().code).toBe('phone_in_use');
    });

    it('refuses blocked e-mail addresses and phone numbers and creates nothing', async () => {
      const client = newClient(server.app);
      const blocked = registration();
      await server.app.db
        .insertInto('blocked_contacts')
        .values([
          { kind: 'email', value: blocked.email, reason: 'test' },
          { kind: 'phone', value: '+351900000001', reason: 'test' },
        ])
        .execute();
      const byEmail = await client.call({
        method: 'POST',
        url: '/api/auth/register',
        headers: { locale: 'en' },
        payload: blocked,
      });
      expect(byEmail.statusCode).toBe(403);
      expect(byEmail.json()).toEqual({
        code: 'contact_blocked',
        detail:
          'An account cannot be created with this e-mail address or phone number. Please contact us for more information.',
      });
      const byPhone = await client.json(
        'POST',
        '/api/auth/register',
        registration({ phone_number: '+351 900 000 001' }),
      );
      expect(byPhone.json<ErrorBody>().code).toBe('contact_blocked');
      expect(await userRow(server.app.db, blocked.email)).toBeUndefined();
      expect(await outboxTo(server.app, blocked.email)).toEqual([]);
    });

    it('refuses a used code when it is replayed', async () => {
      const client = newClient(server.app);
      const account = registration();
      await client.json('POST', '/api/auth/register', account);
      const code = await latestCode(server.app, account.email);
      expect((await client.get(`/api/auth/confirm-email/${code}`)).statusCode).toBe(200);
      const replay = await client.get(`/api/auth/confirm-email/${code}`, undefined, { locale: 'en' });
      expect(replay.statusCode).toBe(400);
      expect(replay.json()).toEqual({
        code: 'invalid_verification_code',
        detail: 'This code is invalid or has already been used.',
      });
    });

    it('refuses an expired code, and a new code replaces the old one', async () => {
      const client = newClient(server.app);
      const account = registration();
      await client.json('POST', '/api/auth/register', account);
      const first = await latestCode(server.app, account.phone_number);
      server.clock.advance({ minutes: 16 });
      try {
        const expired = await client.get(`/api/auth/confirm-phone-number/${first}`);
        expect(expired.statusCode).toBe(400);
        expect(expired.json<ErrorBody>().code).toBe('verification_code_expired');

        const resent = await client.json('POST', '/api/auth/resend-phone-verification', {
          email: account.email,
        });
        expect(resent.statusCode).toBe(200);
        const second = await latestCode(server.app, account.phone_number);
        expect(second).not.toBe(first);
        expect((await client.get(`/api/auth/confirm-phone-number/${second}`)).statusCode).toBe(200);
        expect((await client.get(`/api/auth/confirm-phone-number/${first}`)).statusCode).toBe(400);
      } finally {
        server.clock.advance({ minutes: -16 });
      }
    });

    it('keeps only the newest code of a channel alive when a code is sent again', async () => {
      const client = newClient(server.app);
      const account = registration();
      await client.json('POST', '/api/auth/register', account);
      const first = await latestCode(server.app, account.email);
      expect(
        (await client.json('POST', '/api/auth/resend-email-verification', { email: account.email }))
          .statusCode,
      ).toBe(200);
      const second = await latestCode(server.app, account.email);
      expect((await client.get(`/api/auth/confirm-email/${first}`)).statusCode).toBe(400);
      expect((await client.get(`/api/auth/confirm-email/${second}`)).statusCode).toBe(200);
    });

    it('answers a resend for an unknown or verified address like any other, and sends nothing', async () => {
      const client = newClient(server.app);
      const account = await verifiedAccount(client, server.app);
      const before = (await outboxTo(server.app, account.email)).length;
      const known = await client.json('POST', '/api/auth/resend-email-verification', {
        email: account.email,
      });
      const unknown = await client.json('POST', '/api/auth/resend-email-verification', {
        email: 'nobody@example.com',
      });
      expect(known.statusCode).toBe(200);
      expect(unknown.json()).toEqual(known.json());
      expect(await outboxTo(server.app, account.email)).toHaveLength(before);
      expect(await outboxTo(server.app, 'nobody@example.com')).toEqual([]);
    });
  });

  describe('login and sessions', () => {
    it('answers an unknown e-mail and a wrong password with the same status and body', async () => {
      const client = newClient(server.app);
      const account = await verifiedAccount(client, server.app);
      const wrongPassword = await client.login(account.email, 'not the password at all');
      const unknownEmail = await client.login('nobody-here@example.com', 'not the password at all');
      expect(wrongPassword.statusCode).toBe(401);
      expect(unknownEmail.statusCode).toBe(401);
      expect(unknownEmail.json()).toEqual(wrongPassword.json());
      expect(wrongPassword.json<ErrorBody>().code).toBe('invalid_credentials');
    });

    it('refuses tokens that are forged, tampered with, unsigned or expired', async () => {
      const client = newClient(server.app);
      const account = await verifiedAccount(client, server.app);
      const [header, payload] = account.token.split('.') as [string, string];
      const claims = decodeJwt<{ ver: number }>(account.token);
      const forged = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode('some-other-secret-of-at-least-32-chars'));
      const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, ver: claims.ver + 1 })).toString('base64url')}.${account.token.split('.')[2]}`;
      const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
      for (const token of [forged, tampered, unsigned, 'garbage', `${account.token}x`]) {
        const response = await client.get('/api/auth/me', token);
        expect(response.statusCode).toBe(401);
        expect(response.json<ErrorBody>().code).toBe('unauthorized');
      }
      expect((await client.get('/api/auth/me')).statusCode).toBe(401);

      server.clock.advance({ hours: 25 });
      try {
        expect((await client.get('/api/auth/token/validate', account.token)).statusCode).toBe(401);
      } finally {
        server.clock.advance({ hours: -25 });
      }
      expect((await client.get('/api/auth/token/validate', account.token)).statusCode).toBe(200);
    });
  });

  describe('password reset', () => {
    it('answers forgot-password identically for existing and unknown e-mails, sending a link only to a real account', async () => {
      const client = newClient(server.app);
      const account = await verifiedAccount(client, server.app, { locale: 'fr' });
      const existing = await client.call({
        method: 'POST',
        url: `/api/auth/forgot-password?email=${encodeURIComponent(account.email)}`,
        headers: { locale: 'en' },
      });
      const unknown = await client.call({
        method: 'POST',
        url: '/api/auth/forgot-password?email=nobody-at-all@example.com',
        headers: { locale: 'en' },
      });
      expect(existing.statusCode).toBe(200);
      expect(unknown.statusCode).toBe(200);
      expect(unknown.body).toBe(existing.body);
      expect(existing.json<Schemas['Message']>().message).toBe(
        'If an account exists with this email, a reset link will be sent.',
      );
      const [message] = await outboxTo(server.app, account.email);
      expect(message?.subject).toBe('Réinitialisez votre mot de passe – Private Gym');
      expect(message?.text).toMatch(/https:\/\/gym\.example\/fr\?reset_token=[A-Za-z0-9_-]{43}/);
      expect(await outboxTo(server.app, 'nobody-at-all@example.com')).toEqual([]);
    });

    it('resets the password once through the link, ending every session', async () => {
      const client = newClient(server.app);
      const account = await verifiedAccount(client, server.app);
      const otherDevice = (await client.login(account.email, account.password)).json<
        Schemas['LoginResponse']
      >().access_token;
      await client.call({
        method: 'POST',
        url: `/api/auth/forgot-password?email=${encodeURIComponent(account.email)}`,
      });
      const token = await latestResetToken(server.app, account.email);
      const stored = await server.app.db.selectFrom('password_reset_tokens').select('token_hash').execute();
      expect(stored.map((row) => row.token_hash)).not.toContain(token);

      const weak = await client.json('POST', `/api/auth/reset-password/${token}`, {
        new_password: 'abc123!',
      });
      expect(weak.json<ErrorBody>().code).toBe('password_too_short');
      const reset = await client.json('POST', `/api/auth/reset-password/${token}`, {
        new_password: 'a brand new passphrase',
      });
      expect(reset.statusCode).toBe(200);

      for (const old of [account.token, otherDevice]) {
        expect((await client.get('/api/auth/token/validate', old)).statusCode).toBe(401);
      }
      expect((await client.login(account.email, account.password)).statusCode).toBe(401);
      expect((await client.login(account.email, 'a brand new passphrase')).statusCode).toBe(200);

      const again = await client.json('POST', `/api/auth/reset-password/${token}`, {
        new_password: 'yet another passphrase',
      });
      expect(again.statusCode).toBe(400);
      expect(again.json<ErrorBody>().code).toBe('invalid_reset_token');
    });

    it('refuses a reset link after an hour', async () => {
      const client = newClient(server.app);
      const account = await verifiedAccount(client, server.app);
      await client.call({
        method: 'POST',
        url: `/api/auth/forgot-password?email=${encodeURIComponent(account.email)}`,
      });
      const token = await latestResetToken(server.app, account.email);
      server.clock.advance({ minutes: 61 });
      try {
        const late = await client.json('POST', `/api/auth/reset-password/${token}`, {
          new_password: 'a brand new passphrase',
        });
        expect(late.statusCode).toBe(400);
        expect(late.json<ErrorBody>().code).toBe('invalid_reset_token');
      } finally {
        server.clock.advance({ minutes: -61 });
      }
      expect((await client.login(account.email, account.password)).statusCode).toBe(200);
    });
  });

  describe('the profile', () => {
    const profileOf = (account: { email: string; phone_number: string }) => ({
      email: account.email,
      phone_number: account.phone_number,
      first_name: 'Ana',
      last_name: 'Silva',
      agree_newsletter: true,
    });

    it('updates names, newsletter and language, keeping the session', async () => {
      const client = newClient(server.app);
      const account = await verifiedAccount(client, server.app);
      const response = await client.json(
        'PUT',
        '/api/auth/me',
        {
          ...profileOf(account),
          first_name: '  Maria  João ',
          last_name: 'Sousa',
          agree_newsletter: false,
          locale: 'de',
          password: null,
        },
        account.token,
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        first_name: 'Maria João',
        last_name: 'Sousa',
        agree_newsletter: false,
        locale: 'de',
      });
      expect((await client.get('/api/auth/token/validate', account.token)).statusCode).toBe(200);
    });

    it('asks for a changed phone number to be verified again, keeping the session', async () => {
      const client = newClient(server.app);
      const account = await verifiedAccount(client, server.app);
      const newPhone = registration().phone_number;
      const response = await client.json(
        'PUT',
        '/api/auth/me',
        { ...profileOf(account), phone_number: newPhone },
        account.token,
      );
      expect(response.json()).toMatchObject({
        phone_number: newPhone,
        phone_verified: false,
        email_verified: true,
      });
      expect((await client.get('/api/auth/token/validate', account.token)).statusCode).toBe(200);
      const code = await latestCode(server.app, newPhone);
      expect((await client.get(`/api/auth/confirm-phone-number/${code}`)).statusCode).toBe(200);
    });

    it('asks for a changed e-mail to be verified again, ends the sessions and tells the old address', async () => {
      const client = newClient(server.app);
      const account = await verifiedAccount(client, server.app, { locale: 'en' });
      const newEmail = registration().email;
      const response = await client.json(
        'PUT',
        '/api/auth/me',
        { ...profileOf(account), email: newEmail.toUpperCase() },
        account.token,
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ email: newEmail, email_verified: false, phone_verified: true });
      expect((await client.get('/api/auth/token/validate', account.token)).statusCode).toBe(401);
      expect((await client.login(newEmail, account.password)).json()).toMatchObject({
        code: 'account_not_verified',
        pending: ['email'],
      });
      const [notice] = await outboxTo(server.app, account.email);
      expect(notice?.subject).toBe('Your account’s e-mail address was changed – Private Gym');
      expect(notice?.text).toContain(newEmail);
      expect(
        (await client.get(`/api/auth/confirm-email/${await latestCode(server.app, newEmail)}`)).statusCode,
      ).toBe(200);
      expect((await client.login(newEmail, account.password)).statusCode).toBe(200);
    });

    it('changes the password, ending the sessions issued before', async () => {
      const client = newClient(server.app);
      const account = await verifiedAccount(client, server.app);
      const weak = await client.json(
        'PUT',
        '/api/auth/me',
        { ...profileOf(account), password: '12345678' },
        account.token,
      );
      expect(weak.json<ErrorBody>().code).toBe('password_too_common');
      const response = await client.json(
        'PUT',
        '/api/auth/me',
        { ...profileOf(account), password: 'my new long passphrase' },
        account.token,
      );
      expect(response.statusCode).toBe(200);
      expect((await client.get('/api/auth/me', account.token)).statusCode).toBe(401);
      expect((await client.login(account.email, 'my new long passphrase')).statusCode).toBe(200);
    });

    it('refuses an e-mail address or phone number another account uses', async () => {
      const client = newClient(server.app);
      const account = await verifiedAccount(client, server.app);
      const other = await verifiedAccount(client, server.app);
      const email = await client.json(
        'PUT',
        '/api/auth/me',
        { ...profileOf(account), email: other.email },
        account.token,
      );
      expect(email.statusCode).toBe(409);
      expect(email.json<ErrorBody>().code).toBe('email_in_use');
      const phone = await client.json(
        'PUT',
        '/api/auth/me',
        { ...profileOf(account), phone_number: other.phone_number },
        account.token,
      );
      expect(phone.json<ErrorBody>().code).toBe('phone_in_use');
      expect((await client.get('/api/auth/me', account.token)).json<Schemas['User']>().email).toBe(
        account.email,
      );
    });
  });

  describe('account deletion', () => {
    it('erases the personal data, keeps the bookings anonymised, ends the sessions and frees the e-mail', async () => {
      const client = newClient(server.app);
      const account = await verifiedAccount(client, server.app);
      const user = await userRow(server.app.db, account.email);
      const response = await client.json('DELETE', '/api/auth/delete-account', undefined, account.token);
      expect(response.statusCode).toBe(200);

      const row = await server.app.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', user!.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        email: null,
        phone_number: null,
        first_name: '',
        last_name: '',
        password_hash: null,
        agree_newsletter: false,
      });
      expect(row.deleted_at).not.toBeNull();
      const leftovers = await sql<{ count: number }>`
        select (select count(*) from verification_codes where user_id = ${user!.id})
             + (select count(*) from password_reset_tokens where user_id = ${user!.id})
             + (select count(*) from outbox where recipient in (${account.email}, ${account.phone_number})) as count`.execute(
        server.app.db,
      );
      expect(Number(leftovers.rows[0]?.count)).toBe(0);

      expect((await client.get('/api/auth/token/validate', account.token)).statusCode).toBe(401);
      expect((await client.login(account.email, account.password)).statusCode).toBe(401);
      const again = await client.json(
        'POST',
        '/api/auth/register',
        registration({ email: account.email, phone_number: account.phone_number }),
      );
      expect(again.statusCode).toBe(201);
    });
  });
});
