import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { PermanentDeliveryError, type DeliveryResult } from '../adapters/delivery.ts';
import type { Mailer } from '../adapters/mail/mailer.ts';
import type { SmsProvider } from '../adapters/sms/provider.ts';
import { dateFromInstant, type Clock } from '../kernel/clock.ts';
import type { Db } from '../db/database.ts';
import {
  claimDueMessages,
  markDelivered,
  markFailed,
  scheduleRetry,
  type OutboxChannel,
  type OutboxRow,
} from './repository.ts';

export type OutboxWorkerOptions = {
  /** How often to look for due messages while idle. */
  pollMs?: number;
  /**
   * Deliveries in flight at once per channel. A provider that hangs holds at most this many of its own messages
   * (each until its adapter's deadline), never the other channel's, and the rest of its own go out beside them.
   */
  concurrency?: number;
  /** Attempts before a message is given up as `failed` (its last error stays in the row). */
  maxAttempts?: number;
  /** A claimed message is due again after this long if its worker never reports back (it crashed). */
  leaseSeconds?: number;
  /** First retry delay; each further retry waits twice as long, up to `maxBackoffSeconds`. */
  baseBackoffSeconds?: number;
  maxBackoffSeconds?: number;
};

export type OutboxWorker = {
  /** Delivers every message that is due now, both channels side by side; answers how many it handled. */
  runOnce(): Promise<DeliveryCounts>;
  start(): void;
  /** Stops polling and waits for the deliveries in progress, if any. */
  stop: () => Promise<void>;
};

type DeliveryCounts = { delivered: number; retrying: number; failed: number };

const CHANNELS: readonly OutboxChannel[] = ['email', 'sms'];

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
 * none is lost when a process dies mid-delivery. Each channel has `concurrency` places; a row is claimed only
 * when a place is free, so its lease starts with its delivery, and a slow or hung provider (bounded by its
 * adapter's timeouts, well within the lease) delays only the messages in its places.
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
    concurrency = 4,
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

  /** Delivers one claimed message and records the outcome; never rejects. */
  async function settle(row: OutboxRow, counts: DeliveryCounts): Promise<void> {
    try {
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
    } catch (error) {
      // The outcome could not be written (the database is away): the lease makes the message due again.
      deps.log.error(
        { err: error, outboxId: row.id, channel: row.channel },
        'outbox worker: a delivery outcome could not be recorded',
      );
    }
  }

  /** One channel's deliveries in flight, at most `concurrency`, shared by `runOnce` and the polling loop. */
  function createLane(channel: OutboxChannel) {
    const inFlight = new Set<Promise<void>>();
    return {
      channel,
      inFlight,
      /** Claims due messages for the free places and starts them; answers whether more may be due. */
      async fill(counts: DeliveryCounts): Promise<boolean> {
        const free = concurrency - inFlight.size;
        if (free <= 0) return true;
        const rows = await claimDueMessages(deps.db, {
          channel,
          now: now(),
          leaseUntil: later(leaseSeconds),
          limit: free,
        });
        for (const row of rows) {
          const delivery: Promise<void> = settle(row, counts).finally(() => inFlight.delete(delivery));
          inFlight.add(delivery);
        }
        return rows.length === free;
      },
      /** Resolves once a place is free. */
      async placeFreed(): Promise<void> {
        if (inFlight.size > 0) await Promise.race(inFlight);
      },
      settled: () => Promise.all(inFlight),
    };
  }
  type Lane = ReturnType<typeof createLane>;
  const lanes = CHANNELS.map(createLane);

  async function drain(lane: Lane, counts: DeliveryCounts): Promise<void> {
    try {
      while (await lane.fill(counts)) await lane.placeFreed();
    } finally {
      await lane.settled();
    }
  }

  async function runOnce(): Promise<DeliveryCounts> {
    const counts = { delivered: 0, retrying: 0, failed: 0 };
    const rounds = await Promise.allSettled(lanes.map((lane) => drain(lane, counts)));
    for (const round of rounds) if (round.status === 'rejected') throw round.reason;
    return counts;
  }

  let stopped = true;
  let stopping = new AbortController();
  let pumps: Promise<void>[] = [];

  /** A channel's polling loop: fills its free places, waits for one to free up or for the next poll. */
  async function pump(lane: Lane): Promise<void> {
    const counts = { delivered: 0, retrying: 0, failed: 0 };
    while (!stopped) {
      let more = false;
      try {
        more = await lane.fill(counts);
      } catch (error) {
        deps.log.error({ err: error, channel: lane.channel }, 'outbox worker: a delivery round failed');
      }
      if (stopped) break;
      if (more) await lane.placeFreed();
      else await sleep(pollMs, undefined, { signal: stopping.signal }).catch(() => {});
    }
  }

  return {
    runOnce,
    start: () => {
      if (!stopped) return;
      stopped = false;
      stopping = new AbortController();
      pumps = lanes.map(pump);
    },
    stop: async () => {
      stopped = true;
      stopping.abort();
      await Promise.all(pumps);
      await Promise.all(lanes.map((lane) => lane.settled()));
      pumps = [];
    },
  };
}
