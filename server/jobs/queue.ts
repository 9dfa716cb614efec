import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import {
  PgBoss,
  TestClock as QueueTestClock,
  fromKysely,
  type ConstructorOptions,
  type Db as QueueDatabase,
  type Job,
  type JobResult,
} from 'pg-boss';
import {
  accessCodeDueAt,
  accessCodeJobId,
  type AccessCodeJobData,
  type AccessCodeScheduler,
  guestCodeDueAt,
  guestCodeJobId,
  type GuestCodeJobData,
  type GuestCodeScheduler,
} from '../booking/index.ts';
import { dateFromInstant, instantFromDate, type Clock } from '../kernel/clock.ts';
import { DoorsNotSettledError, type LockSyncScheduler } from '../doors/index.ts';
import { InvoiceNotIssuedYetError, type DocumentScheduler } from '../invoicing/index.ts';
import type { Config } from '../config.ts';
import type { Db, OpenedDatabase } from '../db/database.ts';

// Scheduled work on a durable queue in PostgreSQL (pg-boss, in its own schema `pgboss`): the door-code
// message 30 minutes before each booking, the release of expired holds, the slot horizon. Jobs live in the
// database, so they survive restarts; every process works the queue and pg-boss hands each job to one of them.

export const QUEUE_SCHEMA = 'pgboss';

/**
 * How each process works its queues. The booking queues take jobs in batches and keep fetching while batches come
 * back full, with two workers each, so a backlog (a morning of bookings, a restart after an outage) drains in
 * seconds while a slow door holds up only its own worker; a batch is small enough to end well within a job's
 * expiry even when every call in it waits out the lock provider's timeout. The sweeps run one at a time anyway.
 */
const BOOKING_QUEUE_WORK = {
  batchSize: 3,
  burstWhenBatchFull: true,
  localConcurrency: 2,
  pollingIntervalSeconds: 2,
  perJobResults: true,
} as const;
/**
 * On PGlite every poll takes the one connection the requests use too, so the embedded database polls as seldom as
 * before, with one worker a queue; a backlog still drains at once (full batches fetch again without waiting).
 */
const EMBEDDED_BOOKING_QUEUE_WORK = {
  ...BOOKING_QUEUE_WORK,
  localConcurrency: 1,
  pollingIntervalSeconds: 5,
} as const;
const SWEEP_WORK = { batchSize: 1, pollingIntervalSeconds: 5, perJobResults: true } as const;
type WorkOptions = typeof BOOKING_QUEUE_WORK | typeof EMBEDDED_BOOKING_QUEUE_WORK | typeof SWEEP_WORK;

type QueueOptions = {
  policy: 'exclusive' | 'stately';
  retryLimit: number;
  retryDelay: number;
  retryBackoff?: boolean;
  retryDelayMax?: number;
  expireInSeconds: number;
};
// Sweeps: one queued and one running at most, however many processes the cron reaches.
const SWEEP_QUEUE = { policy: 'stately', retryLimit: 3, retryDelay: 30, expireInSeconds: 600 } as const;
// A door-code message (the member's, a guest's): soon and often, never twice at once.
const DOOR_CODE_MESSAGE_QUEUE = {
  policy: 'exclusive',
  retryLimit: 10,
  retryDelay: 20,
  retryBackoff: true,
  retryDelayMax: 300,
  expireInSeconds: 300,
} as const;

/** What each job's handler is given: its data, typed here once. */
export type JobHandlers = {
  lockSync: (data: { lockCodeId: number }) => Promise<unknown>;
  lockCheck: (data: { bookingId: number }) => Promise<unknown>;
  accessCode: (data: AccessCodeJobData) => Promise<unknown>;
  guestCode: (data: GuestCodeJobData) => Promise<unknown>;
  doorSweep: () => Promise<unknown>;
  holdExpiry: () => Promise<unknown>;
  slotHorizon: () => Promise<unknown>;
  housekeeping: () => Promise<unknown>;
  creditExpiry: () => Promise<unknown>;
  invoiceIssue: (data: { documentId: number }) => Promise<unknown>;
  invoiceSweep: () => Promise<unknown>;
};

