import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { beforeEach, expect, it } from 'vitest';
import type { Mailer } from '../../server/adapters/mail/mailer.ts';
import type { SmsProvider } from '../../server/adapters/sms/provider.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { loadConfig } from '../../server/config.ts';
import type { Db } from '../../server/db/database.ts';
import { createDeliveryAdapters } from '../../server/notifications/delivery.ts';
import { createOutboxWorker } from '../../server/notifications/worker.ts';
import { describeOnPglite, emptyAllTables } from './support/databases.ts';
import { startSmtpServer, type TestSmtpServer } from './support/mail.ts';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts';

// Issue 26, item 7: with an SMTP server that hangs, each e-mail waited 30 s, one at a time per process. Now every
// SMTP step has a deadline, and the outbox delivers a few messages of each channel side by side, so a hung server
// fails its e-mails within the bound, all at once, while the SMS and the e-mails it can take go out meanwhile.
// Real sockets throughout: nodemailer talks to `smtp-server` through a proxy that can swallow connections.

const silent = Fastify({ logger: { level: 'silent' } }).log;

/** The product's configuration with short SMTP deadlines: connecting 3 s, the greeting `greetingMs`. */
function hungSmtpConfig(proxy: TcpProxy, greetingMs: number) {
  return loadConfig({
    NODE_ENV: 'test',
    SMTP_URL: `smtp://127.0.0.1:${proxy.port}`,
    SMTP_CONNECTION_TIMEOUT_MS: '3000',
    SMTP_GREETING_TIMEOUT_MS: String(greetingMs),
    SMTP_SOCKET_TIMEOUT_MS: '2000',
    OUTBOX_CONCURRENCY: '4',
  });
}

/** The configured mailer, noting when each send ended. */
function timedMailer(mailer: Mailer, ends: number[]): Mailer {
  return {
    ...mailer,
    send: async (email) => {
      try {
        return await mailer.send(email);
      } finally {
        ends.push(performance.now());
      }
    },
  };
}

function recordingSms(sent: { to: string; at: number }[]): SmsProvider {
  return {
    name: 'twilio',
    send: async (sms) => {
      sent.push({ to: sms.to, at: performance.now() });
      return 'sent';
    },
  };
}

async function queue(db: Db, channel: 'email' | 'sms', recipients: string[], now: Date) {
  await db
    .insertInto('outbox')
    .values(
      recipients.map((recipient) => ({
        channel,
        recipient,
        locale: 'pt' as const,
        kind: 'test',
        subject: channel === 'email' ? `Para ${recipient}` : null,
        text_body: `Olá ${recipient}`,
        created_at: now,
        next_attempt_at: now,
      })),
    )
    .execute();
}

