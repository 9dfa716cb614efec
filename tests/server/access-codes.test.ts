import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogMailer } from '../../server/adapters/mail/log.ts';
import { createLogSmsProvider } from '../../server/adapters/sms/log.ts';
import { buildApp } from '../../server/app.ts';
import { accessCodeJobId } from '../../server/booking/access-codes.ts';
import { dateFromInstant, fixedClock, systemClock } from '../../server/kernel/clock.ts';
import type { Config } from '../../server/config.ts';
import { openDatabase } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { JOB_QUEUES, openJobQueue } from '../../server/jobs/queue.ts';
import { bookAndPay, bookingService, bookingsOf, lisbonSlot, verifiedUser } from './bookings-fixtures.ts';
import { accountTestConfig, bookAndPayOverHttp, newClient, verifiedAccount } from './support/accounts.ts';
import {
  DATABASE_TARGETS,
  emptyAllTables,
  freshDatabaseConfig,
  type FreshDatabase,
} from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';
import { objectContaining } from './support/matchers.ts';
import { expectEmailPage } from './support/email-page.ts';

// The door-code message runs from the durable queue (pg-boss): scheduled when a booking is confirmed, written
// to the outbox 30 minutes before the start. The app runs on a test clock, so the queue runs jobs only when a
// test calls `app.jobs.runDue()` after moving the clock.

const START = '2026-03-20T10:00:00Z';