type JobDeclaration = {
  queue: string;
  options: QueueOptions;
  /** How a process works it: the booking queues in batches, the sweeps one at a time. */
  work: 'booking' | 'sweep';
  /** Recurring work, as a cron expression in UTC. */
  schedule?: string;
};

/**
 * Every job, declared once: its queue, policy and retries, how it is worked, its schedule; its data is typed in
 * `JobHandlers` and its handler is given by the composition root (server/modules.ts). In this order under a
 * manual clock (runDue): codes reach their doors before the doors are checked, and the check comes before the
 * message.
 */
const JOBS = {
  // A code on its doors: one sync queued and one running per code. Retried with backoff while a door is still
  // programming or the provider is down (5-10 s first, so a sync whose process died is soon taken over); the
  // door sweep queues it again if the retries run out.
  lockSync: {
    queue: 'lock-sync',
    options: {
      policy: 'stately',
      retryLimit: 30,
      retryDelay: 5,
      retryBackoff: true,
      retryDelayMax: 300,
      expireInSeconds: 120,
    },
    work: 'booking',
  },
  // The doors' check 15 minutes before the message: a backup code or the operator's alert in time.
  lockCheck: {
    queue: 'lock-check',
    options: { policy: 'exclusive', retryLimit: 5, retryDelay: 20, retryBackoff: true, expireInSeconds: 120 },
    work: 'booking',
  },
  // The message matters for the half hour before the start: retry soon and often, never twice at once.
  accessCode: { queue: 'access-code', options: DOOR_CODE_MESSAGE_QUEUE, work: 'booking' },
  // A guest's own code (issue 31), as the member's message: soon and often, never twice at once.
  guestCode: { queue: 'guest-code', options: DOOR_CODE_MESSAGE_QUEUE, work: 'booking' },
  doorSweep: { queue: 'door-sweep', options: SWEEP_QUEUE, work: 'sweep', schedule: '* * * * *' },
  holdExpiry: { queue: 'hold-expiry', options: SWEEP_QUEUE, work: 'sweep', schedule: '* * * * *' },
  slotHorizon: { queue: 'slot-horizon', options: SWEEP_QUEUE, work: 'sweep', schedule: '15 3 * * *' },
  housekeeping: { queue: 'housekeeping', options: SWEEP_QUEUE, work: 'sweep', schedule: '*/15 * * * *' },
  // Credit lots (issue 31): each announced 14 days before it expires, what is left written off once it has.
  creditExpiry: { queue: 'credit-expiry', options: SWEEP_QUEUE, work: 'sweep', schedule: '7 * * * *' },
  // A ledger row's tax document through the invoicing provider: one queued and one running per document; retried
  // with backoff for about a day while the provider is down (a timeout is looked up before the next try), then
  // the sweep below queues it again. A credit note waits here for its invoice.
  invoiceIssue: {
    queue: 'invoice-issue',
    options: {
      policy: 'stately',
      retryLimit: 40,
      retryDelay: 10,
      retryBackoff: true,
      retryDelayMax: 3600,
      expireInSeconds: 300,
    },
    work: 'booking',
  },
  invoiceSweep: { queue: 'invoice-sweep', options: SWEEP_QUEUE, work: 'sweep', schedule: '*/10 * * * *' },
} as const satisfies Record<keyof JobHandlers, JobDeclaration>;

type JobName = keyof typeof JOBS;
export const JOB_QUEUES = Object.fromEntries(
  Object.entries(JOBS).map(([name, job]) => [name, job.queue]),
) as { [N in JobName]: (typeof JOBS)[N]['queue'] };
export type JobQueueName = (typeof JOBS)[JobName]['queue'];
const JOB_BY_QUEUE = new Map(
  (Object.entries(JOBS) as [JobName, (typeof JOBS)[JobName]][]).map(([name, job]) => [
    job.queue,
    { name, ...job },
  ]),
);

/** A worker beats for each job it runs at half this interval; a job silent this long is failed and retried. */
const HEARTBEAT_SECONDS = 10;
/**
 * How often a process looks for jobs whose heartbeat stopped (pg-boss's monitor, which also counts the queues;
 * its default is a minute).
 */