const rowsOf = (db: Db, channel: 'email' | 'sms') =>
  db.selectFrom('outbox').selectAll().where('channel', '=', channel).orderBy('id').execute();

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeOnPglite('an SMTP server that hangs', (getDb) => {
  let smtp: TestSmtpServer;
  let proxy: TcpProxy;

  beforeEach(async () => {
    await emptyAllTables(getDb());
    smtp = await startSmtpServer();
    proxy = await startTcpProxy({ host: '127.0.0.1', port: smtp.port });
    return async () => {
      await proxy.close();
      await smtp.close();
    };
  });

  it('fails each e-mail within the greeting deadline, side by side, the SMS going out first; all are sent once it answers', async () => {
    const db = getDb();
    const clock = fixedClock('2026-03-20T10:00:00Z');
    const now = new Date(clock.now().epochMilliseconds);
    const config = hungSmtpConfig(proxy, 1000);
    const mailEnds: number[] = [];
    const smsSent: { to: string; at: number }[] = [];
    const worker = createOutboxWorker({
      db,
      clock,
      mailer: timedMailer(createDeliveryAdapters(config, silent).mailer, mailEnds),
      sms: recordingSms(smsSent),
      log: silent,
      options: { concurrency: config.outbox.concurrency },
    });
    const emails = ['ana@example.com', 'rui@example.com', 'eva@example.com'];
    await queue(db, 'email', emails, now);
    await queue(db, 'sms', ['+351910000001', '+351910000002'], now);

    // The server accepts connections and never says a word.
    proxy.blackHole();
    const started = performance.now();
    expect(await worker.runOnce()).toEqual({ delivered: 2, retrying: 3, failed: 0 });
    const took = performance.now() - started;

    // Each e-mail gave up at its 1 s greeting deadline; the three waited side by side (one after another would be
    // 3 s), and both SMS were out before the first e-mail gave up.
    expect(mailEnds).toHaveLength(3);
    for (const end of mailEnds) expect(end - started).toBeGreaterThanOrEqual(950);
    expect(took).toBeLessThan(2000);
    expect(smsSent.map((sms) => sms.to).sort()).toEqual(['+351910000001', '+351910000002']);
    for (const sms of smsSent) expect(sms.at).toBeLessThan(Math.min(...mailEnds));
    const waiting = await rowsOf(db, 'email');
    for (const row of waiting) {
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row.last_error).toMatch(/greeting/i);
    }
    expect((await rowsOf(db, 'sms')).map((row) => row.status)).toEqual(['sent', 'sent']);

    // The server answers again: at their retry, each e-mail is delivered, once.
    proxy.restore();
    const retryAt = Math.max(...waiting.map((row) => row.next_attempt_at.getTime()));
    clock.set(new Date(retryAt).toISOString());
    expect(await worker.runOnce()).toEqual({ delivered: 3, retrying: 0, failed: 0 });
    expect(smtp.received.flatMap((mail) => mail.to).sort()).toEqual([...emails].sort());
    for (const row of await rowsOf(db, 'email')) {
      expect(row).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    }
    expect(smsSent).toHaveLength(2);
  });

  it('keeps delivering new SMS and e-mails while two e-mails hang in the running worker', async () => {
    const db = getDb();
    const clock = fixedClock('2026-03-20T10:00:00Z');
    const now = new Date(clock.now().epochMilliseconds);
    const config = hungSmtpConfig(proxy, 2000);
    const smsSent: { to: string; at: number }[] = [];
    const worker = createOutboxWorker({
      db,
      clock,
      mailer: createDeliveryAdapters(config, silent).mailer,
      sms: recordingSms(smsSent),
      log: silent,
      options: { concurrency: config.outbox.concurrency, pollMs: 25 },
    });
    proxy.blackHole();
    await queue(db, 'email', ['hung1@example.com', 'hung2@example.com'], now);
    const started = performance.now();
    worker.start();
    try {
      // Both e-mails are connected to a server that will not answer.
      await waitFor(async () => proxy.accepted() === 2, 'the two hung connections');
      proxy.restore();

      // Messages written meanwhile go out while the two still wait: the SMS, and an e-mail on a new connection.
      await queue(db, 'sms', ['+351910000003'], now);
      await queue(db, 'email', ['late@example.com'], now);
      await waitFor(async () => smtp.received.length === 1 && smsSent.length === 1, 'the later messages');
      expect(smtp.received[0]?.to).toEqual(['late@example.com']);
      const hung = (await rowsOf(db, 'email')).filter((row) => row.recipient.startsWith('hung'));
      expect(hung.map((row) => [row.status, row.last_error])).toEqual([
        ['pending', null],
        ['pending', null],
      ]);

      // Then the two give up at their deadline and wait for their retry.
      await waitFor(
        async () => (await rowsOf(db, 'email')).filter((row) => row.last_error !== null).length === 2,
        'the hung e-mails to give up',
      );
      expect(performance.now() - started).toBeGreaterThanOrEqual(1950);
    } finally {
      await worker.stop();
    }
    expect(smtp.received).toHaveLength(1);
  });
});
