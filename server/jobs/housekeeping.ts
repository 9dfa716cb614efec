import type { FastifyBaseLogger } from 'fastify';
import { deleteExpiredSecrets, deleteBucketsBefore } from '../accounts/index.ts';
import { dateFromInstant, type Clock } from '../kernel/clock.ts';
import type { RateLimits } from '../config.ts';
import type { Db } from '../db/database.ts';

const DAY_MS = 24 * 3600 * 1000;

export type Housekeeping = { runOnce(): Promise<{ counters: number; secrets: number }> };

/**
 * Deletes what has stopped mattering: rate-limit counters of windows long gone, verification codes and
 * reset tokens a day after they expired (kept that long so a late click hears "expired", not "invalid").
 * Idempotent; a recurring job of the queue (every 15 minutes) runs it in one process at a time.
 */
export function createHousekeeping(deps: {
  db: Db;
  clock: Clock;
  rateLimits: RateLimits;
  log: FastifyBaseLogger;
}): Housekeeping {
  const longestWindowMs =
    Math.max(...Object.values(deps.rateLimits).map((rule) => rule.windowSeconds)) * 1000;
  return {
    async runOnce() {
      const now = dateFromInstant(deps.clock.now()).getTime();
      const counters = await deleteBucketsBefore(deps.db, new Date(now - longestWindowMs));
      const secrets = await deleteExpiredSecrets(deps.db, new Date(now - DAY_MS));
      if (counters + secrets > 0) deps.log.debug({ counters, secrets }, 'housekeeping: deleted expired rows');
      return { counters, secrets };
    },
  };
}