const SUPERVISE_SECONDS = 5;

function workOptions(job: JobDeclaration, embedded: boolean): WorkOptions {
  if (job.work === 'sweep') return SWEEP_WORK;
  return embedded ? EMBEDDED_BOOKING_QUEUE_WORK : BOOKING_QUEUE_WORK;
}

export type JobQueue = {
  /** For the confirming transaction (checkout fulfilment and free bookings). */
  accessCodes: AccessCodeScheduler;
  /** For the transactions that give a guest a code: the guest's message at the booking's door-code time. */
  guestCodes: GuestCodeScheduler;
  /** For the transactions that issue, move or revoke codes: programs them on their doors. */
  lockSync: LockSyncScheduler;
  /** For the transactions that write ledger rows: issues each row's tax document. */
  documents: DocumentScheduler;
  /** Registers this process's workers and the recurring schedules (idempotent across processes). */
  startWorkers(): Promise<void>;
  /** Stops workers and timers, letting a job in progress finish; call before the database closes. */
  stop: () => Promise<void>;
  /**
   * Manual mode only (an injected test clock): moves the queue's clock to the app's and runs every job that is
   * due (of `queues`, by default all), each through the same handler the workers use. Answers how many jobs ran
   * (failures included).
   */
  runDue(queues?: readonly JobQueueName[]): Promise<number>;
  /** The pg-boss instance, for inspection in tests and operations. */
  boss: PgBoss;
};

/**
 * pg-boss on the app's own pool: PGlite is one connection, so a second client cannot be opened, and queries
 * queue behind the transaction in progress instead of running inside it. A multi-statement text answers one
 * result per statement; pg-boss reads their rows together.
 */
type Rows = pg.QueryResult<Record<string, unknown>>;

function sharedPoolAdapter(pool: pg.Pool): QueueDatabase {
  const run = async (text: string, values?: unknown[]) => {
    const result = (await pool.query(text, values)) as Rows | Rows[];
    return Array.isArray(result) ? { rows: result.flatMap((part) => part.rows ?? []) } : result;
  };
  return {
    executeSql: run,
    // One session for the life of the pool (it never drops an idle connection), so once is enough.
    setSessionStatements: async (statements) => {
      for (const statement of statements) await run(statement);
    },
  };
}

function describe(error: unknown): string {
  return (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 500);
}

/**
 * Opens the queue: installs or migrates pg-boss's schema (several processes may do it at once; pg-boss takes a
 * lock) and creates the queues, so a confirmation can enqueue in its own transaction from the first request.
 * Workers start later, with the app's background work. With `manual`, the queue runs on a clock of its own that
 * moves only when `runDue()` brings it to the app's clock: tests decide when jobs run.
 */
