import type { FastifyBaseLogger } from 'fastify';
import { deleteExpiredSecrets, deleteBucketsBefore } from '../accounts/index.ts';
import { dateFromInstant, type Clock } from '../kernel/clock.ts';
import type { RateLimits } from '../config.ts';
import type { Db } from '../db/database.ts';

const DAY_MS = 24 * 3600 * 1000;

export type Housekeeping = { runOnce(): Promise<void>; start(): void; stop: () => Promise<void> };

/**
 * Deletes what has stopped mattering: rate-limit counters of windows long gone, verification codes and
 * reset tokens a day after they expired (kept that long so a late click hears "expired", not "invalid").
 * Idempotent, so any number of processes may run it.
 */
export function createHousekeeping(deps: {
  db: Db;
  clock: Clock;
  rateLimits: RateLimits;
  log: FastifyBaseLogger;
  intervalMs?: number;
}): Housekeeping {
  const longestWindowMs =
    Math.max(...Object.values(deps.rateLimits).map((rule) => rule.windowSeconds)) * 1000;
  const runOnce = async () => {
    const now = dateFromInstant(deps.clock.now()).getTime();
    const counters = await deleteBucketsBefore(deps.db, new Date(now - longestWindowMs));
    const secrets = await deleteExpiredSecrets(deps.db, new Date(now - DAY_MS));
    if (counters + secrets > 0) deps.log.debug({ counters, secrets }, 'housekeeping: deleted expired rows');
  };
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  return {
    runOnce,
    start: () => {
      if (timer) return;
      timer = setInterval(
        () => {
          running ??= runOnce()
            .catch((error: unknown) => deps.log.error({ err: error }, 'housekeeping failed'))
            .finally(() => {
              running = null;
            });
        },
        deps.intervalMs ?? 15 * 60_000,
      );
      timer.unref();
    },
    stop: async () => {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
