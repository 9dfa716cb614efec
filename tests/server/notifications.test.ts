import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { PermanentDeliveryError, redactSecrets } from '../../server/adapters/delivery.ts';
import { createLogMailer } from '../../server/adapters/mail/log.ts';
import { createTwilioSmsProvider } from '../../server/adapters/sms/twilio.ts';
import { LOCALES } from '../../server/kernel/i18n.ts';
import { claimDueMessages } from '../../server/notifications/repository.ts';
import {
  emailChangedMessage,
  resetPasswordMessage,
  verifyEmailMessage,
  verifyPhoneSmsMessage,
} from '../../server/notifications/templates/account.ts';
import { backoffSeconds, createOutboxWorker } from '../../server/notifications/worker.ts';
import { DATABASE_TARGETS } from './support/databases.ts';
import {
  bookAndPayOverHttp,
  latestCode,
  newClient,
  outboxTo,
  registration,
  startAccountApp,
  verifiedAccount,
} from './support/accounts.ts';
import { lisbonSlot } from './bookings-fixtures.ts';
import { createBranch } from './support/fixtures.ts';
import { startSmtpServer } from './support/mail.ts';

const silent = Fastify({ logger: { level: 'silent' } }).log;

async function outboxRow(app: Awaited<ReturnType<typeof startAccountApp>>['app'], to: string) {
  return app.db
    .selectFrom('outbox')
    .selectAll()
    .where('recipient', '=', to)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
}