describe.each(DATABASE_TARGETS)('scheduled work on the job queue (%s)', (target) => {
  const clock = fixedClock(START);
  let database: FreshDatabase;
  let dataDir: string | null = null;
  let config: Config;
  let app: FastifyInstance;
  let branchId: number;

  beforeAll(async () => {
    // PGlite in a directory, so a second app can open the same database after a restart.
    if (target === 'pglite') {
      dataDir = await mkdtemp(path.join(tmpdir(), 'gym-jobs-'));
      database = { config: { kind: 'pglite', dataDir }, cleanup: async () => {} };
    } else {
      database = await freshDatabaseConfig(target);
    }
    config = accountTestConfig(database.config, { SLOT_HORIZON_DAYS: '3' });
    app = await buildApp(config, { clock });
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    clock.set(START);
    await emptyAllTables(app.db);
    await app.jobs.boss.deleteAllJobs();
    branchId = await createBranch(app.db, { name: 'Lisboa – Avenidas Novas' });
  });

  const deps = () => ({ accessCodes: app.jobs.accessCodes, lockSync: app.jobs.lockSync });

  /**
   * Runs what is due and answers how many message, hold and horizon jobs ran: the doors' own jobs (programming,
   * the T-45 check, the sweep) run first and are not counted here (tests/server/doors-*.test.ts covers them).
   */
  async function runDue(): Promise<number> {
    await app.jobs.runDue([JOB_QUEUES.lockSync, JOB_QUEUES.lockCheck, JOB_QUEUES.doorSweep]);
    return app.jobs.runDue([JOB_QUEUES.accessCode, JOB_QUEUES.holdExpiry, JOB_QUEUES.slotHorizon]);
  }

  async function accessMessages(db = app.db) {
    return db
      .selectFrom('outbox')
      .selectAll()
      .where('kind', '=', 'access_code')
      .orderBy('channel')
      .orderBy('id')
      .execute();
  }

  async function codeOf(bookingId: number, db = app.db): Promise<string> {
    const row = await db
      .selectFrom('bookings')
      .innerJoin('lock_codes', 'lock_codes.id', 'bookings.lock_code_id')
      .select('lock_codes.code')
      .where('bookings.id', '=', bookingId)
      .executeTakeFirstOrThrow();
    return row.code;
  }

  async function contactOf(userId: string) {
    return app.db
      .selectFrom('users')
      .select(['email', 'phone_number'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
  }

  // Issue 30, README: a developer reaches the T-30 moment without waiting for it.
  it('sends a booking’s door-code message now on the development route, once, and the T-30 job then sends nothing', async () => {
    const user = await verifiedUser(app.db, { email: 'rita@example.com', locale: 'pt' });
    const slot = await lisbonSlot(app.db, branchId, '2026-03-30T10:00');
    await bookAndPay(app.db, clock, user, [slot], 15, deps());
    const [booking] = await bookingsOf(app.db, user);
    const send = (id: number) =>
      app.inject({
        method: 'POST',
        url: `/api/dev/bookings/${id}/send-door-code`,
        remoteAddress: '127.0.0.1',
      });

    // While the doors are still taking the code, the developer is told to try again.
    expect((await send(booking!.id)).json()).toEqual({ outcome: 'doors_not_ready' });
    expect(await accessMessages()).toEqual([]);
    // The doors' jobs program the code, a door read back on the job's next round (nothing else is due days
    // ahead of the booking).
    await runDue();
    clock.set('2026-03-20T10:05:00Z');
    expect(await runDue()).toBe(0);
    const sent = await send(booking!.id);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ outcome: 'sent' });
    const messages = await accessMessages();
    expect(messages.map((message) => message.channel)).toEqual(['email', 'sms']);
    expect(messages[0]!.text_body).toContain(await codeOf(booking!.id));
    expect((await send(booking!.id)).json()).toEqual({ outcome: 'already_sent' });
    expect((await send(booking!.id + 1000)).statusCode).toBe(404);
    // Not for anyone but this machine.
    const remote = await app.inject({
      method: 'POST',
      url: `/api/dev/bookings/${booking!.id}/send-door-code`,
      remoteAddress: '203.0.113.7',
    });
    expect(remote.statusCode).toBe(404);

    clock.set('2026-03-30T08:30:00Z');
    await runDue();
    expect(await accessMessages()).toHaveLength(2);
  });

  it('queues the message at confirmation and writes it at T-30 with the code, in German, times in the branch’s zone', async () => {
    const user = await verifiedUser(app.db, { email: 'jonas@example.com', locale: 'de' });
    // 30 March 2026, 10:00 in Lisbon: summer time (UTC+1) since the 29th, so 09:00 UTC.
    const slot = await lisbonSlot(app.db, branchId, '2026-03-30T10:00');
    await bookAndPay(app.db, clock, user, [slot], 15, deps());
    const [booking] = await bookingsOf(app.db, user);

    const [job] = await app.jobs.boss.findJobs(JOB_QUEUES.accessCode, { id: accessCodeJobId(booking!.id) });
    expect(job?.data).toEqual({ bookingId: booking!.id });
    expect(job?.startAfter.toISOString()).toBe('2026-03-30T08:30:00.000Z');

    clock.set('2026-03-30T08:29:00Z');
    await app.jobs.runDue();
    expect(await accessMessages()).toEqual([]);

    clock.set('2026-03-30T08:30:00Z');
    expect(await runDue()).toBeGreaterThanOrEqual(1);
    const code = await codeOf(booking!.id);
    const contact = await contactOf(user);
    const [email, sms] = await accessMessages();
    expect(email).toMatchObject({
      channel: 'email',
      recipient: 'jonas@example.com',
      locale: 'de',
      subject: 'Ihr Zugangscode: Lisboa – Avenidas Novas',
    });
    expect(email!.text_body).toContain(code);
    expect(email!.text_body).toContain('Montag, 30. März 2026, 10:00–11:00 (Europe/Lisbon)');
    // The code opens the door 15 minutes either side, in Lisbon's time.
    expect(email!.text_body).toContain('von Montag, 30. März 2026, 09:45 bis 11:15 (Europe/Lisbon)');
    expect(email!.html_body).toContain(code);
    expectEmailPage(email!.html_body, 'de');
    expect(sms).toMatchObject({ channel: 'sms', recipient: contact.phone_number, locale: 'de' });
    expect(sms!.text_body).toContain(`Türcode ${code}`);
    expect(sms!.text_body).toContain('(Europe/Lisbon)');

    // The outbox delivers both (here to the log: no provider is configured).
    await app.outboxWorker.runOnce();
    expect((await accessMessages()).map((message) => message.status)).toEqual(['logged', 'logged']);
  });

  it('schedules the message for a booking made and paid over HTTP; the code matches My bookings', async () => {
    const caller = newClient(app);
    const account = await verifiedAccount(caller, app, { locale: 'fr' });
    const slot = await lisbonSlot(app.db, branchId, '2026-03-30T10:00');
    await bookAndPayOverHttp(caller, account.token, slot);

    clock.set('2026-03-30T08:30:00Z');
    expect(await runDue()).toBe(1);
    const [mine] = (await caller.get('/api/bookings/my-bookings', account.token)).json<
      {
        lock_code: string | null;
      }[]
    >();
    expect(mine?.lock_code).toMatch(/^\d{6}$/);
    const [email, sms] = await accessMessages();
    expect(email).toMatchObject({ recipient: account.email.toLowerCase(), locale: 'fr' });
    expect(email!.text_body).toContain(mine!.lock_code!);
    expect(email!.text_body).toContain('lundi 30 mars 2026, 10:00–11:00 (Europe/Lisbon)');
    expect(sms!.text_body).toContain(`code de la porte ${mine!.lock_code!}`);
  });

  it('writes the message in each of the five languages', async () => {
    const expected = {
      pt: ['O seu código de acesso', 'segunda-feira, 30 de março de 2026, 10:00–11:00 (Europe/Lisbon)'],
      en: ['Your access code', 'Monday, 30 March 2026, 10:00 am–11:00 am (Europe/Lisbon)'],
      fr: ['Votre code d’accès', 'lundi 30 mars 2026, 10:00–11:00 (Europe/Lisbon)'],
      de: ['Ihr Zugangscode', 'Montag, 30. März 2026, 10:00–11:00 (Europe/Lisbon)'],
      sk: ['Váš prístupový kód', 'pondelok 30. marca 2026, 10:00–11:00 (Europe/Lisbon)'],
    } as const;
    const emails: Record<string, string> = {};
    for (const locale of Object.keys(expected) as (keyof typeof expected)[]) {
      // The same hour for everyone, so each client books a branch of their own.
      const branch = locale === 'pt' ? branchId : await createBranch(app.db, { name: `Filial ${locale}` });
      const user = await verifiedUser(app.db, { email: `client-${locale}@example.com`, locale });
      emails[locale] = `client-${locale}@example.com`;
      await bookAndPay(
        app.db,
        clock,
        user,
        [await lisbonSlot(app.db, branch, '2026-03-30T10:00')],
        15,
        deps(),
      );
    }
    clock.set('2026-03-30T08:30:00Z');
    expect(await runDue()).toBe(5);
    for (const [locale, [subject, when]] of Object.entries(expected)) {
      const message = await app.db
        .selectFrom('outbox')
        .selectAll()
        .where('kind', '=', 'access_code')
        .where('recipient', '=', emails[locale]!)
        .executeTakeFirstOrThrow();
      expect(message.locale).toBe(locale);
      expect(message.subject).toContain(subject);
      expect(message.text_body.replace(/\u202f/g, ' ')).toContain(when);
    }
  });

  it('sends one message for back-to-back bookings that share a code, naming both times', async () => {
    const user = await verifiedUser(app.db, { locale: 'pt' });
    const slots = [
      await lisbonSlot(app.db, branchId, '2026-03-30T10:00'),
      await lisbonSlot(app.db, branchId, '2026-03-30T11:00'),
    ];
    await bookAndPay(app.db, clock, user, slots, 30, deps());
    clock.set('2026-03-30T08:30:00Z');
    await app.jobs.runDue();
    clock.set('2026-03-30T09:30:00Z'); // the second booking's own T-30
    await app.jobs.runDue();
    const messages = await accessMessages();
    expect(messages.map((message) => message.channel)).toEqual(['email', 'sms']);
    expect(messages[0]!.text_body).toContain('10:00–11:00 (Europe/Lisbon)');
    expect(messages[0]!.text_body).toContain('11:00–12:00 (Europe/Lisbon)');
    expect(messages[0]!.text_body).toContain('09:45 a 12:15 (Europe/Lisbon)');
  });

  it('tells the new code when a cancellation splits a run that was already told its code', async () => {
    const user = await verifiedUser(app.db, { locale: 'en' });
    // Quarter-hour bookings: the later part's own message time has passed when the middle one is cancelled.
    const slots = [
      await lisbonSlot(app.db, branchId, '2026-03-30T10:00', { minutes: 15 }),
      await lisbonSlot(app.db, branchId, '2026-03-30T10:15', { minutes: 15 }),
      await lisbonSlot(app.db, branchId, '2026-03-30T10:30', { minutes: 15 }),
    ];
    await bookAndPay(app.db, clock, user, slots, 45, deps());
    const [first, middle, last] = await bookingsOf(app.db, user);
    const shared = await codeOf(first!.id);
    clock.set('2026-03-30T08:30:00Z');
    await app.jobs.runDue();
    clock.set('2026-03-30T09:01:00Z'); // past every booking's own T-30
    await app.jobs.runDue();
    expect(await accessMessages()).toHaveLength(2);

    clock.set('2026-03-30T09:05:00Z');
    await bookingService(app.db, clock, deps()).cancelBookings({
      userId: user,
      items: [{ bookingId: middle!.id, expectedRefundEur: 0 }],
    });
    const own = await codeOf(last!.id);
    expect(own).not.toBe(shared);
    expect(await runDue()).toBe(1);
    const emails = (await accessMessages()).filter((message) => message.channel === 'email');
    expect(emails).toHaveLength(2);
    expect(emails[0]!.text_body).toContain(shared);
    expect(emails[1]!.text_body).toContain(own);
    expect(emails[1]!.text_body).not.toContain('10:00');
    expect(emails[1]!.text_body).toContain('10:30 am–10:45 am (Europe/Lisbon)');
  });

  it('sends nothing for a booking cancelled before its message was due', async () => {
    const user = await verifiedUser(app.db);
    const slot = await lisbonSlot(app.db, branchId, '2026-03-30T10:00');
    await bookAndPay(app.db, clock, user, [slot], 15, deps());
    const [booking] = await bookingsOf(app.db, user);
    await bookingService(app.db, clock, deps()).cancelBookings({
      userId: user,
      items: [{ bookingId: booking!.id, expectedRefundEur: 15 }],
    });
    clock.set('2026-03-30T08:30:00Z');
    expect(await runDue()).toBe(1);
    expect(await accessMessages()).toEqual([]);
  });

  it('delivers once when the booking is scheduled again and when its job runs twice', async () => {
    const user = await verifiedUser(app.db);
    const slot = await lisbonSlot(app.db, branchId, '2026-03-30T10:00');
    await bookAndPay(app.db, clock, user, [slot], 15, deps());
    const [booking] = await bookingsOf(app.db, user);
    const toSchedule = [{ id: booking!.id, start: booking!.start_time }];
    // A repeated confirmation schedules nothing new.
    await app.db.transaction().execute((trx) => app.jobs.accessCodes.schedule(trx, toSchedule));
    expect(
      await app.jobs.boss.findJobs(JOB_QUEUES.accessCode, { data: { bookingId: booking!.id } }),
    ).toHaveLength(1);
    // A second job for the same booking (a redelivery) runs, and finds the message already written.
    await app.jobs.boss.send(
      JOB_QUEUES.accessCode,
      { bookingId: booking!.id },
      {
        startAfter: new Date('2026-03-30T08:30:00Z'),
      },
    );
    clock.set('2026-03-30T08:31:00Z');
    expect(await runDue()).toBe(2);
    expect(await runDue()).toBe(0);
    expect((await accessMessages()).map((message) => message.channel)).toEqual(['email', 'sms']);
  });

  it('retries a job that failed, and a failure writes nothing', async () => {
    const user = await verifiedUser(app.db);
    const slot = await lisbonSlot(app.db, branchId, '2026-03-30T10:00');
    await bookAndPay(app.db, clock, user, [slot], 15, deps());
    // The outbox refuses the message for a moment (a broken table stands in for a database failure).
    await app.db.schema.alterTable('outbox').renameTo('outbox_away').execute();
    clock.set('2026-03-30T08:30:00Z');
    try {
      expect(await runDue()).toBe(1);
    } finally {
      await app.db.schema.alterTable('outbox_away').renameTo('outbox').execute();
    }
    const [booking] = await bookingsOf(app.db, user);
    expect(booking!.access_code_sent_at).toBeNull();
    const [job] = await app.jobs.boss.findJobs(JOB_QUEUES.accessCode, { id: accessCodeJobId(booking!.id) });
    expect(job?.state).toBe('retry');
    clock.set('2026-03-30T08:40:00Z');
    expect(await runDue()).toBe(1);
    expect((await accessMessages()).map((message) => message.channel)).toEqual(['email', 'sms']);
  });

  it('runs a job scheduled before a restart in the app that starts after it', async () => {
    const user = await verifiedUser(app.db);
    const slot = await lisbonSlot(app.db, branchId, '2026-03-30T10:00');
    await bookAndPay(app.db, clock, user, [slot], 15, deps());
    const [booking] = await bookingsOf(app.db, user);
    await app.close();
    app = await buildApp(config, { clock });
    clock.set('2026-03-30T08:30:00Z');
    expect(await runDue()).toBe(1);
    const messages = await accessMessages();
    expect(messages).toHaveLength(2);
    expect(messages[0]!.text_body).toContain(await codeOf(booking!.id));
  });

  it('releases expired holds from the queue and registers the recurring schedules', async () => {
    const user = await verifiedUser(app.db);
    const slot = await lisbonSlot(app.db, branchId, '2026-03-30T10:00');
    await bookingService(app.db, clock, deps()).createBooking({
      userId: user,
      slotIds: [slot],
      couponId: null,
      expectedTotalEur: 15,
      locale: 'pt',
    });
    await app.jobs.startWorkers();
    const schedules = await app.jobs.boss.getSchedules();
    expect(schedules.map((schedule) => [schedule.name, schedule.cron]).sort()).toEqual([
      [JOB_QUEUES.creditExpiry, '7 * * * *'],
      [JOB_QUEUES.doorSweep, '* * * * *'],
      [JOB_QUEUES.holdExpiry, '* * * * *'],
      [JOB_QUEUES.housekeeping, '*/15 * * * *'],
      [JOB_QUEUES.invoiceSweep, '*/10 * * * *'],
      [JOB_QUEUES.slotHorizon, '15 3 * * *'],
    ]);
    clock.advance({ minutes: 45 });
    await app.jobs.boss.send(JOB_QUEUES.holdExpiry, null, { startAfter: dateFromInstant(clock.now()) });
    expect(await runDue()).toBe(1);
    expect((await bookingsOf(app.db, user)).map((booking) => booking.status)).toEqual(['expired']);
  });

  it('deletes rate-limit counters of windows long gone from the queue’s housekeeping job, keeping current ones', async () => {
    const now = dateFromInstant(clock.now());
    await app.db
      .insertInto('rate_limit_counters')
      .values([
        { bucket: 'login.ip:gone', window_start: new Date(now.getTime() - 40 * 86_400_000), hits: 3 },
        { bucket: 'login.ip:current', window_start: now, hits: 1 },
      ])
      .execute();
    await app.jobs.boss.send(JOB_QUEUES.housekeeping, null, { startAfter: now });
    await app.jobs.runDue([JOB_QUEUES.housekeeping]);
    const left = await app.db.selectFrom('rate_limit_counters').select('bucket').execute();
    expect(left.map((row) => row.bucket)).toContain('login.ip:current');
    expect(left.map((row) => row.bucket)).not.toContain('login.ip:gone');
  });

  it('extends the slot horizon from the queue as the days pass', async () => {
    const lastDay = async () =>
      (
        await app.db
          .selectFrom('slots')
          .select((eb) => eb.fn.max('local_date').as('last'))
          .where('branch_id', '=', branchId)
          .executeTakeFirstOrThrow()
      ).last;
    await app.jobs.boss.send(JOB_QUEUES.slotHorizon, null, { startAfter: dateFromInstant(clock.now()) });
    await app.jobs.runDue();
    const before = await lastDay();
    clock.advance({ hours: 48 });
    await app.jobs.boss.send(JOB_QUEUES.slotHorizon, null, { startAfter: dateFromInstant(clock.now()) });
    expect(await runDue()).toBe(1);
    expect(before).not.toBeNull();
    expect(await lastDay()).not.toBe(before);
  });
});

