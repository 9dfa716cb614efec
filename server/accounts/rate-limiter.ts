import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../kernel/clock.ts';
import type { RateLimitRule, RateLimits } from '../config.ts';
import type { Db } from '../db/database.ts';
import { AppError } from '../kernel/errors.ts';
import { hitBucket, readBucket } from './rate-limit-repository.ts';

/** A 429 that knows when the window ends, for the Retry-After header. */
export class RateLimitedError extends AppError {
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number) {
    super('rate_limited');
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Sets Retry-After on a refused request; runs before the error handler writes the body. */
export async function retryAfterHook(
  _request: FastifyRequest,
  reply: FastifyReply,
  error: FastifyError | Error,
): Promise<void> {
  if (error instanceof RateLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
}

export type RateLimiter = {
  /** Counts an attempt and refuses it (429) once the rule's limit is exceeded in the current window. */
  consume(rule: RateLimitRule, subject: string): Promise<void>;
  /** Refuses (429) when the limit is already reached, without counting: for rules that count only failures. */
  check(rule: RateLimitRule, subject: string): Promise<void>;
  /** Counts a failure, never refuses; `check` refuses the next attempt once there are enough. */
  record(rule: RateLimitRule, subject: string): Promise<void>;
};

/**
 * Fixed-window counters in PostgreSQL, shared by every server process. `subject` (an IP address, an e-mail
 * address, a phone number) reaches the database only as a keyed hash.
 */
export function createRateLimiter(deps: {
  db: Db;
  clock: Clock;
  limits: RateLimits;
  hashSubject: (value: string) => string;
}): RateLimiter {
  const window = (rule: RateLimitRule) => {
    const { limit, windowSeconds } = deps.limits[rule];
    const nowMs = deps.clock.now().epochMilliseconds;
    const windowMs = windowSeconds * 1000;
    const startMs = Math.floor(nowMs / windowMs) * windowMs;
    return {
      limit,
      start: new Date(startMs),
      retryAfterSeconds: Math.max(1, Math.ceil((startMs + windowMs - nowMs) / 1000)),
    };
  };
  const bucket = (rule: RateLimitRule, subject: string) => `${rule}:${deps.hashSubject(subject)}`;

  return {
    consume: async (rule, subject) => {
      const { limit, start, retryAfterSeconds } = window(rule);
      const hits = await hitBucket(deps.db, bucket(rule, subject), start);
      if (hits > limit) throw new RateLimitedError(retryAfterSeconds);
    },
    check: async (rule, subject) => {
      const { limit, start, retryAfterSeconds } = window(rule);
      if ((await readBucket(deps.db, bucket(rule, subject), start)) >= limit) {
        throw new RateLimitedError(retryAfterSeconds);
      }
    },
    record: async (rule, subject) => {
      await hitBucket(deps.db, bucket(rule, subject), window(rule).start);
    },
  };
}