export async function openJobQueue(deps: {
  database: OpenedDatabase;
  config: Config;
  clock: Clock;
  manual: boolean;
  log: FastifyBaseLogger;
  handlers: JobHandlers;
}): Promise<JobQueue> {
  const { database, log, handlers } = deps;
  const queueClock = deps.manual ? new QueueTestClock(deps.clock.now().epochMilliseconds) : null;
  // Several processes share a PostgreSQL queue, so one may die with jobs in hand; the embedded database has one
  // process. Under a manual clock, runDue() runs each job to its end, so there is nothing to watch.
  const watchHeartbeats = !queueClock && deps.config.database.kind === 'postgres';
  // pg-boss hands these to its pg pool, which knows the session timeouts its own type does not list.
  const connection: ConstructorOptions =
    deps.config.database.kind === 'postgres'
      ? ({
          connectionString: deps.config.database.url,
          max: 4,
          application_name: 'gym-jobs',
          // The same bounds as the app's own pool, so an unreachable database cannot hang the queue (or a stop).
          connectionTimeoutMillis: deps.config.databaseTimeouts.connectMs,
          statement_timeout: deps.config.databaseTimeouts.statementMs,
          idle_in_transaction_session_timeout: deps.config.databaseTimeouts.idleInTransactionMs,
          query_timeout: deps.config.databaseTimeouts.statementMs + 2000,
          keepAlive: true,
        } as ConstructorOptions)
      : { db: sharedPoolAdapter(database.pool), backend: 'pglite' };
  const boss = new PgBoss({
    ...connection,
    schema: QUEUE_SCHEMA,
    ...(queueClock ? { clock: queueClock } : {}),
    ...(watchHeartbeats
      ? { superviseIntervalSeconds: SUPERVISE_SECONDS, monitorIntervalSeconds: SUPERVISE_SECONDS }
      : {}),
  });
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  boss.on('warning', (warning) => log.warn({ warning }, 'job queue warning'));
  await boss.start();

  try {
    // Creating a queue that exists changes nothing, so each start also applies the options below to queues made
    // by an earlier version (all but the policy, which pg-boss fixes at creation). A job whose process died
    // (kill -9, a power cut) is failed by any live process's supervisor once its heartbeat stops, and retried
    // after its queue's short delay: a wished revocation is not held up until the job's expiry.
    for (const {
      queue,
      options: { policy, ...options },
    } of Object.values(JOBS)) {
      await boss.createQueue(queue, { policy, ...options });
      await boss.updateQueue(queue, {
        ...options,
        ...(watchHeartbeats ? { heartbeatSeconds: HEARTBEAT_SECONDS } : {}),
      });
    }
    // pg-boss looks a queue up once and caches it; on PGlite that lookup cannot run while the confirming
    // transaction holds the one connection, so it is done now.
    for (const name of Object.values(JOB_QUEUES)) await boss.findJobs(name, { key: '-' });
  } catch (error) {
    await boss.stop({ graceful: false });
    throw error;
  }

  // Every job's data is what its declaration's handler takes (JobHandlers); pg-boss stores it untyped.
  const run = (name: JobQueueName, job: Job<unknown>): Promise<unknown> => {
    const handler = handlers[JOB_BY_QUEUE.get(name)!.name] as (data: unknown) => Promise<unknown>;
    return handler(job.data);
  };

  /** A failure is logged and thrown back to pg-boss, which retries it (and keeps the error in the job row). */
  async function runJob(name: JobQueueName, job: Job<unknown>): Promise<void> {
    try {
      await run(name, job);
    } catch (error) {
      // A door still programming is the normal course of things, not a failure worth an error line.
      // Nor is a credit note waiting for its invoice.
      const level =
        error instanceof DoorsNotSettledError || error instanceof InvoiceNotIssuedYetError ? 'info' : 'error';
      log[level](
        { queue: name, jobId: job.id, retryCount: job.retryCount, reason: describe(error) },
        'scheduled job failed; the queue will retry it',
      );
      throw error;
    }
  }

  async function sendAccessCodeJobs(
    trx: Parameters<AccessCodeScheduler['schedule']>[0],
    booking: { id: number; start: Date },
    jobId: string,
  ): Promise<void> {
    const data: AccessCodeJobData = { bookingId: booking.id };
    await boss.send(JOB_QUEUES.accessCode, data, {
      id: jobId,
      singletonKey: `booking-${booking.id}`,
      startAfter: accessCodeDueAt(booking.start),
      db: fromKysely(trx),
    });
    // The doors' check 15 minutes earlier: a backup code or the operator's alert in time for the message.
    await boss.send(JOB_QUEUES.lockCheck, data, {
      singletonKey: `booking-${booking.id}`,
      startAfter: dateFromInstant(instantFromDate(accessCodeDueAt(booking.start)).subtract({ minutes: 15 })),
      db: fromKysely(trx),
    });
  }

  /** Cancels the jobs of `key` not yet running, in the caller's transaction. */
  async function cancelWaiting(trx: Db, queue: JobQueueName, key: string): Promise<void> {
    const waiting = await boss.findJobs(queue, { key, queued: true, db: fromKysely(trx) });
    if (waiting.length === 0) return;
    await boss.cancel(
      queue,
      waiting.map((job) => job.id),
      { db: fromKysely(trx) },
    );
  }

  let stopped = false;
  return {
    boss,
    accessCodes: {
      async schedule(trx, bookings) {
        for (const booking of bookings) {
          // A known id and a singleton key: scheduling the same booking again inserts nothing. A re-send for a
          // replaced code has an id of its own; while the first job is still waiting, that one sends it.
          await sendAccessCodeJobs(trx, booking, accessCodeJobId(booking.id, booking.lockCodeId));
        }
      },
      async reschedule(trx, booking) {
        const key = `booking-${booking.id}`;
        for (const queue of [JOB_QUEUES.accessCode, JOB_QUEUES.lockCheck])
          await cancelWaiting(trx, queue, key);
        await sendAccessCodeJobs(
          trx,
          booking,
          accessCodeJobId(booking.id, booking.lockCodeId, booking.moveSeq),
        );
      },
    },
    guestCodes: {
      async schedule(trx, guest) {
        const data: GuestCodeJobData = { guestId: guest.guestId, lockCodeId: guest.lockCodeId };
        await boss.send(JOB_QUEUES.guestCode, data, {
          id: guestCodeJobId(guest.guestId, guest.lockCodeId),
          singletonKey: `guest-${guest.guestId}-${guest.lockCodeId}`,
          startAfter: guestCodeDueAt(guest.start),
          db: fromKysely(trx),
        });
      },
    },
    lockSync: {
      async schedule(trx, lockCodeIds) {
        for (const lockCodeId of new Set(lockCodeIds)) {
          // Due now by the app's clock (the queue's own under a test clock follows it, not the database's). A
          // sync already waiting out its backoff (a door that was still programming) is replaced, not kept: the
          // queue's one-waiting rule would otherwise drop this wish into that later retry, and a revocation
          // wished now would reach the doors minutes late and, if its process died, retry on the old backoff.
          const key = `code-${lockCodeId}`;
          await cancelWaiting(trx, JOB_QUEUES.lockSync, key);
          await boss.send(
            JOB_QUEUES.lockSync,
            { lockCodeId },
            { singletonKey: key, startAfter: dateFromInstant(deps.clock.now()), db: fromKysely(trx) },
          );
        }
      },
    },
    documents: {
      async schedule(trx, documentId) {
        // Due now by the app's clock; a document already queued (the sweep) is not queued twice.
        await boss.send(
          JOB_QUEUES.invoiceIssue,
          { documentId },
          {
            singletonKey: `document-${documentId}`,
            startAfter: dateFromInstant(deps.clock.now()),
            db: fromKysely(trx),
          },
        );
      },
    },
    async startWorkers() {
      for (const job of Object.values(JOBS)) {
        if ('schedule' in job) await boss.schedule(job.queue, job.schedule, null, { tz: 'UTC' });
      }
      // Under a manual clock, runDue() is the worker.
      if (queueClock) return;
      for (const job of Object.values(JOBS)) {
        const name = job.queue;
        await boss.work(
          name,
          workOptions(job, deps.config.database.kind !== 'postgres'),
          async (jobs): Promise<JobResult[]> => {
            // Each job settles on its own: a failure is retried by the queue without failing its batch.
            const results: JobResult[] = [];
            for (const job of jobs) {
              try {
                await runJob(name, job);
                results.push({ id: job.id, status: 'completed' });
              } catch (error) {
                results.push({ id: job.id, status: 'failed', output: { message: describe(error) } });
              }
            }
            return results;
          },
        );
      }
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await boss.stop({ graceful: true, timeout: 8000 });
    },
    async runDue(queues = Object.values(JOB_QUEUES)) {
      if (!queueClock) throw new Error('runDue() is for a queue on a manual clock');
      await queueClock.setTime(deps.clock.now().epochMilliseconds);
      let ran = 0;
      for (const name of queues) {
        for (;;) {
          const jobs = await boss.fetch<unknown>(name, { batchSize: 20 });
          if (jobs.length === 0) break;
          for (const job of jobs) {
            ran += 1;
            try {
              await runJob(name, job);
              await boss.complete(name, job);
            } catch (error) {
              await boss.fail(name, job, { message: describe(error) });
            }
          }
        }
      }
      return ran;
    },
  };
}