describe.each(DATABASE_TARGETS)('a failing job (%s)', (target) => {
  it('is logged with its queue and reason (never its data) and retried', async () => {
    const fresh = await freshDatabaseConfig(target);
    const database = await openDatabase(fresh.config);
    const clock = fixedClock(START);
    const logged: { entry: Record<string, unknown>; message: string }[] = [];
    const record = (entry: Record<string, unknown>, message: string) => logged.push({ entry, message });
    const log = { error: record, warn: record, info: record } as unknown as FastifyBaseLogger;
    let calls = 0;
    try {
      await migrateToLatest(database.db);
      const queue = await openJobQueue({
        database,
        config: accountTestConfig(fresh.config),
        clock,
        manual: true,
        log,
        handlers: {
          guestCode: async () => {},
          creditExpiry: async () => {},
          accessCode: async () => {
            calls += 1;
            if (calls === 1) throw new Error('SMTP relay unreachable');
          },
          holdExpiry: async () => {},
          slotHorizon: async () => {},
          housekeeping: async () => {},
          lockSync: async () => {},
          lockCheck: async () => {},
          doorSweep: async () => {},
          invoiceIssue: async () => {},
          invoiceSweep: async () => {},
        },
      });
      try {
        await queue.boss.send(JOB_QUEUES.accessCode, { bookingId: 7 }, { startAfter: new Date(START) });
        expect(await queue.runDue()).toBe(1);
        expect(logged).toEqual([
          {
            entry: objectContaining({
              queue: JOB_QUEUES.accessCode,
              retryCount: 0,
              reason: 'Error: SMTP relay unreachable',
            }),
            message: 'scheduled job failed; the queue will retry it',
          },
        ]);
        expect(JSON.stringify(logged)).not.toContain('bookingId');
        clock.advance({ minutes: 10 });
        expect(await queue.runDue()).toBe(1);
        expect(calls).toBe(2);
      } finally {
        await queue.stop();
      }
    } finally {
      await database.close();
      await fresh.cleanup();
    }
  });
});

