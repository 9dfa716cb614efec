import type { FastifyBaseLogger } from 'fastify';
import { PermanentDeliveryError, type DeliveryResult } from '../adapters/delivery.ts';
import type { Mailer } from '../adapters/mail/mailer.ts';
import type { SmsProvider } from '../adapters/sms/provider.ts';
import { dateFromInstant, type Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { claimDueMessages, markDelivered, markFailed, scheduleRetry, type OutboxRow } from './repository.ts';

export type OutboxWorkerOptions = {
  /** How often to look for due messages while idle. */
  pollMs?: number;
  batchSize?: number;
  /** Attempts before a message is given up as `failed` (its last error stays in the row). */
  maxAttempts?: number;
  /** A claimed message is due again after this long if its worker never reports back (it crashed). */
  leaseSeconds?: number;
  /** First retry delay; each further retry waits twice as long, up to `maxBackoffSeconds`. */
  baseBackoffSeconds?: number;
  maxBackoffSeconds?: number;
};

export type OutboxWorker = {
  /** Delivers every message that is due now, batch after batch; answers how many it handled. */
  runOnce(): Promise<{ delivered: number; retrying: number; failed: number }>;
  start(): void;
  /** Stops polling and waits for the delivery in progress, if any. */
  stop: () => Promise<void>;
};

/** Seconds to wait before attempt `attempts + 1`: exponential, capped, with up to 20% jitter so retries spread. */
export function backoffSeconds(attempts: number, base: number, max: number, random = Math.random): number {
  const exponential = Math.min(max, base * 2 ** Math.max(0, attempts - 1));
  return Math.round(exponential * (1 + random() * 0.2));
}

function describe(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 500);
}

/**
 * Delivers the outbox. Any number of workers (one per server process) can run against one database:
 * each claims its rows with `for update skip locked` and a lease, so no message goes out twice at once and
 * none is lost when a process dies mid-delivery.
 */
export function createOutboxWorker(deps: {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  sms: SmsProvider;
  log: FastifyBaseLogger;
  options?: OutboxWorkerOptions;
}): OutboxWorker {
  const {
    pollMs = 2000,
    batchSize = 20,
    maxAttempts = 8,
    leaseSeconds = 120,
    baseBackoffSeconds = 30,
    maxBackoffSeconds = 3600,
  } = deps.options ?? {};
  const now = () => dateFromInstant(deps.clock.now());
  const later = (seconds: number) => new Date(now().getTime() + seconds * 1000);

  async function deliver(row: OutboxRow): Promise<DeliveryResult> {
    if (row.channel === 'email') {
      return deps.mailer.send({
        id: row.id,
        kind: row.kind,
        to: row.recipient,
        subject: row.subject ?? '',
        text: row.text_body,
        html: row.html_body,
        attachments: row.attachments,
      });
    }
    return deps.sms.send({ id: row.id, kind: row.kind, to: row.recipient, text: row.text_body });
  }

  async function runOnce() {
    const counts = { delivered: 0, retrying: 0, failed: 0 };
    for (;;) {
      const rows = await claimDueMessages(deps.db, {
        now: now(),
        leaseUntil: later(leaseSeconds),
        limit: batchSize,
      });
      if (rows.length === 0) return counts;
      for (const row of rows) {
        try {
          const result = await deliver(row);
          await markDelivered(deps.db, row.id, result, now());
          counts.delivered += 1;
        } catch (error) {
          const reason = describe(error);
          if (error instanceof PermanentDeliveryError || row.attempts >= maxAttempts) {
            await markFailed(deps.db, row.id, reason);
            counts.failed += 1;
            deps.log.error(
              { outboxId: row.id, kind: row.kind, channel: row.channel, attempts: row.attempts, reason },
              'notification could not be delivered and was given up',
            );
          } else {
            const delay = backoffSeconds(row.attempts, baseBackoffSeconds, maxBackoffSeconds);
            await scheduleRetry(deps.db, row.id, later(delay), reason);
            counts.retrying += 1;
            deps.log.warn(
              {
                outboxId: row.id,
                kind: row.kind,
                channel: row.channel,
                attempts: row.attempts,
                retryInSeconds: delay,
                reason,
              },
              'notification delivery failed; will retry',
            );
          }
        }
      }
    }
  }

  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = true;

  const tick = () => {
    running = runOnce()
      .catch((error: unknown) => deps.log.error({ err: error }, 'outbox worker: a delivery round failed'))
      .finally(() => {
        running = null;
        if (!stopped) timer = setTimeout(tick, pollMs);
      });
  };

  return {
    runOnce,
    start: () => {
      if (!stopped) return;
      stopped = false;
      tick();
    },
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