describe.each(DATABASE_TARGETS)('notification delivery on %s', (target) => {
  it('delivers the verification e-mail to a real SMTP server in the account’s language, as text and HTML', async () => {
    const smtp = await startSmtpServer();
    const server = await startAccountApp(target, {
      SMTP_URL: smtp.url,
      MAIL_FROM: '"Private Gym" <hello@gym.example>',
    });
    try {
      const account = registration({ locale: 'de', first_name: 'Jürgen' });
      await newClient(server.app).json('POST', '/api/auth/register', account);
      // Nothing leaves before the worker runs: the message waits in the outbox.
      expect(smtp.received).toHaveLength(0);
      expect((await outboxRow(server.app, account.email)).status).toBe('pending');

      const round = await server.app.outboxWorker.runOnce();
      expect(round).toEqual({ delivered: 2, retrying: 0, failed: 0 });
      expect(smtp.received).toHaveLength(1);
      const [mail] = smtp.received;
      expect(mail?.to).toEqual([account.email]);
      expect(mail?.from).toBe('hello@gym.example');
      expect(mail?.subject).toBe('Bestätigen Sie Ihre E-Mail-Adresse – Private Gym');
      const code = await latestCode(server.app, account.email);
      expect(mail?.text).toContain('Hallo Jürgen,');
      expect(mail?.text).toContain(`\n${code}\n`);
      expect(mail?.text).toContain(`https://gym.example/de?auth_tab=verify&verify_email=`);
      expect(mail?.html).toContain('<html lang="de">');
      expect(mail?.html).toContain(`verify_email_code=${code}`);
      expect(mail?.html).toContain('E-Mail-Adresse bestätigen');

      expect((await outboxRow(server.app, account.email)).status).toBe('sent');
      // No SMS provider is configured: the SMS is printed to the log and marked so.
      expect((await outboxRow(server.app, account.phone_number)).status).toBe('logged');
    } finally {
      await server.close();
      await smtp.close();
    }
    // Most of it is starting an app on a new embedded database, which a loaded machine stretches past 30 s.
  }, 60_000);

  it('delivers the booking confirmation over SMTP with its calendar file intact', async () => {
    const smtp = await startSmtpServer();
    const server = await startAccountApp(target, { SMTP_URL: smtp.url });
    try {
      const branchId = await createBranch(server.app.db);
      const slot = await lisbonSlot(server.app.db, branchId, '2026-03-25T10:00');
      const client = newClient(server.app);
      const account = await verifiedAccount(client, server.app, { locale: 'en' });
      await bookAndPayOverHttp(client, account.token, slot);
      await server.app.outboxWorker.runOnce();

      const confirmation = smtp.received.find((mail) => mail.attachments.length > 0);
      expect(confirmation?.to).toEqual([account.email]);
      const [calendar] = confirmation!.attachments;
      expect(calendar?.filename).toBe('booking.ics');
      expect(calendar?.contentType).toMatch(/^text\/calendar/);
      expect(calendar?.content).toMatch(/^BEGIN:VCALENDAR\n/);
      // 10:00 in Lisbon in March (winter time) is 10:00 UTC.
      expect(calendar?.content).toContain('DTSTART:20260325T100000Z');
      expect(calendar?.content).toContain('END:VCALENDAR');
    } finally {
      await server.close();
      await smtp.close();
    }
  });

  it('keeps a message and retries it with growing delays while the SMTP server is down, then delivers it', async () => {
    const probe = await startSmtpServer();
    const port = probe.port;
    await probe.close();
    const server = await startAccountApp(target, { SMTP_URL: `smtp://127.0.0.1:${port}` });
    let smtp: Awaited<ReturnType<typeof startSmtpServer>> | undefined;
    try {
      const account = registration();
      await newClient(server.app).json('POST', '/api/auth/register', account);

      expect((await server.app.outboxWorker.runOnce()).retrying).toBe(1);
      const first = await outboxRow(server.app, account.email);
      expect(first).toMatchObject({ status: 'pending', attempts: 1 });
      expect(first.last_error).toMatch(/ECONNREFUSED|connect/i);
      const firstDelay = first.next_attempt_at.getTime() - server.clock.now().epochMilliseconds;
      expect(firstDelay).toBeGreaterThanOrEqual(30_000);

      // Not due yet: a second round right away leaves it alone.
      expect(await server.app.outboxWorker.runOnce()).toEqual({ delivered: 0, retrying: 0, failed: 0 });

      server.clock.advance({ milliseconds: firstDelay });
      expect((await server.app.outboxWorker.runOnce()).retrying).toBe(1);
      const second = await outboxRow(server.app, account.email);
      expect(second.attempts).toBe(2);
      const secondDelay = second.next_attempt_at.getTime() - server.clock.now().epochMilliseconds;
      expect(secondDelay).toBeGreaterThan(firstDelay);

      smtp = await startSmtpServer({ port });
      server.clock.advance({ milliseconds: secondDelay });
      expect((await server.app.outboxWorker.runOnce()).delivered).toBe(1);
      expect(smtp.received.map((mail) => mail.subject)).toEqual(['Confirme o seu e-mail – Private Gym']);
      expect(await outboxRow(server.app, account.email)).toMatchObject({
        status: 'sent',
        attempts: 3,
        last_error: null,
      });
    } finally {
      await server.close();
      await smtp?.close();
    }
  });

  it('gives a message up at once when the SMTP server refuses the recipient for good', async () => {
    const smtp = await startSmtpServer({
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
      },
    });
    const server = await startAccountApp(target, { SMTP_URL: smtp.url });
    try {
      const account = registration();
      await newClient(server.app).json('POST', '/api/auth/register', account);
      expect((await server.app.outboxWorker.runOnce()).failed).toBe(1);
      const row = await outboxRow(server.app, account.email);
      expect(row).toMatchObject({ status: 'failed', attempts: 1 });
      expect(row.last_error).toContain('550');
    } finally {
      await server.close();
      await smtp.close();
    }
  });

  it('with no provider configured, keeps every message in the outbox marked as logged, newest first', async () => {
    const server = await startAccountApp(target);
    try {
      const account = registration();
      const client = newClient(server.app);
      await client.json('POST', '/api/auth/register', account);
      server.clock.advance({ seconds: 1 });
      await client.json('POST', '/api/auth/resend-email-verification', { email: account.email });
      // The resend writes its message just after answering (its timing must not tell that the account exists).
      await server.app.afterAnswer.idle();
      expect((await server.app.outboxWorker.runOnce()).delivered).toBe(3);
      const messages = await outboxTo(server.app, account.email.toUpperCase());
      expect(messages).toHaveLength(2);
      expect(messages.map((message) => message.status)).toEqual(['logged', 'logged']);
      expect(messages[0]!.id).toBeGreaterThan(messages[1]!.id);
    } finally {
      server.clock.advance({ seconds: -1 });
      await server.close();
    }
  });

  it('delivers a message whose worker died mid-delivery once its lease has run out', async () => {
    const server = await startAccountApp(target);
    try {
      const account = registration();
      await newClient(server.app).json('POST', '/api/auth/register', account);
      const now = new Date(server.clock.now().epochMilliseconds);
      // A worker claims everything, then "crashes" without reporting back.
      const claimed = await claimDueMessages(server.app.db, {
        now,
        leaseUntil: new Date(now.getTime() + 120_000),
        limit: 10,
      });
      expect(claimed).toHaveLength(2);
      expect((await server.app.outboxWorker.runOnce()).delivered).toBe(0);
      server.clock.advance({ seconds: 121 });
      expect((await server.app.outboxWorker.runOnce()).delivered).toBe(2);
    } finally {
      server.clock.advance({ seconds: -121 });
      await server.close();
    }
  });

  // PGlite is one connection, so workers there cannot overlap: the race only exists on PostgreSQL.
  if (target === 'postgres')
    it('never delivers a message twice when several workers run at once', async () => {
      const server = await startAccountApp(target);
      try {
        const now = new Date(server.clock.now().epochMilliseconds);
        await server.app.db
          .insertInto('outbox')
          .values(
            Array.from({ length: 60 }, (_, index) => ({
              channel: 'sms' as const,
              recipient: `+35191000${String(index).padStart(4, '0')}`,
              locale: 'pt' as const,
              kind: 'test',
              text_body: `message ${index}`,
              created_at: now,
              next_attempt_at: now,
            })),
          )
          .execute();
        const deliveries: number[] = [];
        const workers = Array.from({ length: 4 }, () =>
          createOutboxWorker({
            db: server.app.db,
            clock: server.clock,
            log: silent,
            mailer: { name: 'log', send: async () => 'logged', close: async () => {} },
            sms: {
              name: 'log',
              send: async (sms) => {
                deliveries.push(sms.id);
                await new Promise((resolve) => setTimeout(resolve, 2));
                return 'sent';
              },
            },
            options: { concurrency: 5 },
          }),
        );
        await Promise.all(workers.map((worker) => worker.runOnce()));
        expect(deliveries).toHaveLength(60);
        expect(new Set(deliveries).size).toBe(60);
      } finally {
        await server.close();
      }
    });
});