describe('door codes in logs', () => {
  it('never prints the text of a door-code message, even where other texts are printed', async () => {
    const entries: unknown[] = [];
    const log = { info: (entry: unknown) => entries.push(entry) } as unknown as FastifyBaseLogger;
    const mailer = createLogMailer(log, { showContent: true });
    const sms = createLogSmsProvider(log, { showContent: true });
    const text = 'Der Türcode lautet: 481516';
    await mailer.send({
      id: 1,
      kind: 'access_code',
      to: 'a@example.com',
      subject: 'Code',
      text,
      html: null,
      attachments: [],
    });
    await sms.send({ id: 2, kind: 'access_code', to: '+351912345678', text });
    await mailer.send({
      id: 3,
      kind: 'verify_email',
      to: 'a@example.com',
      subject: 'Code',
      text,
      html: null,
      attachments: [],
    });
    expect(JSON.stringify(entries.slice(0, 2))).not.toContain('481516');
    expect(JSON.stringify(entries[2])).toContain('481516');
  });
});

describe.each(DATABASE_TARGETS)('the workers (%s)', (target) => {
  // Every door code waits on this queue: a backlog (a morning of bookings, a restart after an outage) must drain
  // in seconds, not at one job per poll, and one failing job must not hold back or fail its neighbours.
  it('drain a backlog of door syncs promptly, a failing one retried without failing the others', async () => {
    const fresh = await freshDatabaseConfig(target);
    const database = await openDatabase(fresh.config);
    const quiet = () => {};
    const log = { error: quiet, warn: quiet, info: quiet } as unknown as FastifyBaseLogger;
    const synced: number[] = [];
    let failures = 0;
    try {
      await migrateToLatest(database.db);
      const queue = await openJobQueue({
        database,
        config: accountTestConfig(fresh.config),
        clock: systemClock,
        manual: false,
        log,
        handlers: {
          accessCode: async () => {},
          guestCode: async () => {},
          creditExpiry: async () => {},
          holdExpiry: async () => {},
          slotHorizon: async () => {},
          housekeeping: async () => {},
          lockSync: async ({ lockCodeId }) => {
            if (lockCodeId === 3 && failures === 0) {
              failures += 1;
              throw new Error('door still programming');
            }
            synced.push(lockCodeId);
          },
          lockCheck: async () => {},
          doorSweep: async () => {},
          invoiceIssue: async () => {},
          invoiceSweep: async () => {},
        },
      });
      try {
        const codes = Array.from({ length: 40 }, (_, index) => index + 1);
        await database.db.transaction().execute((trx) => queue.lockSync.schedule(trx, codes));
        await queue.startWorkers();
        // One job per five-second poll took over three minutes for these (6 of them in 30 s); the retry waits its own delay.
        await expect
          .poll(() => synced.filter((id) => id !== 3).length, { timeout: 30_000, interval: 200 })
          .toBe(39);
        expect(synced).not.toContain(3);
        const [failed] = await queue.boss.findJobs(JOB_QUEUES.lockSync, { data: { lockCodeId: 3 } });
        expect(failed?.state).toBe('retry');
        // Its retry comes after the queue's delay, and succeeds.
        await expect.poll(() => synced.includes(3), { timeout: 40_000, interval: 500 }).toBe(true);
        expect(failures).toBe(1);
        expect(new Set(synced).size).toBe(40);
      } finally {
        await queue.stop();
      }
    } finally {
      await database.close();
      await fresh.cleanup();
    }
  }, 90_000);
});