describe('the Twilio SMS adapter', () => {
  async function fakeTwilio(status: number, body: unknown) {
    const requests: { url: string; authorization: string; form: URLSearchParams }[] = [];
    const server = createServer((request: IncomingMessage, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        requests.push({
          url: request.url ?? '',
          authorization: request.headers.authorization ?? '',
          form: new URLSearchParams(text),
        });
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      requests,
      provider: createTwilioSmsProvider({
        accountSid: `AC${'0'.repeat(32)}`,
        authToken: 'secret-token',
        from: '+15005550006',
        baseUrl: `http://127.0.0.1:${port}`,
      }),
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it('posts the message to the Messages resource with the account’s credentials', async () => {
    const twilio = await fakeTwilio(201, { sid: 'SM123', status: 'queued' });
    try {
      expect(
        await twilio.provider.send({ id: 1, kind: 'verify-phone', to: '+351912345678', text: 'Olá' }),
      ).toBe('sent');
      const [request] = twilio.requests;
      expect(request?.url).toBe(`/2010-04-01/Accounts/AC${'0'.repeat(32)}/Messages.json`);
      expect(request?.authorization).toBe(
        `Basic ${Buffer.from(`AC${'0'.repeat(32)}:secret-token`).toString('base64')}`,
      );
      expect(Object.fromEntries(request!.form)).toEqual({
        To: '+351912345678',
        Body: 'Olá',
        From: '+15005550006',
      });
    } finally {
      await twilio.close();
    }
  });

  it('treats a refused number as final and a server error as worth retrying', async () => {
    const refused = await fakeTwilio(400, { code: 21211, message: "The 'To' number is not valid." });
    const down = await fakeTwilio(503, {});
    try {
      const sms = { id: 1, kind: 'verify-phone', to: '+351912345678', text: 'x' };
      await expect(refused.provider.send(sms)).rejects.toBeInstanceOf(PermanentDeliveryError);
      const error = await down.provider.send(sms).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(PermanentDeliveryError);
    } finally {
      await refused.close();
      await down.close();
    }
  });
});

describe('message texts', () => {
  it('exist in all five languages, with every placeholder filled and user text escaped in HTML', () => {
    const subjects = new Set<string>();
    for (const locale of LOCALES) {
      const common = { locale, brand: 'Private Gym', firstName: '<b>Ana</b>' };
      const emails = [
        verifyEmailMessage({
          ...common,
          code: '012345',
          link: 'https://gym.example/pt?a=1&b=2',
          minutes: 15,
        }),
        resetPasswordMessage({ ...common, link: 'https://gym.example/pt?reset_token=abc', minutes: 60 }),
        emailChangedMessage({ ...common, newEmail: 'new@example.com' }),
      ];
      for (const email of emails) {
        subjects.add(email.subject);
        for (const text of [email.subject, email.text, email.html]) expect(text).not.toMatch(/\{\w+\}/);
        expect(email.html).not.toContain('<b>Ana</b>');
        expect(email.html).toContain('&lt;b&gt;Ana&lt;/b&gt;');
        expect(email.text).toContain('<b>Ana</b>');
      }
      expect(emails[0]?.html).toContain('https://gym.example/pt?a=1&amp;b=2');
      const sms = verifyPhoneSmsMessage({ locale, brand: 'Private Gym', code: '012345', minutes: 15 });
      expect(sms).toContain('012345');
      expect(sms.length).toBeLessThanOrEqual(160);
    }
    expect(subjects.size).toBe(LOCALES.length * 3);
  });

  it('doubles the retry delay up to a ceiling', () => {
    const noJitter = () => 0;
    expect([1, 2, 3, 4, 10, 20].map((attempts) => backoffSeconds(attempts, 30, 3600, noJitter))).toEqual([
      30, 60, 120, 240, 3600, 3600,
    ]);
    expect(backoffSeconds(1, 30, 3600, () => 0.999)).toBeLessThanOrEqual(36);
  });

  it('never prints a reset token to the log, and codes only in development', async () => {
    expect(redactSecrets('https://gym.example/pt?reset_token=abcDEF_-123 and more')).toBe(
      'https://gym.example/pt?reset_token=[redacted] and more',
    );
    const lines: string[] = [];
    const log = Fastify({
      logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
    }).log;
    const email = { id: 7, kind: 'x', to: 'ana@example.com', subject: 's', html: null, attachments: [] };
    await createLogMailer(log, { showContent: true }).send({
      ...email,
      text: 'code 123456 reset_token=secret',
    });
    await createLogMailer(log, { showContent: false }).send({ ...email, text: 'code 654321' });
    expect(lines[0]).toContain('123456');
    expect(lines[0]).not.toContain('secret');
    expect(lines[1]).not.toContain('654321');
    expect(lines[1]).not.toContain('ana@example.com');
  });
});
